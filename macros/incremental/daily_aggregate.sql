{#- Daily aggregates: an analyst's `select ... from {{ tideline.filtered_events() }} group by
    event_date, ...`, materialized as `tideline_daily_aggregate`. tideline restricts the select
    to the dates days_to_process picked, recomputes those whole days, writes them by partition
    overwrite, clears a date that now has no rows, and records per date what the aggregate
    reflects (tl_daily_aggregation_manifest). Each model keeps its own watermark over the
    filtered events' commit batches, so a model that failed, or is new, catches up by itself. -#}

{#- Build one daily aggregate: at most four statements (over source_events(), five: its
    watermark first, then a decide query that also reads its window of the source).
      1. decide: the days_to_process query over tl_state (nothing new: stop here, no trace);
      2. write:  one insert overwrite of the processed dates, recomputed whole from their
                 committed filtered events (a first build or --full-refresh builds a new table
                 and swaps it in);
      3. check:  which processed dates got rows from this run (a date that now has none still
                 holds its old rows: dynamic partition overwrite leaves it) and rows written;
                 the emptied dates are dropped in one more statement when there are any;
      4. commit: one insert into tl_state: a row per changed date and the run row.
    Returns {'rows_written': n} or none when there was nothing to do. -#}
{% macro build_daily_aggregate(relation, model_sql, date_column, existing, full_refresh) %}
    {%- set model_name = relation.identifier -%}
    {%- set marker, reads_source = tideline._daily_aggregate_input(model_name, model_sql) -%}
    {%- do tideline.compact_every_setting(model_name) -%}
    {%- set backfill = tideline._daily_backfill_dates() -%}
    {%- if backfill and (existing is none or full_refresh) -%}
        {{ tideline._refuse_backfill(model_name, "it was never built; run it without tideline__backfill_dates first" if existing is none
                                     else "a --full-refresh rebuilds every date; run the backfill without --full-refresh") }}
    {%- endif -%}
    {%- set format = tideline.model_file_format(model_name) -%}
    {%- if not (full_refresh or existing is none) -%}{%- do tideline.refuse_other_file_format(model_name, existing, format) -%}{%- endif -%}

    {#- 1. decide -#}
    {%- set plan = tideline._daily_plan(model_name, reads_source, full_refresh or existing is none, backfill) -%}
    {%- do tideline.refuse_now_before_watermark(model_name, plan.watermark) -%}
    {%- if plan.window -%}{%- do tideline.handle_rejected_events(model_name, relation, plan.window, plan.lower) -%}{%- endif -%}
    {%- do tideline.checkpoint(model_name, 'decided') -%}
    {%- set process_dates = plan.dates | selectattr('processed') | map(attribute='event_date') | list -%}
    {%- set changed = plan.dates | selectattr('processed') | list + (plan.dates | rejectattr('processed') | selectattr('new_rows') | list) -%}
    {%- set nothing_read = plan.window is not none and plan.window.rows_read == 0 -%}
    {%- if plan.filtered_upper is none or (not changed and (not plan.first_build or nothing_read)) -%}
        {%- do tideline._daily_nothing_to_do(relation, model_sql, marker, date_column, existing, plan, format) -%}
        {{ return(none) }}
    {%- endif -%}

    {#- an attribute view's definition, checked against its rows' (daily_definition.sql) -#}
    {%- do plan.update({'definition': tideline.daily_aggregate_definition(model_name, plan.first_build)}) -%}

    {#- 2. write, 3. check -#}
    {%- set day_sql = tideline._daily_rows_to_write(model_sql, marker, reads_source, plan, process_dates) -%}
    {%- set rows_written = tideline._write_daily_dates(relation, day_sql, date_column, existing, format, plan.first_build, process_dates) -%}
    {%- do tideline.checkpoint(model_name, 'written') -%}

    {#- 4. commit -#}
    {%- do tideline._commit_daily_run(model_name, plan, changed, process_dates, rows_written, backfill, reads_source) -%}
    {{- return({'rows_written': rows_written}) -}}
{% endmacro %}

{#- The decision (days_to_process), with {first_build, window_lower, state_files} added. Reading
    the source, the model's watermark comes first: its window's lower limit. A table that is
    there but has no committed run (its first build found no events, or died before its
    commit) is built as a first build. -#}
{% macro _daily_plan(model_name, reads_source, first_build, backfill) %}
    {%- set state = {'watermark': none, 'files': none} -%}
    {%- if reads_source and not first_build -%}
        {%- set watermark, files = tideline.window_watermark(model_name) -%}
        {%- do state.update({'watermark': watermark, 'files': files}) -%}
    {%- endif -%}
    {%- set lower = tideline.lower_limit(state.watermark) -%}
    {%- set window_lower = lower if reads_source and not backfill else none -%}
    {%- set plan = tideline.days_to_process(model_name, first_build, backfill, reads_source, window_lower) -%}
    {%- if plan.watermark is none and (plan.filtered_upper is not none or reads_source) and not first_build -%}
        {%- if backfill -%}
            {{ tideline._refuse_backfill(model_name, "no run of it has committed yet; run it without tideline__backfill_dates first") }}
        {%- endif -%}
        {%- set first_build = true -%}
        {%- set plan = tideline.days_to_process(model_name, first_build, backfill, reads_source, window_lower) -%}
    {%- endif -%}
    {%- do plan.update({'first_build': first_build, 'lower': lower,
                        'state_files': state.files if reads_source else plan.state_files}) -%}
    {{- return(plan) -}}
{% endmacro %}

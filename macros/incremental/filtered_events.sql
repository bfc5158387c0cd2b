{#- tl_filtered_events: the events the daily aggregates are built from, partitioned by event
    date. A run (materialization tideline_filtered_events) sends at most four statements:

      1. state:  the watermark (newest committed run of tl_filtered_events);
      2. decide: one query that computes the run limits and everything the run will record
                 (rows read, duplicates, rejected, rows without load time, per event date the
                 new and the late rows); rejected events are then refused or set aside when
                 tideline__on_bad_rows says so (rejected_events.sql);
      3. write:  one append of this window's events (a first run or --full-refresh builds a
                 new table and swaps it in instead);
      4. commit: one insert into tl_state: a row per touched date and the run row.
    A window without loads stops after step 2 and leaves no trace. A run that died before step
    4 left rows whose _tl_run no run row names, and the rerun reads the same window again.
    So the rows live in the table tl_filtered_events__tl_rows, and tl_filtered_events is a view
    of its committed rows: what every reader, tideline's or an analyst's, sees. -#}

{#- The whole run of tl_filtered_events (steps 1 to 4 above). `relation` is the model's view. -#}
{% macro build_filtered_events(relation, model_sql, full_refresh) %}
    {%- set model_name = relation.identifier -%}
    {%- for marker in tideline._run_window_markers() if marker not in model_sql -%}
        {{ exceptions.raise_compiler_error("tideline: {} must read its events with `from {}`".format(model_name, "{{ tideline.events_this_run() }}")) }}
    {%- endfor -%}
    {%- do tideline.compact_every_setting(model_name) -%}
    {%- set format = tideline.model_file_format(model_name) -%}
    {%- set rows_relation = tideline.stored_relation(relation.incorporate(path={'identifier': '{}__tl_rows'.format(model_name)}), format) -%}
    {%- set existing = tideline.find_stored_table(rows_relation, format, full_refresh) -%}

    {#- 1. state -#}
    {%- set first_run = full_refresh or existing is none -%}
    {%- if not first_run -%}{%- do tideline.refuse_other_file_format(model_name, existing, format) -%}{%- endif -%}
    {%- set watermark = none -%}
    {%- set state_files = none -%}
    {%- if not first_run -%}
        {%- set watermark, state_files = tideline.window_watermark(model_name) -%}
        {%- set first_run = watermark is none -%}
    {%- endif -%}
    {%- set lower = tideline.lower_limit(watermark) -%}

    {#- 2. decide -#}
    {%- set run = tideline.filtered_events_decide(lower) -%}
    {%- do tideline.handle_rejected_events(model_name, relation, run, lower) -%}
    {%- do tideline.checkpoint(model_name, 'decided') -%}
    {%- set select_sql = tideline._filtered_events_for_window(model_sql, lower, tideline.ts(run.upper), run.upper[:10]) -%}
    {%- if run.rows_read == 0 -%}
        {#- a window without loads changes nothing: no write, no commit, no trace. Only a first
            build creates the (empty) table and its view, so that readers and tests find them. -#}
        {%- if existing is none -%}
            {%- do tideline.replace_table(rows_relation, select_sql, 'event_date', none, format) -%}
        {%- endif -%}
        {%- do tideline._create_committed_rows_view(relation, rows_relation, existing is none) -%}
        {%- if existing is none -%}{%- do tideline.drop_converted_table(rows_relation, format) -%}{%- endif -%}
        {%- do tideline.log_run(model_name, none if first_run else run.lower, run.upper, 0, 0, 0,
            rows_without_load_time=run.rows_without_load_time) -%}
        {%- do tideline.warn_unreadable_rows(run) -%}
        {{ return(none) }}
    {%- endif -%}

    {#- 3. write -#}
    {%- do tideline._filtered_events_write(rows_relation, select_sql, existing, first_run, format) -%}
    {%- do tideline.checkpoint(model_name, 'written') -%}
    {%- do tideline._create_committed_rows_view(relation, rows_relation, existing is none) -%}

    {#- 4. commit -#}
    {%- do tideline._filtered_events_commit(model_name, run, first_run, state_files) -%}
    {%- if first_run -%}{%- do tideline.drop_converted_table(rows_relation, format) -%}{%- endif -%}
    {%- do tideline.warn_unreadable_rows(run) -%}
    {%- do tideline.log_run(model_name, none if first_run else run.lower, run.upper, run.rows_read, run.rows_written,
        run.dates | length, duplicates_dropped=run.duplicates_dropped, rows_rejected=run.rows_rejected,
        rows_without_load_time=run.rows_without_load_time) -%}
    {{- return(run) -}}
{% endmacro %}

{#- The model's view, of the committed runs' rows: created when it is missing, and replaced when the
    rows table is new (it may be in another catalog: a file_format changed). -#}
{% macro _create_committed_rows_view(relation, rows_relation, new_table) %}
    {%- if new_table or adapter.get_relation(database=none, schema=relation.schema, identifier=relation.identifier) is none -%}
        {% call statement('view', fetch_result=false) %}
            create or replace view {{ relation }} as
            select * from {{ rows_relation }}
            where _tl_run in ({{ tideline.committed_runs_sql(relation.identifier) }})
        {% endcall %}
    {%- endif -%}
{% endmacro %}

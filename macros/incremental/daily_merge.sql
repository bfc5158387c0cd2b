{#- Daily aggregates, merge path: a model that declares its measures (config `measures`, see
    daily_measures.sql) keeps partial aggregates and merges them, instead of recomputing the
    dates it processes from all their events.

    Its rows live in a parts table, <model>__tl_data (or __tl_data_b, data_tables.sql),
    partitioned by the date column, with _tl_batch and _tl_run; the model is a view that merges
    the parts of committed runs by key (merged_parts_sql). days_to_process decides as on the
    recompute path (over source_events(), with the model's own run window); then a run
      1. appends one part: the model's select over the new events of each processed date only,
         those committed (filtered_events()) or loaded (source_events()) after the batch the
         date was last processed at (so what a date reflects is what a recompute at the same
         batch would: held late rows are merged when released);
      2. counts the rows it appended, and commits (one insert into tl_state, as the recompute
         path's);
      3. every settle_every runs (default 1), after its commit, settles the parts (daily_merge_layout.sql):
         the dates holding parts of several runs get them merged, one insert overwrite of their
         partitions, so that every date holds one row per key again;
      4. gives readers the new rows: on Delta and Iceberg, after a settling run, a view that
         reads the parts table as that run left it (its version), without merging; otherwise
         (parquet, or parts not settled) the view that merges the committed parts.
    A run that dies before its commit leaves a part no commit names: nobody reads it, the rerun
    writes its own, and the next settling run drops it. A rebuild (first build,
    --full-refresh) writes the whole aggregate into the other slot and swaps the view onto it
    (data_table_swap.sql): readers see the old rows up to that one statement. -#}

{#- Build one mergeable daily aggregate; `view` is the model's relation. Returns {'rows_written': n}
    or none when there was nothing to do. -#}
{% macro build_mergeable_daily_aggregate(view, model_sql, date_column, measures, full_refresh) %}
    {%- set model_name = view.identifier -%}
    {%- set marker, reads_source = tideline._daily_aggregate_input(model_name, model_sql) -%}
    {%- do tideline.compact_every_setting(model_name) -%}
    {%- set settle_every = tideline.settle_every_setting(model_name) -%}
    {%- if tideline._daily_backfill_dates() -%}
        {{ tideline._refuse_backfill(model_name, "it merges partial aggregates (config measures); rebuild it with --full-refresh instead") }}
    {%- endif -%}
    {%- set format = tideline.model_file_format(model_name) -%}
    {%- set tables = tideline.find_data_tables(view, format, full_refresh, []) -%}
    {%- set existing = adapter.get_relation(database=none, schema=view.schema, identifier=model_name) -%}
    {%- set properties = tideline.view_properties(view) if existing is not none and existing.type == 'view' else {} -%}
    {%- do tideline._refuse_other_merge_layout(view, existing, properties, measures, full_refresh or tables.live is none) -%}
    {%- do tideline.finish_swap(model_name, tables) -%}

    {%- set plan = tideline._daily_plan(model_name, reads_source, tables.rebuild, none) -%}
    {%- do tideline.refuse_now_before_watermark(model_name, plan.watermark) -%}
    {%- do tideline.checkpoint(model_name, 'decided') -%}
    {%- set processed = plan.dates | selectattr('processed') | list -%}
    {%- set changed = processed + (plan.dates | rejectattr('processed') | selectattr('new_rows') | list) -%}
    {%- set nothing_read = plan.window is not none and plan.window.rows_read == 0 -%}
    {%- if plan.filtered_upper is none or (not changed and (not plan.first_build or nothing_read)) -%}
        {%- set why = "tl_filtered_events has no committed run yet" if plan.filtered_upper is none else "nothing new since {}".format(plan.watermark) -%}
        {%- do log("tideline {}: {}; nothing to do (path merge)".format(model_name, why), info=true) -%}
        {%- if tables.live is none -%}
            {%- do tideline._merge_rebuild(view, existing, model_sql, marker, reads_source, date_column, measures, tables, plan, format, false) -%}
        {%- else -%}
            {#- a run that died between its commit and the view's replacement -#}
            {%- do tideline._merge_republish(view, existing, properties, tables.live, date_column, measures, format) -%}
        {%- endif -%}
        {{ return(none) }}
    {%- endif -%}

    {%- if plan.first_build -%}
        {%- set rows_written = tideline._merge_rebuild(view, existing, model_sql, marker, reads_source, date_column, measures, tables, plan, format, true) -%}
    {%- else -%}
        {%- set rows_written = tideline._merge_append(model_name, model_sql, marker, reads_source, date_column, tables.live, plan, processed) -%}
        {%- do tideline._commit_daily_run(model_name, plan, changed, processed | map(attribute='event_date') | list, rows_written, none, reads_source, tideline._merge_path(processed)) -%}
        {%- set open_from = properties.get('tideline.open_from') or none -%}
        {%- set settles = (plan.model_runs + 1) % settle_every == 0 -%}
        {%- if settles -%}
            {%- set layout = tideline._merge_layout(model_name, tables.live, date_column, open_from) -%}
            {%- do tideline._merge_settle(model_name, date_column, measures, tables.live, layout, format) -%}
            {%- set open_from = plan.reads_up_to -%}
        {%- endif -%}
        {%- do tideline._merge_publish(view, existing, properties, tables.live, measures, open_from,
                                       tideline.table_version_clause(tables.live, format) if settles else none) -%}
    {%- endif -%}
    {{- return({'rows_written': rows_written}) -}}
{% endmacro %}

{#- What the run line and the commit say of a merge run: the path, and the rows it read (of each
    processed date, its held rows and its new ones). -#}
{% macro _merge_path(processed) %}
    {%- set read = processed | sum(attribute='pending_rows') - processed | sum(attribute='late_rows') + processed | sum(attribute='new_rows') -%}
    {{- return({'name': 'merge', 'rows_read': read, 'state_key': none}) -}}
{% endmacro %}

{#- Before anything is written, a run that is not a rebuild refuses a model stored otherwise: a
    table (the recompute path's, from before its measures were declared), or parts made with
    other measures (the view records them). -#}
{% macro _refuse_other_merge_layout(view, existing, properties, measures, rebuild) %}
    {%- if rebuild or existing is none -%}{{ return(none) }}{%- endif -%}
    {%- set found = "is a table (built recomputing whole days)" if existing.type != 'view'
        else properties.get('tideline.measures') -%}
    {%- set wanted = tideline._merge_view_properties(measures)['tideline.measures'] -%}
    {%- if found != wanted -%}
        {%- set what = found if existing.type != 'view' else "has parts made with measures {}".format(found or 'none') -%}
        {{ exceptions.raise_compiler_error("tideline: daily aggregate {model}: {existing} {what}; its config measures ({wanted}) merge partial aggregates, which it does not hold. Nothing was written. Rebuild it with dbt run --full-refresh --select {model}.".format(
            model=view.identifier, existing=existing, what=what, wanted=wanted)) }}
    {%- endif -%}
{% endmacro %}

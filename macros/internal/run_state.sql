{#- tideline's run machinery, shared by every capability: one state table, one commit per run.

    tl_state is a table in the target schema, in the format tideline__state_file_format names
    (Delta by default, parquet or Iceberg), append-only and partitioned by model. A run of a
    model reads its state with one query and, once its data is written, commits with ONE
    insert of all its state rows: the rows about its dates (kind 'date') and the run row itself
    (kind 'run', or 'backfill' for a run that moves no watermark). The insert is one commit (on
    parquet a single file, on Delta and Iceberg one transaction), so the run row and the rows it
    vouches for appear together or not at all: a run that died before its commit leaves no
    state, and its data rows carry a run id (_tl_run) that no run row names, so readers ignore
    them.

    Every table tideline writes carries _tl_batch (the commit time of its rows: for the
    pipeline, the upper limit of the load window they came from) and _tl_run (the dbt
    invocation that wrote them). Consumers keep their watermarks over batch.

    The columns, each with one meaning for every capability (docs/state.md), are in
    state_columns.sql; the table and its views are made by ensure_state.sql, an earlier
    version's table migrated by earlier_state.sql and state_migration.sql; the commit is in
    commit.sql.

    Analysts read the views over tl_state: tl_incremental_manifest (one row per committed run),
    tl_daily_aggregation_manifest (per model and date, the newest state), tl_days_to_process
    (every decision) and tl_filtered_events_log (what each batch added per date).

    COMPACTION (contract 3). One file per commit would make every state read slower with the
    number of runs (8,760 a year for an hourly model). So a model's state query also counts the
    files of its partition (state_files_sql), and the commit that takes it past compact_every
    files rewrites the model's rows into one file (compact_state: on parquet into another
    folder, then the partition pointed there; Delta's optimize and Iceberg's rewrite_data_files
    are one commit each). Readers see the old files or the new, never both. -#}

{#- The schema's state table tl_state (in the Iceberg catalog when tideline__state_file_format
    is iceberg, see storage.sql), or another table or view of the schema by `name`. -#}
{% macro state_table(name='tl_state') %}
    {%- if name == 'tl_state' and tideline.state_file_format() == 'iceberg' -%}
        {{- return('{}.{}.{}'.format(tideline.iceberg_catalog(), target.schema, name)) -}}
    {%- endif -%}
    {{- return('{}.{}'.format(target.schema, name)) -}}
{% endmacro %}

{#- True when the schema's tl_state exists, from dbt's relation cache (no statement). An Iceberg
    tl_state is not in the cache: its views, which ensure_state_tables creates with it, are. -#}
{% macro state_table_known() %}
    {%- set name = 'tl_incremental_manifest' if tideline.state_file_format() == 'iceberg' else 'tl_state' -%}
    {{- return(adapter.get_relation(database=none, schema=target.schema, identifier=name) is not none) -}}
{% endmacro %}

{#- The analysts' views over tl_state; each reads committed rows only (all rows are). -#}
{% macro state_views() %}
    {%- set state = tideline.state_table() -%}
    {%- set views = {} -%}
    {% set sql %}
        select model, run_id, kind, lower_limit, upper_limit, watermark, rows_read, rows_written,
            duplicates_dropped, rows_rejected, days_processed, late_rows_skipped, rows_without_load_time,
            run_now, committed_at
        from {{ state }}
        where kind = 'run'
    {% endset %}
    {%- do views.update({'tl_incremental_manifest': sql}) -%}
    {% set sql %}
        select model, event_date, processed_rows, skipped_rows, last_processed_at, batch, run_id, committed_at
        from (
            select
                *,
                row_number() over (partition by model, event_date order by committed_at desc) as newest
            from {{ state }}
            where kind = 'date' and model <> 'tl_filtered_events'
        ) as dates
        where newest = 1
    {% endset %}
    {%- do views.update({'tl_daily_aggregation_manifest': sql}) -%}
    {% set sql %}
        select model, event_date, new_rows, late_rows, pending_rows, processed, batch, run_now, run_id
        from {{ state }}
        where kind = 'date' and model <> 'tl_filtered_events'
    {% endset %}
    {%- do views.update({'tl_days_to_process': sql}) -%}
    {% set sql %}
        select event_date, new_rows, late_rows, batch, run_id
        from {{ state }}
        where kind = 'date' and model = 'tl_filtered_events'
    {% endset %}
    {%- do views.update({'tl_filtered_events_log': sql}) -%}
    {{- return(views) -}}
{% endmacro %}

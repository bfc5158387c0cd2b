{#- tideline's run machinery, shared by every capability: one state table, one commit per run.

    tl_state is a plain parquet table in the target schema, append-only and partitioned by
    model. A run of a model reads its state with one query and, once its data is written,
    commits with ONE insert of all its state rows: the rows about its dates (kind 'date') and
    the run row itself (kind 'run', or 'backfill' for a run that moves no watermark). The
    insert writes a single file, so the run row and the rows it vouches for appear together
    or not at all: a run that died before its commit leaves no state, and its data rows carry
    a run id (_tl_run) that no run row names, so readers ignore them.

    A daily aggregate over source_events() keeps in its date rows' lower_limit the first load
    time of the date's events: where the recompute of the date starts reading the source.

    Every table tideline writes carries _tl_batch (the commit time of its rows: for the
    pipeline, the upper limit of the load window they came from) and _tl_run (the dbt
    invocation that wrote them). Consumers keep their watermarks over batch.

    The table, its columns and views are in state_table.sql, the commit in commit.sql.

    Analysts read the views over tl_state: tl_incremental_manifest (one row per committed run),
    tl_daily_aggregation_manifest (per model and date, the newest state), tl_days_to_process
    (every decision) and tl_filtered_events_log (what each batch added per date).

    COMPACTION (contract 3). One file per commit would make every state read slower with the
    number of runs (8,760 a year for an hourly model). So a model's state query also counts the
    files of its partition (state_files_sql), and the commit that takes it past compact_every
    files rewrites the partition into one file in another folder, then points the partition
    there (compact_state). Readers see the old folder or the new one, never both. -#}

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

{#- The columns of tl_state, defined once: created from here and checked against here. -#}
{% macro state_columns() %}
    {{- return([
        ['run_id', 'string'], ['kind', 'string'], ['batch', 'timestamp'], ['run_now', 'timestamp'],
        ['committed_at', 'timestamp'],
        ['lower_limit', 'timestamp'], ['upper_limit', 'timestamp'], ['watermark', 'timestamp'],
        ['rows_read', 'bigint'], ['rows_written', 'bigint'], ['duplicates_dropped', 'bigint'],
        ['rows_rejected', 'bigint'], ['days_processed', 'int'], ['late_rows_skipped', 'bigint'],
        ['rows_without_load_time', 'bigint'],
        ['event_date', 'date'], ['new_rows', 'bigint'], ['late_rows', 'bigint'], ['pending_rows', 'bigint'],
        ['processed', 'boolean'], ['processed_rows', 'bigint'], ['skipped_rows', 'bigint'],
        ['last_processed_at', 'timestamp'],
        ['generation', 'int'],
        ['transform', 'string'],
        ['mutable_time', 'timestamp'], ['realtime_after', 'timestamp'], ['missing_deletes', 'bigint'],
        ['model', 'string'],
    ]) -}}
{% endmacro %}

{#- The version of tl_state's layout this tideline writes (table property tideline.state_version),
    and the columns each earlier version added: a state table of an earlier layout is migrated
    on the first run of this version (migrate_state_table), any other layout is refused.
      2: a channel's mutable_time, realtime_after and missing_deletes in columns of their own
         (version 1 kept them in upper_limit, lower_limit and rows_rejected). -#}
{% macro state_version() %}
    {{- return(2) -}}
{% endmacro %}

{% macro state_columns_added() %}
    {{- return({2: ['mutable_time', 'realtime_after', 'missing_deletes']}) -}}
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

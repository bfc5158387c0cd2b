{#- tideline's state tables for the time-based pipeline. They are plain parquet tables in the
    target schema, append-only and partitioned by model, so that analysts can query them and a
    model's --full-refresh can drop its own partition. A run appends its rows tagged with its
    batch (the upper limit of its window) and commits by appending one row to
    tl_incremental_manifest last: readers only trust rows of committed batches, so a run that
    died half-way leaves nothing that counts. -#}

{% macro state_table(name) %}
    {{- return(target.schema ~ '.' ~ name) -}}
{% endmacro %}

{#- The state tables' columns, defined once: created from here and checked against here. -#}
{% macro state_table_columns() %}
    {{- return({
        'tl_incremental_manifest': [
            ['lower_limit', 'timestamp'], ['upper_limit', 'timestamp'], ['watermark', 'timestamp'],
            ['rows_read', 'bigint'], ['rows_written', 'bigint'], ['duplicates_dropped', 'bigint'],
            ['rows_rejected', 'bigint'], ['days_processed', 'int'], ['late_rows_skipped', 'bigint'],
            ['rows_without_load_time', 'bigint'], ['run_now', 'timestamp'], ['model', 'string']],
        'tl_daily_aggregation_manifest': [
            ['event_date', 'date'], ['processed_rows', 'bigint'], ['skipped_rows', 'bigint'],
            ['last_processed_at', 'timestamp'], ['batch', 'timestamp'], ['seq', 'bigint'], ['model', 'string']],
        'tl_days_to_process': [
            ['event_date', 'date'], ['new_rows', 'bigint'], ['late_rows', 'bigint'], ['pending_rows', 'bigint'],
            ['processed', 'boolean'], ['batch', 'timestamp'], ['run_now', 'timestamp'], ['model', 'string']],
        'tl_filtered_events_log': [
            ['event_date', 'date'], ['new_rows', 'bigint'], ['late_rows', 'bigint'], ['batch', 'timestamp']],
    }) -}}
{% endmacro %}

{#- on-run-start: create the state tables that are missing, and refuse to run over a state table
    whose columns are not this version's (state is not migrated between versions). -#}
{% macro ensure_state_tables() %}
    {%- if not execute -%}{{ return('select 1') }}{%- endif -%}
    {%- do tideline.exec('create schema if not exists ' ~ target.schema) -%}
    {%- set missing = [] -%}
    {%- for name, columns in tideline.state_table_columns().items() -%}
        {%- set relation = adapter.get_relation(database=none, schema=target.schema, identifier=name) -%}
        {%- if relation is none -%}
            {%- do missing.append(name) -%}
        {%- else -%}
            {%- set found = adapter.get_columns_in_relation(relation) | map(attribute='name') | map('lower') | list -%}
            {%- set wanted = columns | map('first') | list -%}
            {%- if found != wanted -%}
                {{ exceptions.raise_compiler_error("tideline: state table " ~ tideline.state_table(name) ~ " has columns ("
                    ~ found | join(', ') ~ "), this version of tideline expects (" ~ wanted | join(', ')
                    ~ "). State is not migrated between versions: drop the tideline state tables (tl_incremental_manifest, "
                    ~ "tl_daily_aggregation_manifest, tl_days_to_process, tl_filtered_events_log) and rebuild with dbt run --full-refresh.") }}
            {%- endif -%}
        {%- endif -%}
    {%- endfor -%}
    {%- for name in missing -%}
        {%- set columns = tideline.state_table_columns()[name] -%}
        {%- set defs = [] -%}
        {%- for c in columns -%}{%- do defs.append(c[0] ~ ' ' ~ c[1]) -%}{%- endfor -%}
        {%- do tideline.exec('create table if not exists ' ~ tideline.state_table(name) ~ ' (' ~ defs | join(', ') ~ ') using parquet'
            ~ (' partitioned by (model)' if columns[-1][0] == 'model' else '')) -%}
    {%- endfor -%}
    {%- do tideline.refuse_partial_full_refresh() -%}
    {{- return('select 1') -}}
{% endmacro %}

{#- The committed runs of a model, newest last: list of [lower, upper, watermark]. -#}
{% macro committed_batches_sql(model_name) %}
    select upper_limit from {{ tideline.state_table('tl_incremental_manifest') }}
    where model = '{{ model_name }}'
{% endmacro %}

{#- The load-time watermark of a model (none before its first committed run). -#}
{% macro watermark(model_name) %}
    {%- set rows = tideline.query_rows("select cast(max(watermark) as string), cast(max(upper_limit) as string) from " ~ tideline.state_table('tl_incremental_manifest') ~ " where model = '" ~ model_name ~ "'") -%}
    {{- return(rows[0] if rows else [none, none]) -}}
{% endmacro %}

{#- Forget a model's state (its --full-refresh). -#}
{% macro reset_state(model_name) %}
    {%- for table in ['tl_incremental_manifest', 'tl_daily_aggregation_manifest', 'tl_days_to_process'] -%}
        {%- do tideline.exec('alter table ' ~ tideline.state_table(table) ~ " drop if exists partition (model = '" ~ model_name ~ "')") -%}
    {%- endfor -%}
{% endmacro %}

{#- Commit a run: the last statement of every incremental tideline model. -#}
{% macro commit_run(model_name, lower, upper, watermark, rows_read, rows_written, duplicates_dropped, rows_rejected, days_processed, late_rows_skipped, rows_without_load_time=0) %}
    {%- do tideline.exec('insert into ' ~ tideline.state_table('tl_incremental_manifest') ~ ' partition (model = \'' ~ model_name ~ '\') select '
        ~ tideline.ts(lower) ~ ', ' ~ tideline.ts(upper) ~ ', ' ~ tideline.ts(watermark) ~ ', '
        ~ rows_read ~ ', ' ~ rows_written ~ ', ' ~ duplicates_dropped ~ ', ' ~ rows_rejected ~ ', ' ~ days_processed ~ ', '
        ~ late_rows_skipped ~ ', ' ~ rows_without_load_time ~ ', ' ~ tideline.ts(tideline.now())) -%}
{% endmacro %}

{#- One line per model per run in dbt's log (contract 6). -#}
{% macro log_run(model_name, lower, upper, rows_read, rows_written, days, duplicates_dropped=0, rows_rejected=0, late_rows_skipped=0, rows_without_load_time=0) %}
    {{ log("tideline " ~ model_name ~ ": window (" ~ lower ~ ", " ~ upper ~ "], rows read " ~ rows_read
           ~ ", rows written " ~ rows_written ~ ", dates processed " ~ days ~ ", late rows skipped " ~ late_rows_skipped
           ~ ", duplicates dropped " ~ duplicates_dropped ~ ", rows rejected " ~ rows_rejected
           ~ (", WARNING: source rows without load_tstamp (never processed) " ~ rows_without_load_time if rows_without_load_time | int > 0 else ""), info=true) }}
{% endmacro %}

{#- Test-only fault injection (contract 2's tests): with --vars '{tideline__fail_at: "<model>:<step>"}'
    the run fails right after that step, as a killed process would. -#}
{% macro checkpoint(model_name, step) %}
    {%- if var('tideline__fail_at', none) == model_name ~ ':' ~ step -%}
        {{ exceptions.raise_compiler_error("tideline: injected failure after " ~ model_name ~ ":" ~ step) }}
    {%- endif -%}
{% endmacro %}

{#- tideline's state tables for the time-based pipeline. They are plain parquet tables in the
    target schema, append-only and partitioned by model, so that analysts can query them and a
    model's --full-refresh can drop its own partition. A run appends its rows tagged with its
    batch (the upper limit of its window) and commits by appending one row to
    tl_incremental_manifest last: readers only trust rows of committed batches, so a run that
    died half-way leaves nothing that counts. -#}

{% macro state_table(name) %}
    {{- return(target.schema ~ '.' ~ name) -}}
{% endmacro %}

{% macro ensure_state_tables() %}
    {%- if not execute -%}{{ return('select 1') }}{%- endif -%}
    {%- do tideline.exec('create schema if not exists ' ~ target.schema) -%}
    {%- do tideline.exec('create table if not exists ' ~ tideline.state_table('tl_incremental_manifest') ~ ' (
        lower_limit timestamp, upper_limit timestamp, watermark timestamp, rows_read bigint,
        rows_written bigint, duplicates_dropped bigint, rows_rejected bigint, days_processed int, late_rows_skipped bigint,
        run_now timestamp, model string) using parquet partitioned by (model)') -%}
    {%- do tideline.exec('create table if not exists ' ~ tideline.state_table('tl_daily_aggregation_manifest') ~ ' (
        event_date date, processed_rows bigint, skipped_rows bigint, last_processed_at timestamp,
        batch timestamp, seq bigint, model string) using parquet partitioned by (model)') -%}
    {%- do tideline.exec('create table if not exists ' ~ tideline.state_table('tl_days_to_process') ~ ' (
        event_date date, new_rows bigint, late_rows bigint, pending_rows bigint, processed boolean,
        batch timestamp, run_now timestamp, model string) using parquet partitioned by (model)') -%}
    {%- do tideline.exec('create table if not exists ' ~ tideline.state_table('tl_filtered_events_log') ~ ' (
        event_date date, new_rows bigint, late_rows bigint, batch timestamp) using parquet') -%}
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
{% macro commit_run(model_name, lower, upper, watermark, rows_read, rows_written, duplicates_dropped, rows_rejected, days_processed, late_rows_skipped) %}
    {%- do tideline.exec('insert into ' ~ tideline.state_table('tl_incremental_manifest') ~ ' partition (model = \'' ~ model_name ~ '\') select '
        ~ tideline.ts(lower) ~ ', ' ~ tideline.ts(upper) ~ ', ' ~ tideline.ts(watermark) ~ ', '
        ~ rows_read ~ ', ' ~ rows_written ~ ', ' ~ duplicates_dropped ~ ', ' ~ rows_rejected ~ ', ' ~ days_processed ~ ', '
        ~ late_rows_skipped ~ ', ' ~ tideline.ts(tideline.now())) -%}
{% endmacro %}

{#- One line per model per run in dbt's log (contract 6). -#}
{% macro log_run(model_name, lower, upper, rows_read, rows_written, days, duplicates_dropped=0, rows_rejected=0, late_rows_skipped=0) %}
    {{ log("tideline " ~ model_name ~ ": window (" ~ lower ~ ", " ~ upper ~ "], rows read " ~ rows_read
           ~ ", rows written " ~ rows_written ~ ", dates processed " ~ days ~ ", late rows skipped " ~ late_rows_skipped
           ~ ", duplicates dropped " ~ duplicates_dropped ~ ", rows rejected " ~ rows_rejected, info=true) }}
{% endmacro %}

{#- Test-only fault injection (contract 2's tests): with --vars '{tideline__fail_at: "<model>:<step>"}'
    the run fails right after that step, as a killed process would. -#}
{% macro checkpoint(model_name, step) %}
    {%- if var('tideline__fail_at', none) == model_name ~ ':' ~ step -%}
        {{ exceptions.raise_compiler_error("tideline: injected failure after " ~ model_name ~ ":" ~ step) }}
    {%- endif -%}
{% endmacro %}

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
        {{- return(tideline.iceberg_catalog() ~ '.' ~ target.schema ~ '.' ~ name) -}}
    {%- endif -%}
    {{- return(target.schema ~ '.' ~ name) -}}
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
        ['model', 'string'],
    ]) -}}
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

{#- The columns of a cached relation, from the information dbt's relation cache already holds
    (no statement); none when the cache has no column list for it. -#}
{% macro cached_columns(relation) %}
    {%- set information = relation.information if relation is not none and relation.information is defined else none -%}
    {%- if not information -%}{{ return(none) }}{%- endif -%}
    {%- set columns = [] -%}
    {%- for m in modules.re.finditer('(?m)^ \|-- (.*?): (.*?) \(nullable', information) -%}
        {%- do columns.append(m.group(1) | lower) -%}
    {%- endfor -%}
    {{- return(columns or none) -}}
{% endmacro %}

{#- on-run-start: create tl_state and its views when missing, and refuse a state table of
    another version: state is not migrated between versions, and a state table with other
    columns (or a state table of the earlier layout, where the views are now) stops the run
    before anything is written, naming the table, its columns and the fix. With everything in
    place it sends no statement: dbt's relation cache already knows the tables and columns. -#}
{% macro ensure_state_tables() %}
    {%- if not execute -%}{{ return('') }}{%- endif -%}
    {#- checks first, so that a refused run has created nothing -#}
    {%- set wanted = tideline.state_columns() | map('first') | list -%}
    {%- do tideline.ensure_iceberg_namespaces() -%}
    {%- set relation = adapter.get_relation(database=none, schema=target.schema, identifier='tl_state') -%}
    {%- if tideline.state_file_format() == 'iceberg' and relation is none -%}
        {%- set relation = tideline.find_stored_table(api.Relation.create(schema=target.schema, identifier='tl_state'), 'iceberg') -%}
    {%- endif -%}
    {%- if relation is not none -%}
        {%- set found = tideline.cached_columns(relation) -%}
        {%- if found is none -%}
            {%- set found = adapter.get_columns_in_relation(relation) | map(attribute='name') | map('lower') | list -%}
        {%- endif -%}
        {%- if found != wanted -%}
            {{ exceptions.raise_compiler_error("tideline: state table " ~ tideline.state_table() ~ " has columns ("
                ~ found | join(', ') ~ "), this version of tideline expects (" ~ wanted | join(', ')
                ~ "). State is not migrated between versions: drop " ~ tideline.state_table()
                ~ " and rebuild with dbt run --full-refresh.") }}
        {%- endif -%}
    {%- endif -%}
    {%- if relation is not none and tideline.relation_file_format(relation) != tideline.state_file_format() -%}
        {{ exceptions.raise_compiler_error("tideline: state table " ~ tideline.state_table() ~ " is " ~ tideline.relation_file_format(relation)
            ~ ", tideline__state_file_format is " ~ tideline.state_file_format() ~ "; nothing was written. Set tideline__state_file_format to "
            ~ tideline.relation_file_format(relation) ~ ", or rebuild the schema's tideline models in the new format: drop "
            ~ tideline.state_table() ~ " and run dbt run --full-refresh.") }}
    {%- endif -%}
    {%- set missing_views = [] -%}
    {%- for name in tideline.state_views() -%}
        {%- set existing = adapter.get_relation(database=none, schema=target.schema, identifier=name) -%}
        {%- if existing is not none and existing.type != 'view' -%}
            {{ exceptions.raise_compiler_error("tideline: state table " ~ tideline.state_table(name)
                ~ " is a table of an earlier version of tideline; this version keeps its state in " ~ tideline.state_table()
                ~ " and " ~ name ~ " is a view over it. State is not migrated between versions: drop the old state tables ("
                ~ tideline.state_views().keys() | join(', ') ~ ") and rebuild with dbt run --full-refresh.") }}
        {%- endif -%}
        {%- if existing is none -%}{%- do missing_views.append(name) -%}{%- endif -%}
    {%- endfor -%}
    {%- do tideline.refuse_partial_full_refresh() -%}
    {%- if relation is not none -%}{%- do tideline.refuse_now_before_watermarks() -%}{%- endif -%}

    {%- if relation is none -%}
        {%- do tideline.exec('create schema if not exists ' ~ target.schema) -%}
        {%- set defs = [] -%}
        {%- for c in tideline.state_columns() -%}{%- do defs.append(c[0] ~ ' ' ~ c[1]) -%}{%- endfor -%}
        {% call statement('create_tl_state') %}
            create table if not exists {{ tideline.state_table() }} ({{ defs | join(', ') }})
            using {{ tideline.state_file_format() }} partitioned by (model)
            {{ tideline.table_properties_sql(tideline.state_file_format()) }}
        {% endcall %}
    {%- endif -%}
    {%- for name in missing_views -%}
        {% call statement('create_' ~ name) %}
            create or replace view {{ tideline.state_table(name) }} as {{ tideline.state_views()[name] }}
        {% endcall %}
    {%- endfor -%}
    {#- an empty hook: dbt sends nothing for it -#}
    {{- return('') -}}
{% endmacro %}

{#- The id of this dbt invocation: it names every state row and data row a run writes. -#}
{% macro run_id() %}
    {{- return(invocation_id) -}}
{% endmacro %}

{#- The run ids of a model's committed runs up to a batch, as a subquery (readers of a
    tideline table keep only rows whose _tl_run is among them). -#}
{% macro committed_runs_sql(model_name, up_to_batch=none, pending_run=none) %}
    select run_id from {{ tideline.state_table() }}
    where {{ tideline.state_models_sql(model_name, pending_run) }} and kind = 'run'
    {%- if up_to_batch is not none %} and batch <= {{ tideline.ts(up_to_batch) }}{% endif %}
{% endmacro %}

{#- Which rows of tl_state are the model's: its own, and with `pending_run` (the view that a
    rebuild into a new table swapped in: data_tables.sql) that rebuild's pending rows too. -#}
{% macro state_models_sql(model_name, pending_run=none) %}
    {%- if pending_run is none -%}
        model = '{{ model_name }}'
    {%- else -%}
        (model = '{{ model_name }}' or (model = '{{ tideline.pending_state_key(model_name) }}' and split(run_id, '/')[0] = '{{ pending_run }}'))
    {%- endif -%}
{% endmacro %}

{#- A typed SQL literal for a state column. -#}
{% macro _state_value(value, type) %}
    {%- if value is none -%}{{ return('cast(null as ' ~ type ~ ')') }}{%- endif -%}
    {%- if type == 'timestamp' -%}{{ return(tideline.ts(value)) }}{%- endif -%}
    {%- if type == 'date' -%}{{ return("date'" ~ (value | string)[:10] ~ "'") }}{%- endif -%}
    {%- if type == 'string' -%}{{ return("'" ~ (value | replace("\\", "\\\\") | replace("'", "\\'")) ~ "'") }}{%- endif -%}
    {%- if type == 'boolean' -%}{{ return('true' if value else 'false') }}{%- endif -%}
    {{- return('cast(' ~ value ~ ' as ' ~ type ~ ')') -}}
{% endmacro %}

{#- Commit a run: one insert of its date rows and its run row (a dict each; missing columns
    are null), in one file. With replace=true (a --full-refresh) the insert replaces the
    model's whole state instead: the rebuilt table has been swapped in by then, so the old
    state describes nothing any more. `files`: the files of the model's state before this
    commit, from its state query (state_files_sql); past compact_every (compact_every_setting:
    the config, or the var tideline__compact_every) the commit is followed by a compaction. Returns the files after. -#}
{% macro commit_run(model_name, run_row, date_rows=[], replace=false, files=none) %}
    {%- set columns = tideline.state_columns()[:-1] -%}
    {%- set common = {'run_id': tideline.run_id(), 'run_now': tideline.now(), 'batch': run_row.get('batch')} -%}
    {%- set rows = [] -%}
    {%- for row in date_rows + [run_row] -%}
        {%- set full = {'kind': 'date'} -%}
        {%- do full.update(common) -%}
        {%- do full.update(row) -%}
        {%- set values = [] -%}
        {%- for c in columns -%}
            {%- if c[0] == 'committed_at' -%}
                {%- do values.append('current_timestamp()') -%}
            {%- else -%}
                {%- do values.append(tideline._state_value(full.get(c[0]), c[1])) -%}
            {%- endif -%}
        {%- endfor -%}
        {%- do rows.append('(' ~ values | join(', ') ~ ')') -%}
    {%- endfor -%}
    {% call statement('commit', fetch_result=false) %}
        insert {{ 'overwrite table' if replace else 'into' }} {{ tideline.state_table() }} partition (model = '{{ model_name }}')
        select /*+ coalesce(1) */ * from values
            {{ rows | join(',\n            ') }}
        as state({{ columns | map('first') | join(', ') }})
    {% endcall %}
    {%- set files_after = 1 if replace else (files + 1 if files is not none else none) -%}
    {%- set compact_every = tideline.compact_every_setting(model_name) -%}
    {%- if files_after is not none and files_after > compact_every -%}
        {%- do tideline.compact_state(model_name) -%}
        {%- do tideline.checkpoint(model_name, 'state_compacted') -%}
        {{ log("tideline " ~ model_name ~ ": state compacted, " ~ files_after ~ " files of tl_state into 1 (compact_every "
            ~ compact_every ~ ")", info=true) }}
        {%- set files_after = 1 -%}
    {%- endif -%}
    {{- return(files_after) -}}
{% endmacro %}

{#- The column of tl_state that names each row's file: Spark's file metadata for parquet and
    delta, Iceberg's metadata column for iceberg. -#}
{% macro state_file_column() -%}
    {{- '_file' if tideline.state_file_format() == 'iceberg' else '_metadata.file_path' -}}
{%- endmacro %}

{#- The number of files of a model's state, as an aggregate a state query adds to its select
    list (over rows of tl_state that include the model's run rows). `file`: the file column,
    state_file_column() read from tl_state itself (a subquery passes it on under a name). -#}
{% macro state_files_sql(model_name, file=none) -%}
    size(collect_set(case when model = '{{ model_name }}' then {{ file or tideline.state_file_column() }} end))
{%- endmacro %}

{#- One line per model per run in dbt's log (contract 6). -#}
{% macro log_run(model_name, lower, upper, rows_read, rows_written, days, duplicates_dropped=0, rows_rejected=0, late_rows_skipped=0, rows_without_load_time=0) %}
    {%- set window = ('window (' ~ lower ~ ', ' ~ upper ~ ']') if lower is not none else ('first window, up to ' ~ upper) -%}
    {{ log("tideline " ~ model_name ~ ": " ~ window ~ ", rows read " ~ rows_read
           ~ ", rows written " ~ rows_written ~ ", dates processed " ~ days ~ ", late rows skipped " ~ late_rows_skipped
           ~ ", duplicates dropped " ~ duplicates_dropped ~ ", rows rejected " ~ rows_rejected
           ~ (", WARNING: source rows without load_tstamp (never processed) " ~ rows_without_load_time if rows_without_load_time | int > 0 else ""), info=true) }}
{% endmacro %}

{#- Test-only fault injection (contract 2's tests): with --vars '{tideline__fail_at: "<model>:<step>"}'
    the run fails right after that step, as a killed process would. -#}
{% macro checkpoint(model_name, step) %}
    {#- a debug event (not printed without --debug) that a test running dbt in-process can hold
        the run at, to look at the tables at that moment (python_tests/harness.py, pause_at) -#}
    {%- do log('tl-checkpoint ' ~ model_name ~ ':' ~ step) -%}
    {%- if var('tideline__fail_at', none) == model_name ~ ':' ~ step -%}
        {{ exceptions.raise_compiler_error("tideline: injected failure after " ~ model_name ~ ":" ~ step) }}
    {%- endif -%}
{% endmacro %}

{#- The model's result for dbt (a materialization must leave a 'main' result): stored, not
    queried, so that it costs no statement. -#}
{% macro store_main(message) %}
    {%- do store_result('main', response=message) -%}
{% endmacro %}

{#- The reader's view of a model whose rows live in a table of its own (derivations, continual
    tasks, channels): created when missing, when a table stands in its place, or on a rebuild;
    naming its data table `data` if any (data_tables.sql). -#}
{% macro create_reader_view(view, existing, select_sql, rebuild, data=none) %}
    {%- if existing is none or existing.type != 'view' or rebuild -%}
        {%- if existing is not none and existing.type != 'view' -%}{%- do adapter.drop_relation(existing) -%}{%- endif -%}
        {%- do tideline.replace_reader_view(view, select_sql, data) -%}
    {%- endif -%}
{% endmacro %}

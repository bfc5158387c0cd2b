{#- One run at a time on a shared Spark cluster. Locally the process holds an OS lock on the data
    folder (tideline_tools/localenv.py, which says so in TIDELINE_LOCKED_DATA_DIR); a Thrift
    server has no such thing, so on-run-start
    creates the table tl_run_lock, whose creation in the metastore is the atomic step: a
    second run finds it and is refused in one line naming the holder. It is a Hive-format
    table (stored as, not using): Spark creates those with the metastore's own "if not exists",
    so two runs creating it at the same moment both succeed and the loser reads the winner's
    properties; a `using` table is checked first and then created, and the loser of that race
    fails with TABLE_OR_VIEW_ALREADY_EXISTS. on-run-end drops it.
    A lock older than tideline__run_lock_minutes (default 120) is taken to be left by a run
    that was killed: it is dropped and taken over. To free one by hand:
    dbt run-operation tideline.release_run_lock --args '{force: true}' -#}
{% macro _process_holds_local_lock() %}
    {{- return(env_var('TIDELINE_LOCKED_DATA_DIR', '') != '') -}}
{% endmacro %}

{% macro take_run_lock() %}
    {%- if not execute or tideline._process_holds_local_lock() -%}{{ return('') }}{%- endif -%}
    {%- set lock = tideline.state_table('tl_run_lock') -%}
    {%- set minutes = tideline.var_int('tideline__run_lock_minutes', 1) -%}
    {%- set now = modules.datetime.datetime.utcnow() -%}
    {%- do tideline.exec('create schema if not exists {}'.format(target.schema)) -%}
    {%- for attempt in [1, 2] -%}
        {% call statement('take_run_lock', fetch_result=false) %}
            create table if not exists {{ lock }} (run_id string) stored as parquet
            tblproperties ('tideline.run_id' = '{{ tideline.run_id() }}',
                           'tideline.taken_at' = '{{ now.strftime("%Y-%m-%d %H:%M:%S") }}')
        {% endcall %}
        {%- set holder = tideline._run_lock_holder(lock) -%}
        {%- if holder.run_id == tideline.run_id() -%}
            {#- dbt's relation cache was filled before: tell it, so that on-run-end finds the lock -#}
            {%- do adapter.cache_added(api.Relation.create(schema=target.schema, identifier='tl_run_lock', type='table')) -%}
            {{ return('') }}
        {%- endif -%}
        {%- set age = (now - modules.datetime.datetime.strptime(holder.taken_at, '%Y-%m-%d %H:%M:%S')).total_seconds() / 60 -%}
        {%- if age < minutes or attempt == 2 -%}
            {{ exceptions.raise_compiler_error("tideline: another run ({}, since {} UTC) holds the run lock {}; one run at a time per target schema. Wait for it to end; a lock older than {} minutes (tideline__run_lock_minutes) is taken over, or free it with: {}".format(
                holder.run_id, holder.taken_at, lock, minutes, "dbt run-operation tideline.release_run_lock --args '{force: true}'")) }}
        {%- endif -%}
        {%- do log("tideline: taking over the run lock of {}, taken at {} UTC ({} minutes ago, more than tideline__run_lock_minutes)".format(
            holder.run_id, holder.taken_at, age | int), info=true) -%}
        {%- do tideline.exec('drop table if exists {}'.format(lock)) -%}
    {%- endfor -%}
{% endmacro %}

{% macro _run_lock_holder(lock) %}
    {%- set properties = {} -%}
    {%- for row in tideline.query_rows('show tblproperties {}'.format(lock)) -%}{%- do properties.update({row['key']: row['value']}) -%}{%- endfor -%}
    {{- return({'run_id': properties.get('tideline.run_id', '?'), 'taken_at': properties.get('tideline.taken_at', '1970-01-01 00:00:00')}) -}}
{% endmacro %}

{#- on-run-end: let go of the run lock (only this run's, unless force=true). -#}
{% macro release_run_lock(force=false) %}
    {%- if not execute or (tideline._process_holds_local_lock() and not force) -%}{{ return('') }}{%- endif -%}
    {%- set lock = tideline.state_table('tl_run_lock') -%}
    {%- if adapter.get_relation(database=none, schema=target.schema, identifier='tl_run_lock') is none and not force -%}
        {{ return('') }}
    {%- endif -%}
    {%- if force or tideline._run_lock_holder(lock).run_id == tideline.run_id() -%}
        {%- do tideline.exec('drop table if exists {}'.format(lock)) -%}
    {%- endif -%}
    {{- return('') -}}
{% endmacro %}

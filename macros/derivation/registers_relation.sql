{#- Derivations: the registers as a relation a model reads. -#}

{#- Each key's current register values and the commit time of their last change (issue 35,
    item 4), as a subquery over the derivation `model_name`'s live data table: one row per
    register key, the key's components named `key_names` (default key_1, key_2, ...), each
    register a column, and `changed_at`, the frontier (commit time read up to) of the last run
    whose documents updated the key. The newest committed register row of each key in the live generation, as the
    derivation's own runs read it (_newest_stored); through the same committed runs as the
    model's view, so a reader sees the registers of the rows it sees. A ref() of the model
    makes dbt run it first. -#}
{% macro derivation_registers(model_name, key_names=none) %}
    {%- set view = ref(model_name) -%}
    {%- if not execute -%}{{ return('(select * from {})'.format(view)) }}{%- endif -%}
    {%- set properties = tideline.view_properties(view) -%}
    {%- set data = properties.get('tideline.data_table') -%}
    {%- set stored = tideline._register_columns(data) if data else {'keys': [], 'registers': false} -%}
    {%- if not stored.registers -%}
        {{ exceptions.raise_compiler_error("tideline: tideline.derivation_registers('{}'): {} is not the view of a built derivation with registers; accepted: the name of a model of materialized='derivation' that declares registers, built by an earlier run".format(model_name, view)) }}
    {%- endif -%}
    {%- set names = key_names if key_names is not none else [] -%}
    {%- if key_names is none -%}
        {%- for k in stored['keys'] -%}{%- do names.append('key_{}'.format(loop.index)) -%}{%- endfor -%}
    {%- endif -%}
    {%- if names is string or names is not iterable or names | length != stored['keys'] | length -%}
        {{ exceptions.raise_compiler_error("tideline: tideline.derivation_registers('{}'): key_names = {} is invalid; accepted: a list of {} names, one per component of its shuffle key".format(model_name, tideline.shown(key_names), stored['keys'] | length)) }}
    {%- endif -%}
    {%- set pending = properties.get('tideline.rebuild_run') -%}
    {%- set newest = tideline._newest_stored(data, 'register', stored['keys'], none, stored['keys'] + ['_register', '_tl_batch'],
                                              tideline.committed_runs_sql(model_name, pending_run=pending), none,
                                              generation_sql='cast(({}) as string)'.format(tideline.live_generation_sql(model_name, pending))) -%}
    {% set sql %}
        (select
            {%- for k in stored['keys'] %}
            {{ k }} as {{ names[loop.index0] }},
            {%- endfor %}
            _register.*,
            _tl_batch as changed_at
        from ({{ newest }}) as live_registers)
    {% endset %}
    {{- return(sql) -}}
{% endmacro %}

{#- The register key columns (_tl_key_<n>, in order) of a derivation's data table, and whether
    it holds registers (a _register column): one `describe`. -#}
{% macro _register_columns(data) %}
    {%- set keys, found = [], [] -%}
    {%- set columns = namespace(done=false) -%}
    {%- for row in run_query('describe table {}'.format(data)).rows if not columns.done -%}
        {%- set name = (row['col_name'] or '') | lower -%}
        {%- if name.startswith('#') or name == '' -%}{%- set columns.done = true -%}{%- endif -%}
        {%- if name.startswith('_tl_key_') and not columns.done -%}{%- do keys.append(name) -%}{%- endif -%}
        {%- if name == '_register' -%}{%- do found.append(name) -%}{%- endif -%}
    {%- endfor -%}
    {{- return({'keys': keys, 'registers': found | length > 0}) -}}
{% endmacro %}

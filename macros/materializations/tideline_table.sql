{#- materialized='tideline_table': a table recomputed whole on every run (an attributes table,
    a small summary), built then swapped (build_then_swap in macros/internal/run_state.sql):
    the new contents are written to <name>__tl_new and only then replace the old table, so a
    select that fails leaves the old table as it was. dbt-spark's own `table` drops the old
    table first, and a failing select then leaves none. Config: partition_by (optional). -#}
{% materialization tideline_table, adapter='spark' %}
    {%- do tideline.prepare_session(this.identifier) -%}
    {%- set target_relation = this.incorporate(type='table') -%}
    {%- set existing = adapter.get_relation(database=this.database, schema=this.schema, identifier=this.identifier) -%}

    {{ run_hooks(pre_hooks) }}
    {%- do tideline.build_then_swap(target_relation, sql, config.get('partition_by'), existing) -%}
    {%- do tideline.store_main('tideline: built') -%}
    {{ run_hooks(post_hooks) }}

    {{ return({'relations': [target_relation]}) }}
{% endmaterialization %}

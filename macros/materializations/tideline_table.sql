{#- materialized='tideline_table': a table recomputed whole on every run (an attributes table,
    a small summary), replaced whole (replace_table in macros/internal/format_strategies.sql):
    the new contents are written to <name>__tl_new and only then replace the old table, so a
    select that fails leaves the old table as it was. dbt-spark's own `table` drops the old
    table first, and a failing select then leaves none. Config: partition_by (optional). -#}
{% materialization tideline_table, adapter='spark' %}
    {%- do tideline.prepare_session(this.identifier) -%}
    {%- set target_relation = this.incorporate(type='table') -%}
    {%- set existing = adapter.get_relation(database=this.database, schema=this.schema, identifier=this.identifier) -%}

    {{ run_hooks(pre_hooks) }}
    {%- set format = tideline.model_file_format(this.identifier) -%}
    {%- do tideline.replace_table(target_relation, sql, config.get('partition_by'), existing, format) -%}
    {%- do tideline.store_main('tideline: built') -%}
    {{ run_hooks(post_hooks) }}

    {{ return({'relations': [target_relation]}) }}
{% endmaterialization %}

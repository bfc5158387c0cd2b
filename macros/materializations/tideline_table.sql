{#- materialized='tideline_table': a table recomputed whole on every run (an attributes table,
    a small summary), replaced whole (replace_table in macros/internal/format_strategies.sql):
    the new contents are written to <name>__tl_new and only then replace the old table, so a
    select that fails leaves the old table as it was. dbt-spark's own `table` drops the old
    table first, and a failing select then leaves none. Config: partition_by (optional). -#}
{% materialization tideline_table, adapter='spark' %}
    {%- do tideline.prepare_session(this.identifier) -%}
    {%- do tideline.refuse_unknown_configs(this.identifier) -%}
    {%- set format = tideline.model_file_format(this.identifier) -%}
    {%- set storage = tideline.table_model_storage(this, format, true) -%}

    {{ run_hooks(pre_hooks) }}
    {%- do tideline.replace_table(storage.table, sql, config.get('partition_by'), storage.existing, format) -%}
    {%- set target_relation = tideline.expose_stored_table(this, storage.table, format) -%}
    {%- if storage.converts -%}{%- do tideline.drop_converted_table(storage.table, format) -%}{%- endif -%}
    {%- do tideline.store_main('tideline: built') -%}
    {{ run_hooks(post_hooks) }}

    {{ return({'relations': [target_relation]}) }}
{% endmaterialization %}

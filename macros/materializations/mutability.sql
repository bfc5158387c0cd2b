{#- The mutability materializations. The rules live in macros/mutability/ (settings.sql first);
    each materialization (here `mutability`, whose config names the
    type; the four kinds' own in mutability_kinds.sql) only picks its type, and the kind's strategy runs
    (kind_strategies.sql: overridable by name). Config: update_cron (default '0 * * * *'),
    and for append_only: along (required), min, max, settle, max_along_values; see the README. -#}

{% macro _materialize_mutability() %}
    {%- do tideline.prepare_session(this.identifier) -%}
    {%- do tideline.refuse_unknown_configs(this.identifier) -%}
    {%- do tideline.model_file_format(this.identifier) -%}
    {%- set settings = tideline.mutability_settings() -%}
    {{ run_hooks(pre_hooks) }}
    {%- set result = tideline.materialize_mutability_kind(settings) -%}
    {% call statement('main') %}select {{ result.rows }} as rows_written{% endcall %}
    {{ run_hooks(post_hooks) }}
    {{ return({'relations': [result.relation] if result.relation is not none else []}) }}
{% endmacro %}

{% materialization mutability, adapter='spark' %}{{ return(tideline._materialize_mutability()) }}{% endmaterialization %}

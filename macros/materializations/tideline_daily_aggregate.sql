{#- materialized='tideline_daily_aggregate': see macros/incremental/daily_aggregate.sql.
    Config: date_column (default event_date), the column the analyst's select groups by day. -#}
{% materialization tideline_daily_aggregate, adapter='spark' %}
    {%- set date_column = config.get('date_column', 'event_date') -%}
    {%- set target_relation = this.incorporate(type='table') -%}
    {%- set existing = adapter.get_relation(database=this.database, schema=this.schema, identifier=this.identifier) -%}
    {%- set full_refresh = should_full_refresh() or existing is none -%}

    {{ run_hooks(pre_hooks) }}
    {%- set final_sql = tideline.build_daily_aggregate(target_relation, sql, date_column, existing is not none, full_refresh) -%}
    {% call statement('main') %}{{ final_sql }}{% endcall %}
    {{ run_hooks(post_hooks) }}

    {{ return({'relations': [target_relation]}) }}
{% endmaterialization %}

{#- materialized='tideline_daily_aggregate': see macros/incremental/daily_aggregate.sql.
    Config: date_column (default event_date), the column the analyst's select groups by day. -#}
{% materialization tideline_daily_aggregate, adapter='spark' %}
    {%- do tideline.prepare_session(this.identifier) -%}
    {%- set date_column = config.get('date_column', 'event_date') -%}
    {%- set target_relation = this.incorporate(type='table') -%}
    {%- set existing = adapter.get_relation(database=this.database, schema=this.schema, identifier=this.identifier) -%}

    {{ run_hooks(pre_hooks) }}
    {%- set result = tideline.build_daily_aggregate(target_relation, sql, date_column, existing, should_full_refresh()) -%}
    {%- do tideline.store_main('tideline: ' ~ (result.rows_written if result else 0) ~ ' rows written') -%}
    {{ run_hooks(post_hooks) }}

    {#- the table exists after every run, a first one with nothing to aggregate included -#}
    {{ return({'relations': [target_relation]}) }}
{% endmaterialization %}

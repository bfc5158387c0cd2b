{#- materialized='tideline_daily_aggregate': see macros/incremental/daily_aggregate.sql.
    Config: date_column (default event_date), the column the analyst's select groups by day. -#}
{% materialization tideline_daily_aggregate, adapter='spark' %}
    {%- do tideline.prepare_session(this.identifier) -%}
    {%- set date_column = config.get('date_column', 'event_date') -%}
    {%- set format = tideline.model_file_format(this.identifier) -%}
    {%- set storage = tideline.table_model_storage(this, format, should_full_refresh()) -%}

    {{ run_hooks(pre_hooks) }}
    {%- set result = tideline.build_daily_aggregate(storage.table, sql, date_column, storage.existing, should_full_refresh()) -%}
    {%- set target_relation = tideline.expose_stored_table(this, storage.table, format) -%}
    {%- if storage.converts -%}{%- do tideline.drop_converted_table(storage.table, format) -%}{%- endif -%}
    {%- do tideline.store_main('tideline: {} rows written'.format(result.rows_written if result else 0)) -%}
    {{ run_hooks(post_hooks) }}

    {#- the table exists after every run, a first one with nothing to aggregate included -#}
    {{ return({'relations': [target_relation]}) }}
{% endmaterialization %}

{#- Daily aggregates: the two ways a model is built, as strategies (looked up by name,
    build_daily_aggregate_<path>, so that a project can override one). -#}

{#- Which path builds the model: merge when it declares its measures (config `measures`), over
    filtered_events() or source_events(); recompute otherwise. -#}
{% macro daily_aggregate_path(model_name, model_sql, measures) %}
    {{- return('recompute' if measures is none else 'merge') -}}
{% endmacro %}

{#- Recompute: whole dates from their events, into a table (a view of it for iceberg).
    Returns {'result', 'relation'}. -#}
{% macro default__build_daily_aggregate_recompute(relation, model_sql, date_column, measures, full_refresh) %}
    {%- set format = tideline.model_file_format(relation.identifier) -%}
    {%- set storage = tideline.table_model_storage(relation, format, full_refresh) -%}
    {%- set result = tideline.build_daily_aggregate(storage.table, model_sql, date_column, storage.existing, full_refresh) -%}
    {%- set target = tideline.expose_stored_table(relation, storage.table, format) -%}
    {%- if storage.converts -%}{%- do tideline.drop_converted_table(storage.table, format) -%}{%- endif -%}
    {{- return({'result': result, 'relation': target}) -}}
{% endmacro %}

{#- Merge: partial aggregates of the new rows, merged by the model's view (daily_merge.sql). -#}
{% macro default__build_daily_aggregate_merge(relation, model_sql, date_column, measures, full_refresh) %}
    {%- set view = relation.incorporate(type='view') -%}
    {%- set result = tideline.build_mergeable_daily_aggregate(view, model_sql, date_column, measures, full_refresh) -%}
    {{- return({'result': result, 'relation': view}) -}}
{% endmacro %}

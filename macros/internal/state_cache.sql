{#- Adds tl_state (when this run created it in spark_catalog) and the views made to dbt's relation cache. -#}
{% macro _cache_state_relations(state_created, views) %}
    {%- if state_created -%}
        {%- do adapter.cache_added(api.Relation.create(schema=target.schema, identifier='tl_state', type='table')) -%}
    {%- endif -%}
    {%- for name in views -%}
        {%- do adapter.cache_added(api.Relation.create(schema=target.schema, identifier=name, type='view')) -%}
    {%- endfor -%}
{% endmacro %}

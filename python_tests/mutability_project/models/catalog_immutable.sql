{{ config(materialized='immutable') }}
select code, label from {{ var('mutability__source') }}.catalog
{%- if var('mutability__catalog_filter', none) %} where {{ var('mutability__catalog_filter') }}{% endif %}

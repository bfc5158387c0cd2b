{#- Mutability, append_only: the bounds of `along` a run reads. -#}

{#- The bounds of this run's read of `along`: {prime, low, high, op, props}. Shared by
    along_min()/along_max() (which the model's SQL may use) and the materialization (which
    filters by them anyway). -#}
{% macro append_window(settings, existing) %}
    {%- set props = tideline.mutability_properties(existing) -%}
    {%- if existing is none or should_full_refresh() or props.get('mutability') is none -%}
        {{ return({'prime': true, 'low': settings.min, 'high': settings.max, 'op': '>=', 'props': props}) }}
    {%- endif -%}
    {%- if props.get('along_max') is none -%}
        {#- primed, but nothing was stored yet -#}
        {{ return({'prime': false, 'low': settings.min, 'high': settings.max, 'op': '>=', 'props': props}) }}
    {%- endif -%}
    {%- set low = props.along_max -%}
    {%- if settings.settle > 0 -%}
        {%- set recent = fromjson(props.get('along_recent') or '[]') -%}
        {%- if recent | length < settings.settle -%}
            {#- settle was raised, or few values are stored yet: look them up once -#}
            {%- set recent = tideline.newest_along_values(existing, settings.along, settings.settle) -%}
        {%- endif -%}
        {%- set low = (recent[:settings.settle] | last) if recent else low -%}
    {%- endif -%}
    {{- return({'prime': false, 'low': low, 'high': settings.max, 'op': '>=' if settings.settle > 0 else '>', 'props': props}) -}}
{% endmacro %}

{#- The newest `n` distinct values of `along` in `relation`, newest first, as text. -#}
{% macro newest_along_values(relation, along, n) %}
    {% set sql %}
        select cast({{ along }} as string) as along_value
        from (select distinct {{ along }} from {{ relation }}) as along_values
        order by {{ along }} desc
        limit {{ n }}
    {% endset %}
    {{- return(tideline.query_rows(sql) | map(attribute='along_value') | list) -}}
{% endmacro %}

{#- For the model's SQL: the inclusive bounds of `along` this run reads, e.g.
    `where ds between '{{ tideline.along_min() }}' and '{{ tideline.along_max() }}'`.
    (While dbt parses, the config is not known yet: the defaults stand in.) -#}
{% macro along_min() %}
    {%- if not execute -%}{{ return('1000-01-01') }}{%- endif -%}
    {%- set existing = adapter.get_relation(database=this.database, schema=this.schema, identifier=this.identifier) -%}
    {{- return(tideline.append_window(tideline.mutability_settings(), existing).low) -}}
{% endmacro %}

{% macro along_max() %}
    {%- if not execute -%}{{ return('9999-12-31') }}{%- endif -%}
    {{- return(tideline.mutability_settings().max) -}}
{% endmacro %}

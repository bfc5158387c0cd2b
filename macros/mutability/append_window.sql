{#- Mutability, append_only: the bounds of `along` a run reads (the rule is append_rule.sql). -#}

{#- The bounds of this run's read of `along`: {prime, low, high, op, props}, from the version
    table's properties (append_bounds), the newest stored values looked up when the properties
    cannot give them (append_needs_lookup). Shared by along_min()/along_max() (which the model's SQL may use) and the
    materialization (which filters by them anyway). -#}
{% macro append_window(settings, existing) %}
    {%- set props = tideline.mutability_properties(existing) -%}
    {%- set prime = existing is none or should_full_refresh() or props.get('mutability') is none -%}
    {%- if tideline.append_needs_lookup(settings, props, prime) -%}
        {%- set recent = tideline.newest_along_values(existing, settings.along, settings.settle) -%}
    {%- else -%}
        {%- set recent = fromjson(props.get('along_recent') or '[]') -%}
    {%- endif -%}
    {{- return(tideline.append_bounds(settings, props, prime, recent)) -}}
{% endmacro %}

{#- The newest `n` distinct values of `along` in `relation`, newest first, as text. -#}
{% macro newest_along_values(relation, along, n) %}
    {{- return(tideline.query_rows(tideline.newest_along_values_sql(relation, along, n)) | map(attribute='along_value') | list) -}}
{% endmacro %}

{#- The query of newest_along_values: one row per value, `along_value`, newest first. -#}
{% macro newest_along_values_sql(relation, along, n) %}
    {% set sql %}
        select cast({{ along }} as string) as along_value
        from (select distinct {{ along }} from {{ relation }}) as along_values
        order by {{ along }} desc
        limit {{ n }}
    {% endset %}
    {{- return(sql) -}}
{% endmacro %}

{#- Mutability, append_only: the bounds of `along` a run reads, for the model's SQL. -#}

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

{#- SQL text as a definition compares it: comments removed, runs of whitespace made one space. -#}
{% macro sql_as_defined(sql) %}
    {%- set text = modules.re.sub('--[^\n]*|/\*.*?\*/', ' ', sql | string, flags=modules.re.S) -%}
    {{- return(modules.re.sub('\\s+', ' ', text) | trim) -}}
{% endmacro %}

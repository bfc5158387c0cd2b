{#- A value as a refusal shows it: its JSON (strings quoted, lists and mappings as written),
    without the HTML escapes Jinja's tojson adds, so that `array<int>`, `a & b` and `it's` read
    as the user wrote them. -#}
{% macro shown(value) %}
    {%- set shown = namespace(text=value | tojson | string) -%}
    {%- for escaped, plain in [['\\u003c', '<'], ['\\u003e', '>'], ['\\u0026', '&'], ['\\u0027', "'"]] -%}
        {%- set shown.text = shown.text | replace(escaped, plain) -%}
    {%- endfor -%}
    {{- return(shown.text) -}}
{% endmacro %}

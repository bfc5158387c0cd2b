{#- A var read and checked by its kind: a date, a whole number, true or false, a list of
    strings, an identifier. -#}

{% macro var_date(name) %}
    {%- set value = tideline.tl_var(name) -%}
    {%- set text = value | string -%}
    {%- set m = modules.re.match('^(\d{4})-(\d{2})-(\d{2})$', text) -%}
    {%- if not m or not tideline._is_calendar_date(m.group(1) | int, m.group(2) | int, m.group(3) | int) -%}
        {{ tideline._var_error(name, value, "a date written YYYY-MM-DD") }}
    {%- endif -%}
    {{- return(text) -}}
{% endmacro %}

{% macro var_int(name, minimum) %}
    {%- set value = tideline.tl_var(name) -%}
    {%- if value is string or value is boolean or value is not number or (value | int) != value or value < minimum -%}
        {{ tideline._var_error(name, value, "an integer >= {}".format(minimum)) }}
    {%- endif -%}
    {{- return(value | int) -}}
{% endmacro %}

{% macro var_bool(name) %}
    {%- set value = tideline.tl_var(name) -%}
    {%- if value is not boolean -%}
        {{ tideline._var_error(name, value, "true or false") }}
    {%- endif -%}
    {{- return(value) -}}
{% endmacro %}

{% macro var_string_list(name) %}
    {%- set value = tideline.tl_var(name) -%}
    {%- if value is string or value is not iterable or value is mapping -%}
        {{ tideline._var_error(name, value, "a list of strings, [] for all") }}
    {%- endif -%}
    {%- for item in value if item is not string or item == '' -%}
        {{ tideline._var_error(name, value, "a list of non-empty strings, [] for all") }}
    {%- endfor -%}
    {{- return(value | list) -}}
{% endmacro %}

{#- Values and names quoted for SQL: one helper for each. -#}

{#- The one quoting helper for values: a SQL literal of a string (quoted, backslashes and
    quotes escaped), a number, a boolean, or null for none. -#}
{% macro literal(value) %}
    {%- if value is none -%}{{ return('null') }}{%- endif -%}
    {%- if value is boolean -%}{{ return('true' if value else 'false') }}{%- endif -%}
    {%- if value is number -%}{{ return(value | string) }}{%- endif -%}
    {%- set escaped = value | string | replace("\\", "\\\\") | replace("'", "\\'") -%}
    {{- return("'{}'".format(escaped)) -}}
{% endmacro %}

{#- The one quoting helper for names: an identifier in backticks (backticks in it doubled). -#}
{% macro quote_identifier(name) %}
    {{- return('`{}`'.format(name | replace('`', '``'))) -}}
{% endmacro %}

{#- A SQL list of string literals, e.g. ('a', 'b'). -#}
{% macro string_list(values) %}
    {%- set items = [] -%}
    {%- for v in values -%}{%- do items.append(tideline.literal(v | string)) -%}{%- endfor -%}
    {{- return('({})'.format(items | join(', '))) -}}
{% endmacro %}

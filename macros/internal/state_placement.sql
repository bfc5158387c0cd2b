{#- Where a state column added by a migration goes. -#}

{#- [`name type after <the column before it in state_columns>`] for each of `columns`, in order. -#}
{% macro _placed_state_columns(columns) %}
    {%- set all = tideline.state_columns() | map('first') | list -%}
    {%- set placed = [] -%}
    {%- for c in columns -%}
        {%- do placed.append('{} {} after {}'.format(c[0], c[1], all[all.index(c[0]) - 1])) -%}
    {%- endfor -%}
    {{- return(placed) -}}
{% endmacro %}

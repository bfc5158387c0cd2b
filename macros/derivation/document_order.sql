{#- Derivations: the order of documents committed together, by their values. -#}

{#- The keys that order a transform's documents that share a commit time (and order_by value):
    the source's columns in its column order, each compared as its type compares (numbers as
    numbers, times as times, strings by their bytes, arrays and structs part by part; a map,
    which Spark cannot compare, by its JSON), ascending with nulls first; then the row's JSON,
    so that values that compare equal but differ (0.0 and -0.0) still have a total order.
    Never a text rendering first: as text, 10 would come before 9. -#}
{% macro _document_value_order(t, alias) %}
    {%- set keys = [] -%}
    {%- for name, type in t.types.items() -%}
        {%- set column = '{}.`{}`'.format(alias, name) -%}
        {%- do keys.append('to_json({})'.format(column) if 'map<' in type else column) -%}
    {%- endfor -%}
    {%- do keys.append('{}._tl_row'.format(alias)) -%}
    {{- return(keys) -}}
{% endmacro %}

{#- What a model's SQL returns (a statement's insert, a publish lambda, an update) against the
    types the model declares for it, before anything is written: a column whose type Spark would
    not store without a cast is refused naming it, where tideline's own cast would have hidden it. -#}

{#- The first of `found` ([[name, type], ...], as `describe query` gives them) whose type the
    declared column of that name (`declared`, [[name, type], ...]) does not take without a cast
    (type_assignable), as {name, found, declared}; none when every one fits. Columns `declared`
    lacks are not judged here. -#}
{% macro first_unfit_column(found, declared) %}
    {%- set types = {} -%}
    {%- for c in declared -%}{%- do types.update({c[0]: c[1]}) -%}{%- endfor -%}
    {%- for c in found if c[0] in types and not tideline.type_assignable(c[1], types[c[0]]) -%}
        {{- return({'name': c[0], 'found': c[1], 'declared': types[c[0]]}) -}}
    {%- endfor -%}
    {{- return(none) -}}
{% endmacro %}

{#- What a refusal of an unfit column says is accepted: `where` names the SQL to cast in. -#}
{% macro unfit_column_accepted(column, where) %}
    {{- return("a value Spark stores in {} without a cast, as an insert into a table checks it (a number into a number, a date or timestamp into a date or timestamp, any value but an array, map or struct into a string; arrays, maps and structs part by part); cast it in {} to store it anyway".format(column.declared, where)) -}}
{% endmacro %}

{#- Derivations: the reduction strategies append, set and merge as one step of a sequential fold
    (step_writes.sql, _step, says what each argument is). -#}

{#- append: the array before (or the initial one) with the update's elements after it. -#}
{% macro default__step_append(spec, before, update, initial, what) %}
    {{- return(tideline._step_array(false, spec, before, update, initial)) -}}
{% endmacro %}

{#- set: as append, each element once. -#}
{% macro default__step_set(spec, before, update, initial, what) %}
    {{- return(tideline._step_array(true, spec, before, update, initial)) -}}
{% endmacro %}

{#- The array before (or the initial one, or an empty one) and the update's elements, each
    element once when `distinct`; no update: the array before, unchanged. -#}
{% macro _step_array(distinct, spec, before, update, initial) %}
    {%- set step -%}
        case when {{ update }} is null then {{ before }}
            else {{ 'array_distinct(' if distinct }}concat(coalesce({{ before }}, {{ initial }}, cast(array() as {{ spec.type }})), {{ update }}){{ ')' if distinct }} end
    {%- endset -%}
    {{- return(step) -}}
{% endmacro %}

{#- merge: a struct, each field stepped by its own reduction (spec.fields). -#}
{% macro default__step_merge(spec, before, update, initial, what) %}
    {%- set parts = [] -%}
    {%- for f in spec.fields -%}
        {%- set field_initial = tideline._literal((spec.initial_value or {}).get(f[0]) if spec.initial_value is mapping else none, f[1].type) -%}
        {%- set field = tideline._step(f[1], '({}).{}'.format(before, f[0]), '({}).{}'.format(update, f[0]), field_initial, '{}.{}'.format(what, f[0])) -%}
        {%- do parts.append("'{}', {}".format(f[0], field)) -%}
    {%- endfor -%}
    {{- return('named_struct({})'.format(parts | join(', '))) -}}
{% endmacro %}

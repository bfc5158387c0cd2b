{#- Derivations: the reduction strategies sum, min and max as one step of a sequential fold
    (step_writes.sql, _step, says what each argument is). -#}

{#- sum: the value before (or the initial one) plus the update, added in a wide type and cast
    back to the declared type; an overflow is an error naming the register. -#}
{% macro default__step_sum(spec, before, update, initial, what) %}
    {%- set wide = tideline._sum_type(spec.type) -%}
    {%- set total -%}
        cast(coalesce({{ before }}, {{ initial }}, 0) as {{ wide }}) + cast({{ update }} as {{ wide }})
    {%- endset -%}
    {%- set step -%}
        case when {{ update }} is null then {{ before }}
            else {{ tideline.checked_cast(total, spec.type, 'tideline: {}: the sum overflows {}: '.format(what, spec.type)) }} end
    {%- endset -%}
    {{- return(step) -}}
{% endmacro %}

{#- min: the lesser of the value before (or the initial one) and the update. -#}
{% macro default__step_min(spec, before, update, initial, what) %}
    {{- return(tideline._step_extreme('least', spec, before, update, initial, what)) -}}
{% endmacro %}

{#- max: the greater of the value before (or the initial one) and the update. -#}
{% macro default__step_max(spec, before, update, initial, what) %}
    {{- return(tideline._step_extreme('greatest', spec, before, update, initial, what)) -}}
{% endmacro %}

{#- least or greatest of the value before (or the initial one) and the update (Spark's least and
    greatest skip nulls). With a key (Flow's minimize or maximize by a key, reduction_key.sql),
    of their keyed forms; where the two keys are equal, the two values deep-merged, each field
    stepped by its own reduction with the update after the value before. -#}
{% macro _step_extreme(kind, spec, before, update, initial, what) %}
    {%- set start -%}coalesce({{ before }}, {{ initial }}){%- endset -%}
    {%- if spec.get('key') -%}
        {%- set merge = {'strategy': 'merge', 'type': spec.type, 'fields': spec.fields} -%}
        {%- set chosen -%}
            case when {{ start }} is null then {{ update }}
                when {{ tideline._equal_keys(start, update, spec.key) }} then {{ tideline._step(merge, start, update, 'null', what) }}
                else ({{ kind }}({{ tideline._keyed_value(start, spec.key) }}, {{ tideline._keyed_value(update, spec.key) }})).d end
        {%- endset -%}
    {%- else -%}
        {%- set chosen -%}{{ kind }}({{ start }}, {{ update }}){%- endset -%}
    {%- endif -%}
    {%- set step -%}
        case when {{ update }} is null then {{ before }} else {{ chosen }} end
    {%- endset -%}
    {{- return(step) -}}
{% endmacro %}

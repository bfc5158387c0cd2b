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
    {{- return(tideline._step_extreme('least', before, update, initial, spec.get('key'))) -}}
{% endmacro %}

{#- max: the greater of the value before (or the initial one) and the update. -#}
{% macro default__step_max(spec, before, update, initial, what) %}
    {{- return(tideline._step_extreme('greatest', before, update, initial, spec.get('key'))) -}}
{% endmacro %}

{#- least or greatest of the value before (or the initial one) and the update; with a key (Flow's
    minimize or maximize by a key, reduction_key.sql), of their keyed forms, then the value.
    Spark's least and greatest skip nulls. -#}
{% macro _step_extreme(kind, before, update, initial, key=none) %}
    {%- set start -%}coalesce({{ before }}, {{ initial }}){%- endset -%}
    {%- set chosen -%}
        {%- if key -%}
            ({{ kind }}({{ tideline._keyed_value(start, key) }}, {{ tideline._keyed_value(update, key) }})).d
        {%- else -%}
            {{ kind }}({{ start }}, {{ update }})
        {%- endif -%}
    {%- endset -%}
    {%- set step -%}
        case when {{ update }} is null then {{ before }} else {{ chosen }} end
    {%- endset -%}
    {{- return(step) -}}
{% endmacro %}

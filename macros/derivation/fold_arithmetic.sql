{#- Derivations: the reduction strategies sum, min and max as SQL (fold.sql, _fold, says what
    each argument is). -#}

{#- sum: the stored value (or the initial one) plus the updates, added in a wide type, then
    cast back to the declared type; an overflow is an error naming the register or column. -#}
{% macro default__fold_sum(spec, stored, update, initial, w, what) %}
    {%- set t = spec.type -%}
    {%- set wide = tideline._sum_type(t) -%}
    {%- set total -%}
        case when coalesce({{ stored }}, {{ initial }}) is null and sum(cast({{ update }} as {{ wide }})) over {{ w }} is null then null
            else cast(coalesce({{ stored }}, {{ initial }}, 0) as {{ wide }}) + coalesce(sum(cast({{ update }} as {{ wide }})) over {{ w }}, 0) end
    {%- endset -%}
    {{- return(tideline.checked_cast(total, t, 'tideline: {}: the sum overflows {}: '.format(what, t))) -}}
{% endmacro %}

{#- min: the least of the stored value (or the initial one) and the updates. -#}
{% macro default__fold_min(spec, stored, update, initial, w, what) %}
    {{- return(tideline._fold_extreme('min', stored, update, initial, w, spec.get('key'))) -}}
{% endmacro %}

{#- max: the greatest of the stored value (or the initial one) and the updates. -#}
{% macro default__fold_max(spec, stored, update, initial, w, what) %}
    {{- return(tideline._fold_extreme('max', stored, update, initial, w, spec.get('key'))) -}}
{% endmacro %}

{#- min or max of the stored value (or the initial one) and the updates; with a key (Flow's
    minimize or maximize by a key, reduction_key.sql), of their keyed forms, then the value. -#}
{% macro _fold_extreme(kind, stored, update, initial, w, key=none) %}
    {%- set start -%}coalesce({{ stored }}, {{ initial }}){%- endset -%}
    {%- if key -%}
        {%- set folded -%}
            ({{ 'least' if kind == 'min' else 'greatest' }}({{ tideline._keyed_value(start, key) }}, {{ kind }}({{ tideline._keyed_value(update, key) }}) over {{ w }})).d
        {%- endset -%}
        {{- return(folded) -}}
    {%- endif -%}
    {%- set folded -%}
        {{ 'least' if kind == 'min' else 'greatest' }}({{ start }}, {{ kind }}({{ update }}) over {{ w }})
    {%- endset -%}
    {{- return(folded) -}}
{% endmacro %}

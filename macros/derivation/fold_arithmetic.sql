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
    {{- return(tideline._fold_extreme('min', spec, stored, update, initial, w, what)) -}}
{% endmacro %}

{#- max: the greatest of the stored value (or the initial one) and the updates. -#}
{% macro default__fold_max(spec, stored, update, initial, w, what) %}
    {{- return(tideline._fold_extreme('max', spec, stored, update, initial, w, what)) -}}
{% endmacro %}

{#- min or max of the stored value (or the initial one) and the updates. A minimize or maximize
    by a key deep-merges values of equal keys in their order, which a window's min or max cannot:
    it is folded one value after another (_step_extreme), never here. -#}
{% macro _fold_extreme(kind, spec, stored, update, initial, w, what) %}
    {%- if spec.get('key') -%}
        {{ exceptions.raise_compiler_error("tideline: {}: internal error: a minimize or maximize by a key is folded one value after another (step_{}), not by window functions".format(what, kind)) }}
    {%- endif -%}
    {%- set folded -%}
        {{ 'least' if kind == 'min' else 'greatest' }}(coalesce({{ stored }}, {{ initial }}), {{ kind }}({{ update }}) over {{ w }})
    {%- endset -%}
    {{- return(folded) -}}
{% endmacro %}

{#- Derivations: the reduction strategies append, set and merge as SQL (fold.sql, _fold, says
    what each argument is). -#}

{#- append: the stored array (or the initial one) with every update's elements after it. -#}
{% macro default__fold_append(spec, stored, update, initial, w, what) %}
    {{- return(tideline._fold_array(false, spec, stored, update, initial, w)) -}}
{% endmacro %}

{#- set: as append, each element once. -#}
{% macro default__fold_set(spec, stored, update, initial, w, what) %}
    {{- return(tideline._fold_array(true, spec, stored, update, initial, w)) -}}
{% endmacro %}

{#- Never written, no initial value and no update yet: still null (it reads as its initial value). -#}
{% macro _fold_array(distinct, spec, stored, update, initial, w) %}
    {%- set folded -%}
        {{ 'array_distinct(' if distinct }}case when coalesce({{ stored }}, {{ initial }}) is null and count({{ update }}) over {{ w }} = 0 then null
            else concat(coalesce({{ stored }}, {{ initial }}, cast(array() as {{ spec.type }})), flatten(collect_list({{ update }}) over {{ w }})) end{{ ')' if distinct }}
    {%- endset -%}
    {{- return(folded) -}}
{% endmacro %}

{#- merge: a struct, each field folded by its own reduction (spec.fields). -#}
{% macro default__fold_merge(spec, stored, update, initial, w, what) %}
    {%- set parts = [] -%}
    {%- for f in spec.fields -%}
        {%- set field_initial = tideline._literal((spec.initial_value or {}).get(f[0]) if spec.initial_value is mapping else none, f[1].type) -%}
        {%- set field = tideline._fold(f[1], '({}).{}'.format(stored, f[0]), '({}).{}'.format(update, f[0]), field_initial, w, '{}.{}'.format(what, f[0])) -%}
        {%- do parts.append("'{}', {}".format(f[0], field)) -%}
    {%- endfor -%}
    {{- return('named_struct({})'.format(parts | join(', '))) -}}
{% endmacro %}

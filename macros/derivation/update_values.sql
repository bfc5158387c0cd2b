{#- Derivations: an update's value as a run computes it, in its register's type. -#}

{#- Transform t's update of register r over the document's columns, in r's type: checked into it
    (a value that does not fit stops the run, naming them), unless the check before the first
    write found the expression already of that type (t.exact: check_update_expressions), where
    the check could never fail and the expression is evaluated once instead of three times. -#}
{% macro _update_value(settings, t, r) %}
    {%- set expression = t.updates[r.name] -%}
    {%- if r.name in t.get('exact', []) -%}
        {{- return('({})'.format(expression)) -}}
    {%- endif -%}
    {%- set message = 'tideline: derivation {}, transform {}: the update of register {} is not a {}: '.format(settings.name, t.name, r.name, r.type) -%}
    {{- return(tideline.checked_cast(expression, r.type, message)) -}}
{% endmacro %}

{#- The value of one update that reads the register, for transform t's document `doc` (a
    struct column), with `_register` bound: the update over `_doc`. -#}
{% macro _reading_update(settings, t, r, doc) %}
    {{- return(tideline._let(doc, '_doc', tideline._update_value(settings, t, r))) -}}
{% endmacro %}

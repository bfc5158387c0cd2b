{#- Attribute views: an attribute's criteria, checked without the events (their values are
    checked against the events' columns in criteria_sql.sql). -#}

{#- {'all' or 'any': [{property, operator, value}]}; {'all': []} without criteria. -#}
{% macro _attribute_criteria(at, a) %}
    {%- set given = a.get('criteria') -%}
    {%- if given is none -%}{{ return({'all': []}) }}{%- endif -%}
    {%- do tideline._check_keys(at, "criteria", given, ['all', 'any'], []) -%}
    {%- if given | length != 1 -%}
        {{ tideline._view_error(at, "criteria takes one of all or any, got {}".format(given.keys() | list | join(' and '))) }}
    {%- endif -%}
    {%- set joiner = given.keys() | first -%}
    {%- set items = given[joiner] -%}
    {%- if items is none or items is string or items is mapping or items is not iterable or items | length == 0 -%}
        {{ tideline._view_error(at, "criteria.{} must be a non-empty list of {}".format(joiner, "{property, operator, value}")) }}
    {%- endif -%}
    {%- set conditions = [] -%}
    {%- for c in items -%}{%- do conditions.append(tideline._criterion_definition(at, c)) -%}{%- endfor -%}
    {{- return({joiner: conditions}) -}}
{% endmacro %}

{#- One criterion, checked: {property, operator (normalised), value}. -#}
{% macro _criterion_definition(at, c) %}
    {%- do tideline._check_keys(at, "criterion {}".format(tojson(c)), c, ['property', 'operator', 'value'], ['property', 'operator']) -%}
    {%- set fail = "criterion {}: ".format(tojson(c)) -%}
    {%- set operator = modules.re.sub('\s+', ' ', c.get('operator') | string | lower | trim) -%}
    {%- set value = c.get('value') -%}
    {%- if operator not in tideline.criteria_operators() -%}
        {{ tideline._view_error(at, "{}unknown operator {}; accepted: {}".format(fail, tojson(c.get('operator')), tideline.criteria_operators() | join(', '))) }}
    {%- endif -%}
    {%- if not tideline._is_property_path(c.get('property')) -%}
        {{ tideline._view_error(at, "{}property {} is invalid; accepted: a column or a path into one".format(fail, tojson(c.get('property')))) }}
    {%- endif -%}
    {%- if operator in ['is null', 'is not null'] and value is not none -%}
        {{ tideline._view_error(at, "{}operator {} takes no value".format(fail, operator)) }}
    {%- endif -%}
    {%- if operator not in ['is null', 'is not null'] and value is none -%}
        {{ tideline._view_error(at, "{}operator {} needs a value (for nulls use is null / is not null)".format(fail, operator)) }}
    {%- endif -%}
    {%- if operator == 'in' and (value is string or value is mapping or value is not iterable or value | length == 0) -%}
        {{ tideline._view_error(at, "{}operator in needs a non-empty list of values".format(fail)) }}
    {%- endif -%}
    {{- return({'property': c.get('property'), 'operator': operator, 'value': value}) -}}
{% endmacro %}

{#- Attribute views: one attribute's type, property and events, checked. -#}

{#- The declared type, and whether the aggregation can give it:
    {declared_type, kind, is_list, spark_type}. -#}
{% macro _attribute_type(at, a, aggregation) %}
    {%- set type_name = a.type | string | lower -%}
    {%- set is_list = type_name.endswith('_list') -%}
    {%- set scalar = type_name[:-5] if is_list else type_name -%}
    {%- if scalar not in tideline.attribute_types() -%}
        {{ tideline._view_error(at, "unknown type {}; accepted: {}, or one of them with _list (for unique_list)".format(tojson(a.type), tideline.attribute_types().keys() | join(', '))) }}
    {%- endif -%}
    {%- set kind = tideline.value_kind(scalar) -%}
    {%- set fits = {
        'counter': scalar in ['int32', 'int64'] and not is_list,
        'sum': kind == 'number' and not is_list,
        'mean': scalar in ['float', 'double'] and not is_list,
        'unique_list': is_list}.get(aggregation, not is_list) -%}
    {%- if not fits -%}
        {%- set accepted = {'counter': 'int32 or int64', 'sum': 'int32, int64, float or double', 'mean': 'float or double',
                            'unique_list': 'a list type, e.g. string_list'}.get(aggregation, 'a scalar type (not a list)') -%}
        {{ tideline._view_error(at, "type {} does not fit aggregation {}; accepted: {}".format(a.type, aggregation, accepted)) }}
    {%- endif -%}
    {%- set spark_type = tideline.attribute_types()[scalar] -%}
    {{- return({'declared_type': type_name, 'kind': kind, 'is_list': is_list,
                'spark_type': 'array<{}>'.format(spark_type) if is_list else spark_type}) -}}
{% endmacro %}

{#- The property: none for a counter, a column or a path into one for the others. -#}
{% macro _check_attribute_property(at, a, aggregation) %}
    {%- set property = a.get('property') -%}
    {%- if aggregation == 'counter' and property is not none -%}
        {{ tideline._view_error(at, "a counter counts events and takes no property (got {}); narrow the events with criteria instead".format(tojson(property))) }}
    {%- endif -%}
    {%- if aggregation != 'counter' and property is none -%}
        {{ tideline._view_error(at, "aggregation {} needs a property (a column, or a path such as contexts_x_1[0].field)".format(aggregation)) }}
    {%- endif -%}
    {%- if property is not none and not tideline._is_property_path(property) -%}
        {{ tideline._view_error(at, "property {} is invalid; accepted: a column or a path into one, e.g. geo_country or contexts_x_1[0].field".format(tojson(property))) }}
    {%- endif -%}
{% endmacro %}

{#- The events an attribute counts: a non-empty list of {vendor, name, version}. -#}
{% macro _check_attribute_events(at, a) %}
    {%- set events = a.get('events') -%}
    {%- if events is none or events is string or events is mapping or events is not iterable or events | length == 0 -%}
        {{ tideline._view_error(at, "events must be a non-empty list of {vendor, name, version}") }}
    {%- endif -%}
    {%- for e in events -%}
        {%- do tideline._check_keys(at, "event {}".format(tojson(e)), e, ['vendor', 'name', 'version'], ['vendor', 'name']) -%}
        {%- for key in ['vendor', 'name', 'version'] if e.get(key) is not none and (e.get(key) is not string or e.get(key) == '') -%}
            {{ tideline._view_error(at, "event {}: {} must be a non-empty string{}".format(tojson(e), key, " or null (any version)" if key == 'version' else "")) }}
        {%- endfor -%}
    {%- endfor -%}
{% endmacro %}

{#- default_value (Signals' key): the value an attribute takes over a period without values
    (instead of null, or of an empty unique list), as a SQL literal of its declared type (a list
    for a list type); none when not given. Counters and sums are 0 then: only 0 is accepted. -#}
{% macro _attribute_default(at, a, type) %}
    {%- set given = a.get('default_value') -%}
    {%- if given is none -%}{{ return(none) }}{%- endif -%}
    {%- set is_list = given is iterable and given is not string and given is not mapping -%}
    {%- if a.aggregation | string | lower in ['counter', 'sum'] and given != 0 -%}
        {{ tideline._view_error(at, "default_value {} is not accepted for a {}: over a period without events it is 0 (default_value 0 or none)".format(tojson(given), a.aggregation | lower)) }}
    {%- endif -%}
    {%- set literals = [] -%}
    {%- for v in (given if is_list else [given]) -%}
        {%- set literal = tideline._criterion_literal(type.kind, v) -%}
        {%- if is_list != type.is_list or literal is none or (type.declared_type.startswith('int') and v is not integer) -%}
            {{ tideline._view_error(at, "default_value {} does not fit type {}; accepted: {}{}".format(tojson(given), type.declared_type,
                'a list of ' if type.is_list else '', {'number': 'whole numbers' if type.declared_type.startswith('int') else 'numbers', 'string': 'strings', 'boolean': 'true or false',
                'date': 'dates YYYY-MM-DD', 'timestamp': 'times YYYY-MM-DD[ HH:MM[:SS]]'}.get(type.kind, 'values of that type'))) }}
        {%- endif -%}
        {%- do literals.append(literal) -%}
    {%- endfor -%}
    {{- return('array({})'.format(literals | join(', ')) if is_list else literals[0]) -}}
{% endmacro %}

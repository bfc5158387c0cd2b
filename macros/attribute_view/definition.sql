{#- Attribute views: the definition read and checked. Everything that can be checked without
    the events is checked here, at compile time, naming the view and the attribute; the
    properties and criteria values are checked against the filtered events' columns in
    schema_checks.sql. -#}

{#- The view as a checked, normalised dict:
      {name, version, key, include_current_day, first_last, model, where, attributes: [{name, declared_type,
       type (Spark), kind (of the values), is_list, aggregation, property, events, criteria,
       days, default (a SQL literal or none), where}]}. A view in Snowplow Signals' form
       (signals_view.sql) is first read into tideline's. -#}
{% macro attribute_view_definition(view, model_name) %}
    {%- set where = "attribute view {}".format(view.name if view is mapping and view.name is string else "of {}".format(model_name)) -%}
    {%- set view = tideline.signals_view_as_tideline(where, view) if tideline.is_signals_view(view) else view -%}
    {%- set settings = tideline._view_settings(where, view, model_name) -%}
    {%- set attributes = [] -%}
    {%- set seen = [view.get('attribute_key') | lower, 'event_date'] -%}
    {%- for a in view.get('attributes') -%}
        {%- set at = "{}, attribute {}".format(where, a.name if a is mapping and a.name is string else "#{}".format(loop.index)) -%}
        {%- do attributes.append(tideline._attribute_definition(at, a, seen)) -%}
        {%- do seen.append(a.name | lower) -%}
    {%- endfor -%}
    {{- return({'name': view.name, 'version': settings.version, 'key': view.get('attribute_key') | lower,
        'include_current_day': settings.include_current_day, 'first_last': settings.first_last, 'model': model_name,
        'attributes': attributes, 'where': where}) -}}
{% endmacro %}

{#- The view's own settings, checked: {version, include_current_day, first_last}. -#}
{% macro _view_settings(where, view, model_name) %}
    {%- if view is not mapping -%}
        {{ tideline._view_error(where, "config meta.attribute_view of model {} is missing or not a mapping; see the README's \"Attribute views\"".format(model_name)) }}
    {%- endif -%}
    {%- do tideline._check_keys(where, "the view", view, ['name', 'version', 'attribute_key', 'include_current_day', 'first_last', 'attributes', 'description', 'owner'], ['name', 'attribute_key', 'attributes']) -%}
    {%- if not tideline._is_identifier(view.name) -%}
        {{ tideline._view_error(where, "name {} is invalid; accepted: letters, digits and underscores".format(tojson(view.name))) }}
    {%- endif -%}
    {%- set version = view.get('version', 1) -%}
    {%- if version is boolean or version is not number or (version | int) != version or version < 1 -%}
        {{ tideline._view_error(where, "version {} is invalid; accepted: a whole number >= 1".format(tojson(version))) }}
    {%- endif -%}
    {%- if not tideline._is_identifier(view.get('attribute_key')) -%}
        {{ tideline._view_error(where, "attribute_key {} is invalid; accepted: a column of the events, e.g. domain_userid".format(tojson(view.get('attribute_key')))) }}
    {%- endif -%}
    {%- set include = view.get('include_current_day') -%}
    {%- set include = tideline.var_bool('tideline__include_current_day') if include is none else include -%}
    {%- if include is not boolean -%}
        {{ tideline._view_error(where, "include_current_day {} is invalid; accepted: true or false".format(tojson(include))) }}
    {%- endif -%}
    {%- set first_last = view.get('first_last', 'attribute_events') -%}
    {%- if first_last not in ['attribute_events', 'view_events'] -%}
        {{ tideline._view_error(where, "first_last {} is invalid; accepted: attribute_events (the first and last values among the attribute's own events, the default) or view_events (the values at the view's first and last events, as Signals computes them)".format(tojson(first_last))) }}
    {%- endif -%}
    {%- set listed = view.get('attributes') -%}
    {%- if listed is string or listed is mapping or listed is not iterable or listed | length == 0 -%}
        {{ tideline._view_error(where, "attributes must be a non-empty list") }}
    {%- endif -%}
    {{- return({'version': version | int, 'include_current_day': include, 'first_last': first_last}) -}}
{% endmacro %}

{#- One attribute, checked and normalised (`seen`: the names before it, the key and event_date first). -#}
{% macro _attribute_definition(at, a, seen) %}
    {%- do tideline._check_keys(at, "the attribute", a, ['name', 'type', 'events', 'aggregation', 'property', 'criteria', 'period', 'default_value', 'description'], ['name', 'type', 'aggregation']) -%}
    {%- if not tideline._is_identifier(a.name) or (a.name | lower).startswith('_tl_') -%}
        {{ tideline._view_error(at, "name {} is invalid; accepted: letters, digits and underscores (it is the column's name)".format(tojson(a.name))) }}
    {%- endif -%}
    {%- if a.name | lower in seen -%}
        {{ tideline._view_error(at, "the name {} is used twice{}; attribute names must be unique".format(
            a.name, " (it is the view's key or event_date)" if a.name | lower in seen[:2] else "")) }}
    {%- endif -%}
    {%- set aggregation = a.aggregation | string | lower -%}
    {%- if aggregation not in tideline.attribute_aggregations() -%}
        {{ tideline._view_error(at, "unknown aggregation {}; accepted: {}".format(tojson(a.aggregation), tideline.attribute_aggregations() | join(', '))) }}
    {%- endif -%}
    {%- set type = tideline._attribute_type(at, a, aggregation) -%}
    {%- do tideline._check_attribute_property(at, a, aggregation) -%}
    {%- do tideline._check_attribute_events(at, a) -%}
    {{- return({
        'name': a.name | lower, 'declared_type': type.declared_type, 'kind': type.kind, 'is_list': type.is_list, 'type': type.spark_type,
        'aggregation': aggregation, 'property': a.get('property'), 'events': a.get('events'),
        'criteria': tideline._attribute_criteria(at, a), 'days': tideline.period_days(at, a.get('period')),
        'default': tideline._attribute_default(at, a, type), 'where': at}) -}}
{% endmacro %}

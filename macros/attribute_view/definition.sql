{#- Attribute views: the definition (Snowplow Signals' attribute view, in YAML) read and checked.

    A view is declared in the config of its attributes model (meta.attribute_view), see the
    README's "Attribute views". Everything that can be checked without the events is checked
    here, at compile time, naming the view and the attribute; the properties and criteria
    values are checked against the filtered events' columns in generate.sql. -#}

{#- The declared types: Signals' names, with their Spark types. A list type is <scalar>_list. -#}
{% macro attribute_types() %}
    {{- return({
        'int32': 'int', 'int64': 'bigint', 'float': 'float', 'double': 'double', 'string': 'string',
        'bool': 'boolean', 'boolean': 'boolean', 'timestamp': 'timestamp', 'date': 'date'}) -}}
{% endmacro %}

{#- What kind of value a type holds (declared names and the names of Spark's schema tree). -#}
{% macro value_kind(type) %}
    {%- set t = type | lower -%}
    {%- if t in ['int32', 'int64', 'float', 'double', 'integer', 'int', 'long', 'bigint', 'short', 'smallint', 'byte', 'tinyint'] or t.startswith('decimal') -%}
        {{- return('number') -}}
    {%- elif t in ['bool', 'boolean'] -%}{{- return('boolean') -}}
    {%- elif t in ['timestamp', 'timestamp_ntz'] -%}{{- return('timestamp') -}}
    {%- elif t in ['string', 'date'] -%}{{- return(t) -}}
    {%- endif -%}
    {{- return('complex') -}}
{% endmacro %}

{% macro attribute_aggregations() %}
    {{- return(['counter', 'sum', 'min', 'max', 'mean', 'first', 'last', 'unique_list']) -}}
{% endmacro %}

{% macro criteria_operators() %}
    {{- return(['=', '!=', '<', '<=', '>', '>=', 'like', 'in', 'is null', 'is not null']) -}}
{% endmacro %}

{% macro _view_error(where, message) %}
    {{ exceptions.raise_compiler_error("tideline: " ~ where ~ ": " ~ message) }}
{% endmacro %}

{#- `value` a mapping whose keys are all in `allowed` (and `required` present). -#}
{% macro _check_keys(where, what, value, allowed, required) %}
    {%- if value is not mapping -%}
        {{ tideline._view_error(where, what ~ " = " ~ tojson(value) ~ " is not a mapping (keys: " ~ allowed | join(', ') ~ ")") }}
    {%- endif -%}
    {%- for key in value if key not in allowed -%}
        {{ tideline._view_error(where, what ~ " has an unknown key " ~ tojson(key) ~ " (keys: " ~ allowed | join(', ') ~ ")") }}
    {%- endfor -%}
    {%- for key in required if value.get(key) is none -%}
        {{ tideline._view_error(where, what ~ " needs " ~ key) }}
    {%- endfor -%}
{% endmacro %}

{% macro _is_identifier(value) %}
    {{- return(value is string and modules.re.match('^[A-Za-z_][A-Za-z0-9_]*$', value) is not none) -}}
{% endmacro %}

{#- An ISO-8601 duration as whole days (none: no period, the lifetime). Sub-day periods are
    refused: the daily aggregate keeps whole days; PTnH with n a multiple of 24 is n/24 days. -#}
{% macro period_days(where, period) %}
    {%- if period is none -%}{{ return(none) }}{%- endif -%}
    {%- set text = period | string -%}
    {%- set m = modules.re.match('^P(?:(\d+)D|(\d+)W|T(\d+)H)$', text) -%}
    {%- if m is none -%}
        {%- if modules.re.match('^P(\d+Y)?(\d+M)?(\d+W)?(\d+D)?(T(\d+H)?(\d+M)?(\d+(\.\d+)?S)?)?$', text) and text not in ['P', 'PT'] -%}
            {{ tideline._view_error(where, "period " ~ tojson(period) ~ " is not supported; accepted: PnD (days), PnW (weeks) or PTnH with n a multiple of 24 (years and months have no fixed length; hours, minutes and seconds are finer than the daily aggregate's days); none for the lifetime") }}
        {%- endif -%}
        {{ tideline._view_error(where, "period " ~ tojson(period) ~ " is not an ISO-8601 duration; accepted: PnD (days), PnW (weeks) or PTnH with n a multiple of 24; none for the lifetime") }}
    {%- endif -%}
    {%- set days = (m.group(1) | int) if m.group(1) else ((m.group(2) | int) * 7 if m.group(2) else (m.group(3) | int) / 24) -%}
    {%- if m.group(3) and (m.group(3) | int) % 24 != 0 -%}
        {{ tideline._view_error(where, "period " ~ text ~ " is shorter than, or not a whole number of, days: sub-day periods are not supported (the daily aggregate keeps whole days); use PnD") }}
    {%- endif -%}
    {%- if days < 1 -%}
        {{ tideline._view_error(where, "period " ~ text ~ " is empty; a period is at least one day (P1D)") }}
    {%- endif -%}
    {{- return(days | int) -}}
{% endmacro %}

{#- The view as a checked, normalised dict:
      {name, version, key, include_current_day, model, attributes: [{name, type (Spark),
       kind (of the values), is_list, aggregation, property, events, criteria, days}]}. -#}
{% macro attribute_view_definition(view, model_name) %}
    {%- set where = "attribute view " ~ (view.name if view is mapping and view.name is string else "of " ~ model_name) -%}
    {%- if view is not mapping -%}
        {{ tideline._view_error(where, "config meta.attribute_view of model " ~ model_name ~ " is missing or not a mapping; see the README's \"Attribute views\"") }}
    {%- endif -%}
    {%- do tideline._check_keys(where, "the view", view, ['name', 'version', 'attribute_key', 'include_current_day', 'attributes', 'description', 'owner'], ['name', 'attribute_key', 'attributes']) -%}
    {%- if not tideline._is_identifier(view.name) -%}
        {{ tideline._view_error(where, "name " ~ tojson(view.name) ~ " is invalid; accepted: letters, digits and underscores") }}
    {%- endif -%}
    {%- set version = view.get('version', 1) -%}
    {%- if version is boolean or version is not number or (version | int) != version or version < 1 -%}
        {{ tideline._view_error(where, "version " ~ tojson(version) ~ " is invalid; accepted: a whole number >= 1") }}
    {%- endif -%}
    {%- if not tideline._is_identifier(view.get('attribute_key')) -%}
        {{ tideline._view_error(where, "attribute_key " ~ tojson(view.get('attribute_key')) ~ " is invalid; accepted: a column of the events, e.g. domain_userid") }}
    {%- endif -%}
    {%- set include = view.get('include_current_day') -%}
    {%- set include = tideline.var_bool('tideline__include_current_day') if include is none else include -%}
    {%- if include is not boolean -%}
        {{ tideline._view_error(where, "include_current_day " ~ tojson(include) ~ " is invalid; accepted: true or false") }}
    {%- endif -%}
    {%- if view.get('attributes') is string or view.get('attributes') is mapping or view.get('attributes') is not iterable or view.get('attributes') | length == 0 -%}
        {{ tideline._view_error(where, "attributes must be a non-empty list") }}
    {%- endif -%}

    {%- set attributes = [] -%}
    {%- set seen = [view.get('attribute_key') | lower, 'event_date'] -%}
    {%- for a in view.get('attributes') -%}
        {%- set at = where ~ ", attribute " ~ (a.name if a is mapping and a.name is string else "#" ~ loop.index) -%}
        {%- do tideline._check_keys(at, "the attribute", a, ['name', 'type', 'events', 'aggregation', 'property', 'criteria', 'period', 'description'], ['name', 'type', 'aggregation']) -%}
        {%- if not tideline._is_identifier(a.name) or (a.name | lower).startswith('_tl_') -%}
            {{ tideline._view_error(at, "name " ~ tojson(a.name) ~ " is invalid; accepted: letters, digits and underscores (it is the column's name)") }}
        {%- endif -%}
        {%- if a.name | lower in seen -%}
            {{ tideline._view_error(at, "the name " ~ a.name ~ " is used twice" ~ (" (it is the view's key or event_date)" if a.name | lower in seen[:2] else "") ~ "; attribute names must be unique") }}
        {%- endif -%}
        {%- do seen.append(a.name | lower) -%}

        {%- set aggregation = a.aggregation | string | lower -%}
        {%- if aggregation not in tideline.attribute_aggregations() -%}
            {{ tideline._view_error(at, "unknown aggregation " ~ tojson(a.aggregation) ~ "; accepted: " ~ tideline.attribute_aggregations() | join(', ')) }}
        {%- endif -%}

        {#- the declared type, and whether the aggregation can give it -#}
        {%- set type_name = a.type | string | lower -%}
        {%- set is_list = type_name.endswith('_list') -%}
        {%- set scalar = type_name[:-5] if is_list else type_name -%}
        {%- if scalar not in tideline.attribute_types() -%}
            {{ tideline._view_error(at, "unknown type " ~ tojson(a.type) ~ "; accepted: " ~ tideline.attribute_types().keys() | join(', ') ~ ", or one of them with _list (for unique_list)") }}
        {%- endif -%}
        {%- set kind = tideline.value_kind(scalar) -%}
        {%- set fits = {
            'counter': scalar in ['int32', 'int64'] and not is_list,
            'sum': kind == 'number' and not is_list,
            'mean': scalar in ['float', 'double'] and not is_list,
            'unique_list': is_list}.get(aggregation, not is_list) -%}
        {%- if not fits -%}
            {{ tideline._view_error(at, "type " ~ a.type ~ " does not fit aggregation " ~ aggregation ~ "; accepted: "
                ~ {'counter': 'int32 or int64', 'sum': 'int32, int64, float or double', 'mean': 'float or double',
                   'unique_list': 'a list type, e.g. string_list'}.get(aggregation, 'a scalar type (not a list)')) }}
        {%- endif -%}

        {#- the property: none for a counter, a column or a path into one for the others -#}
        {%- if aggregation == 'counter' and a.get('property') is not none -%}
            {{ tideline._view_error(at, "a counter counts events and takes no property (got " ~ tojson(a.get('property')) ~ "); narrow the events with criteria instead") }}
        {%- endif -%}
        {%- if aggregation != 'counter' and a.get('property') is none -%}
            {{ tideline._view_error(at, "aggregation " ~ aggregation ~ " needs a property (a column, or a path such as contexts_x_1[0].field)") }}
        {%- endif -%}
        {%- if a.get('property') is not none and not tideline._is_property_path(a.get('property')) -%}
            {{ tideline._view_error(at, "property " ~ tojson(a.get('property')) ~ " is invalid; accepted: a column or a path into one, e.g. geo_country or contexts_x_1[0].field") }}
        {%- endif -%}

        {#- the events -#}
        {%- if a.get('events') is none or a.get('events') is string or a.get('events') is mapping or a.get('events') is not iterable or a.get('events') | length == 0 -%}
            {{ tideline._view_error(at, "events must be a non-empty list of {vendor, name, version}") }}
        {%- endif -%}
        {%- for e in a.get('events') -%}
            {%- do tideline._check_keys(at, "event " ~ tojson(e), e, ['vendor', 'name', 'version'], ['vendor', 'name']) -%}
            {%- for key in ['vendor', 'name', 'version'] if e.get(key) is not none and (e.get(key) is not string or e.get(key) == '') -%}
                {{ tideline._view_error(at, "event " ~ tojson(e) ~ ": " ~ key ~ " must be a non-empty string" ~ (" or null (any version)" if key == 'version' else "")) }}
            {%- endfor -%}
        {%- endfor -%}

        {#- the criteria -#}
        {%- set criteria = {'all': []} -%}
        {%- if a.get('criteria') is not none -%}
            {%- do tideline._check_keys(at, "criteria", a.get('criteria'), ['all', 'any'], []) -%}
            {%- if a.get('criteria') | length != 1 -%}
                {{ tideline._view_error(at, "criteria takes one of all or any, got " ~ a.get('criteria').keys() | list | join(' and ')) }}
            {%- endif -%}
            {%- set joiner = a.get('criteria').keys() | first -%}
            {%- set items = a.get('criteria')[joiner] -%}
            {%- if items is none or items is string or items is mapping or items is not iterable or items | length == 0 -%}
                {{ tideline._view_error(at, "criteria." ~ joiner ~ " must be a non-empty list of {property, operator, value}") }}
            {%- endif -%}
            {%- set conditions = [] -%}
            {%- for c in items -%}
                {%- do tideline._check_keys(at, "criterion " ~ tojson(c), c, ['property', 'operator', 'value'], ['property', 'operator']) -%}
                {%- set operator = modules.re.sub('\s+', ' ', c.get('operator') | string | lower | trim) -%}
                {%- if operator not in tideline.criteria_operators() -%}
                    {{ tideline._view_error(at, "criterion " ~ tojson(c) ~ ": unknown operator " ~ tojson(c.get('operator')) ~ "; accepted: " ~ tideline.criteria_operators() | join(', ')) }}
                {%- endif -%}
                {%- if not tideline._is_property_path(c.get('property')) -%}
                    {{ tideline._view_error(at, "criterion " ~ tojson(c) ~ ": property " ~ tojson(c.get('property')) ~ " is invalid; accepted: a column or a path into one") }}
                {%- endif -%}
                {%- if operator in ['is null', 'is not null'] and c.get('value') is not none -%}
                    {{ tideline._view_error(at, "criterion " ~ tojson(c) ~ ": operator " ~ operator ~ " takes no value") }}
                {%- endif -%}
                {%- if operator not in ['is null', 'is not null'] and c.get('value') is none -%}
                    {{ tideline._view_error(at, "criterion " ~ tojson(c) ~ ": operator " ~ operator ~ " needs a value (for nulls use is null / is not null)") }}
                {%- endif -%}
                {%- if operator == 'in' and (c.get('value') is string or c.get('value') is mapping or c.get('value') is not iterable or c.get('value') | length == 0) -%}
                    {{ tideline._view_error(at, "criterion " ~ tojson(c) ~ ": operator in needs a non-empty list of values") }}
                {%- endif -%}
                {%- do conditions.append({'property': c.get('property'), 'operator': operator, 'value': c.get('value')}) -%}
            {%- endfor -%}
            {%- set criteria = {joiner: conditions} -%}
        {%- endif -%}

        {%- do attributes.append({
            'name': a.name | lower, 'declared_type': type_name, 'kind': kind, 'is_list': is_list,
            'type': ('array<' ~ tideline.attribute_types()[scalar] ~ '>') if is_list else tideline.attribute_types()[scalar],
            'aggregation': aggregation, 'property': a.get('property'), 'events': a.get('events'), 'criteria': criteria,
            'days': tideline.period_days(at, a.get('period')), 'where': at}) -%}
    {%- endfor -%}
    {{- return({'name': view.name, 'version': version | int, 'key': view.get('attribute_key') | lower,
        'include_current_day': include, 'model': model_name, 'attributes': attributes, 'where': where}) -}}
{% endmacro %}

{% macro _is_property_path(value) %}
    {{- return(value is string and modules.re.match('^[A-Za-z_][A-Za-z0-9_]*(\[[0-9]+\]|\.[A-Za-z_][A-Za-z0-9_]*)*$', value) is not none) -}}
{% endmacro %}

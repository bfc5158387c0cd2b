{#- Attribute views: one attribute of a Signals view (signals_view.sql) in tideline's form. -#}

{#- {name, type, events, aggregation, property, criteria, period, default_value, description}:
    Signals' types (unix_timestamp is a timestamp), properties (a path in Databricks or Snowflake
    syntax, or the newer API's property objects) and periods (ISO-8601 durations as the SDK
    writes them, or seconds) in the words of tideline's form. -#}
{% macro signals_attribute_as_tideline(at, a) %}
    {%- do tideline._check_keys(at, "the Signals attribute", a, ['name', 'description', 'type', 'tags', 'events', 'aggregation',
        'property_syntax', 'property', 'criteria', 'period', 'default_value'], ['name', 'type', 'aggregation']) -%}
    {%- set type = a.type | string | lower -%}
    {%- if type.startswith('bytes') -%}
        {{ tideline._view_error(at, "type {} is not supported: a batch table has no bytes attributes; declare string{} and aggregate a string property".format(tojson(a.type), '_list' if type.endswith('_list') else '')) }}
    {%- endif -%}
    {%- set given = a.get('events') -%}
    {%- set is_list = given is iterable and given is not string and given is not mapping -%}
    {%- set events = [] if is_list else given -%}
    {%- for e in (given if is_list else []) -%}
        {%- if e is mapping and e.get('event_specification_id') is not none -%}
            {{ tideline._view_error(at, "event {}: event_specification_id is not supported (tideline has no tracking plan to look it up in); give the event's vendor, name and version".format(tojson(e))) }}
        {%- endif -%}
        {%- set event = {} if e is mapping else e -%}
        {%- for key, value in (e.items() if e is mapping else []) if key != 'event_specification_id' -%}{%- do event.update({key: value}) -%}{%- endfor -%}
        {%- do events.append(event) -%}
    {%- endfor -%}
    {%- set syntax = a.get('property_syntax') -%}
    {%- set criteria = none -%}
    {%- if a.get('criteria') is not none -%}
        {%- set criteria = tideline._signals_criteria(at, a.criteria, syntax) or none -%}
    {%- endif -%}
    {%- set own = {'name': a.name, 'type': type.replace('unix_timestamp', 'timestamp'), 'events': events,
        'aggregation': a.aggregation, 'property': tideline._signals_property(at, a.get('property'), syntax),
        'criteria': criteria, 'period': tideline._signals_period(at, a.get('period'))} -%}
    {%- for key in ['default_value', 'description'] if a.get(key) is not none -%}{%- do own.update({key: a.get(key)}) -%}{%- endfor -%}
    {{- return(own) -}}
{% endmacro %}

{#- Criteria {all, any}: the one given (Signals writes the other as null; both null: no
    criteria, an empty mapping); each criterion's property translated as the attribute's. -#}
{% macro _signals_criteria(at, criteria, syntax) %}
    {%- do tideline._check_keys(at, "criteria", criteria, ['all', 'any'], []) -%}
    {%- set own = {} -%}
    {%- for joiner in ['all', 'any'] if criteria.get(joiner) is not none -%}
        {%- set given = criteria[joiner] -%}
        {%- set is_list = given is iterable and given is not string and given is not mapping -%}
        {%- set items = [] if is_list else given -%}
        {%- for c in (given if is_list else []) -%}
            {%- do tideline._check_keys(at, "criterion {}".format(tojson(c)), c, ['property_syntax', 'property', 'operator', 'value'], ['property', 'operator']) -%}
            {%- set item = {'property': tideline._signals_property(at, c.property, c.get('property_syntax') or syntax), 'operator': c.operator} -%}
            {%- if 'value' in c -%}{%- do item.update({'value': c.value}) -%}{%- endif -%}
            {%- do items.append(item) -%}
        {%- endfor -%}
        {%- do own.update({joiner: items}) -%}
    {%- endfor -%}
    {{- return(own) -}}
{% endmacro %}

{#- A property as a Spark path. A string in Databricks syntax (col[0].field) is kept; in
    Snowflake syntax (col[0]:fieldName, Signals' default) the JSON path after ':' is read as
    Spark fields, each name in snake case as the Databricks form of Signals' exports writes
    them (operatingSystemName: operating_system_name; a table with other names is found out by
    the check against the events' columns). An object {type: atomic|event|entity, ...} is
    the column Snowplow's loaders name (unstruct_event_<vendor>_<name>_<major>,
    contexts_<vendor>_<name>_<major>[index]) and its path. -#}
{% macro _signals_property(at, property, syntax) %}
    {%- set re = modules.re -%}
    {%- set snake = '([^A-Z_.\[\]])([A-Z])' -%}
    {%- if property is none -%}{{ return(none) }}{%- endif -%}
    {%- if property is mapping -%}
        {%- set kind = property.get('type', 'atomic') -%}
        {%- if kind == 'atomic' -%}{{ return(property.get('name')) }}{%- endif -%}
        {%- if kind not in ['event', 'entity'] or property.get('vendor') is not string or property.get('name') is not string or property.get('major_version') is none -%}
            {{ tideline._view_error(at, "property {} is not a Signals property (accepted: {{type: atomic, name}}, {{type: event|entity, vendor, name, major_version, path[, index]}})".format(tojson(property))) }}
        {%- endif -%}
        {%- set column = '{}_{}_{}_{}'.format('unstruct_event' if kind == 'event' else 'contexts', property.vendor | replace('.', '_') | replace('-', '_') | lower,
            re.sub(snake, '\\1_\\2', property.name) | replace('-', '_') | lower, property.major_version) -%}
        {%- set column = column if kind == 'event' else '{}[{}]'.format(column, property.get('index', 0)) -%}
        {%- set path = re.sub('^\$\.?', '', property.get('path') or '') -%}
        {{- return(column if path == '' else '{}.{}'.format(column, re.sub(snake, '\\1_\\2', path) | lower)) -}}
    {%- endif -%}
    {%- if syntax is not none and syntax not in ['snowflake', 'databricks'] -%}
        {{ tideline._view_error(at, "property {} is in {} syntax, which tideline does not read; write it in Databricks syntax (a column, or a path such as contexts_x_1[0].field) with property_syntax: databricks".format(tojson(property), syntax)) }}
    {%- endif -%}
    {%- if property is string and ':' in property -%}
        {%- set head, tail = property.split(':', 1) -%}
        {{- return('{}.{}'.format(head, re.sub(snake, '\\1_\\2', tail) | lower)) -}}
    {%- endif -%}
    {{- return(property) -}}
{% endmacro %}

{#- A period as tideline's form: an ISO-8601 duration (P7D, PT24H, P1DT12H, as pydantic
    writes a timedelta) or a number of seconds, as PnD when it is whole days; otherwise kept,
    so that the period check refuses it with tideline's message. -#}
{% macro _signals_period(at, period) %}
    {%- if period is none -%}{{ return(none) }}{%- endif -%}
    {%- set seconds = period if period is number and period is not boolean else none -%}
    {%- set m = modules.re.match('^P(?:(\d+)W)?(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+(?:\.\d+)?)S)?)?$', period | string) if seconds is none else none -%}
    {%- if m is not none and (period | string) not in ['P', 'PT'] -%}
        {%- set seconds = (m.group(1) or 0) | int * 604800 + (m.group(2) or 0) | int * 86400 + (m.group(3) or 0) | int * 3600 + (m.group(4) or 0) | int * 60 + (m.group(5) or 0) | float -%}
    {%- endif -%}
    {%- if seconds is not none and seconds > 0 and seconds % 86400 == 0 -%}
        {{- return('P{}D'.format((seconds / 86400) | int)) -}}
    {%- endif -%}
    {{- return(period if period is string or seconds is none else 'PT{}S'.format(seconds | int if seconds == seconds | int else seconds)) -}}
{% endmacro %}

{#- Attribute views: which events an attribute counts, as SQL, each value checked against
    the type of its property. -#}

{#- Which events an attribute counts: one of its events, and its criteria. -#}
{% macro _attribute_events_sql(a, schema) %}
    {%- set events = [] -%}
    {%- for e in a.events -%}
        {%- set event -%}
            (event_vendor = {{ tideline.literal(e.vendor | string) }} and event_name = {{ tideline.literal(e.name | string) }}
            {%- if e.get('version') is not none %} and event_version = {{ tideline.literal(e.version | string) }}{% endif %})
        {%- endset -%}
        {%- do events.append(event) -%}
    {%- endfor -%}
    {%- set joiner = a.criteria.keys() | first -%}
    {%- set conditions = [] -%}
    {%- for c in a.criteria[joiner] -%}{%- do conditions.append(tideline._criterion_sql(a, c, schema)) -%}{%- endfor -%}
    {%- set sql -%}
        {%- if events | length == 1 %}{{ events[0] }}{% else %}({{ events | join(' or ') }}){% endif -%}
        {%- if conditions %} and ({{ conditions | join(' and ' if joiner == 'all' else ' or ') }}){% endif -%}
    {%- endset -%}
    {{- return(sql) -}}
{% endmacro %}

{#- One criterion as SQL, its value checked against the property's type. `!=` is null-safe: a
    null property is not equal to the value (a plain <> would drop the row). -#}
{% macro _criterion_sql(a, c, schema) %}
    {%- set found = tideline.property_type(schema, c.property) -%}
    {%- set fail = "criterion {} {}{}: ".format(c.property, c.operator, " {}".format(tojson(c.value)) if c.value is not none else "") -%}
    {%- if found is none -%}
        {{ tideline._view_error(a.where, "{}property {} is not in the events (no such column or field in tl_filtered_events)".format(fail, c.property)) }}
    {%- endif -%}
    {%- if c.operator == 'is null' or c.operator == 'is not null' -%}
        {{- return('{} {}'.format(c.property, c.operator)) -}}
    {%- endif -%}
    {%- set kind = tideline.value_kind(found) -%}
    {%- set allowed = {'number': ['=', '!=', '<', '<=', '>', '>=', 'in'], 'string': tideline.criteria_operators(),
        'boolean': ['=', '!=', 'in'], 'date': ['=', '!=', '<', '<=', '>', '>=', 'in'], 'timestamp': ['=', '!=', '<', '<=', '>', '>=', 'in']}.get(kind, []) -%}
    {%- if c.operator not in allowed -%}
        {{ tideline._view_error(a.where, "{}operator {} does not apply to {}, which is {}; accepted: {}".format(
            fail, c.operator, c.property, found, (allowed + ['is null', 'is not null']) | unique | join(', '))) }}
    {%- endif -%}
    {%- set literals = [] -%}
    {%- for v in (c.value if c.operator == 'in' else [c.value]) -%}
        {%- set literal = tideline._criterion_literal(kind, v) -%}
        {%- if literal is none -%}
            {%- set needed = {'number': 'a number', 'string': 'a string', 'boolean': 'true or false',
                              'date': 'a date YYYY-MM-DD', 'timestamp': 'a time YYYY-MM-DD[ HH:MM[:SS]]'}[kind] -%}
            {{ tideline._view_error(a.where, "{}value {} does not fit {}, which is {} ({} is needed)".format(fail, tojson(v), c.property, found, needed)) }}
        {%- endif -%}
        {%- do literals.append(literal) -%}
    {%- endfor -%}
    {%- if c.operator == 'in' -%}{{- return('{} in ({})'.format(c.property, literals | join(', '))) -}}{%- endif -%}
    {%- if c.operator == '!=' -%}{{- return('not ({} <=> {})'.format(c.property, literals[0])) -}}{%- endif -%}
    {{- return('{} {} {}'.format(c.property, c.operator, literals[0])) -}}
{% endmacro %}

{#- A value as a SQL literal of the given kind; none when it does not fit. -#}
{% macro _criterion_literal(kind, v) %}
    {%- if kind == 'number' and v is number and v is not boolean -%}{{ return(v | string) }}
    {%- elif kind == 'string' and v is string -%}{{ return(tideline.literal(v)) }}
    {%- elif kind == 'boolean' and v is boolean -%}{{ return('true' if v else 'false') }}
    {%- elif kind == 'date' and v is string and modules.re.match('^\d{4}-\d{2}-\d{2}$', v) and tideline.parse_utc_time(v) is not none -%}
        {{ return("date'{}'".format(v)) }}
    {%- elif kind == 'timestamp' and v is string and tideline.parse_utc_time(v) is not none -%}
        {{ return(tideline.ts(tideline.parse_utc_time(v))) }}
    {%- endif -%}
    {{- return(none) -}}
{% endmacro %}

{#- Attribute views: the two generated models.

    A view (meta.attribute_view in the config of its attributes model, see definition.sql)
    gives two models, each a one-line SQL file:
      <daily>.sql      {{ tideline.attribute_view_daily_aggregate('<attributes model>') }}
                       a tideline daily aggregate over the filtered events: per event date and
                       key, the day's part of each attribute (named <attribute>__<part>);
      <attributes>.sql {{ tideline.attribute_view_table('<daily>') }}
                       one pass over the daily aggregate: per key, each attribute over its
                       period, cast to its declared type.
    Both compile to plain SQL built from the helpers in macros/incremental/attributes.sql. -#}

{#- The daily aggregate of a view. The definition is read from the attributes model's config
    through dbt's graph (only at execute time: at parse time the select only names its ref). -#}
{% macro attribute_view_daily_aggregate(view_model) %}
    {{ config(materialized='tideline_daily_aggregate') }}
    {%- if not execute -%}
        {{- return('select event_date from ' ~ tideline.filtered_events()) -}}
    {%- endif -%}
    {%- set view = tideline.attribute_view_definition(tideline._attribute_view_config(view_model), view_model) -%}
    {%- set schema = tideline.filtered_events_schema() -%}
    {%- do tideline._check_against_events(view, schema) -%}
    {%- do tideline._refuse_changed_daily_columns(view) -%}
    {{- return(tideline.attribute_view_daily_sql(view, schema)) -}}
{% endmacro %}

{#- The attributes table of a view: the view is this model's own config. -#}
{% macro attribute_view_table(daily_model) %}
    {{ config(materialized='tideline_table') }}
    {%- set daily = ref(daily_model) -%}
    {%- if not execute -%}{{ return('select 1 from ' ~ daily) }}{%- endif -%}
    {%- set view = tideline.attribute_view_definition((config.get('meta') or {}).get('attribute_view'), model.name) -%}
    {{- return(tideline.attribute_view_attributes_sql(view, daily)) -}}
{% endmacro %}

{#- meta.attribute_view of the model `view_model` (of this package), from dbt's graph. -#}
{% macro _attribute_view_config(view_model) %}
    {%- for node in graph.nodes.values() if node.resource_type == 'model' and node.name == view_model and node.package_name == model.package_name -%}
        {%- set view = (node.config.get('meta') or {}).get('attribute_view') -%}
        {%- if view is none -%}
            {{ exceptions.raise_compiler_error("tideline: daily aggregate " ~ model.name ~ ": model " ~ view_model ~ " has no meta.attribute_view in its config; see the README's \"Attribute views\"") }}
        {%- endif -%}
        {{- return(view) -}}
    {%- endfor -%}
    {{ exceptions.raise_compiler_error("tideline: daily aggregate " ~ model.name ~ ": there is no model " ~ view_model ~ " (the attributes model that declares the view)") }}
{% endmacro %}

{#- The filtered events' columns as {path: type}, nested fields included (arrays' elements as
    <column>.element), from Spark's schema tree of tl_filtered_events: dbt's relation cache
    holds it; one `show table extended` when the cache has none (a relation built in this run). -#}
{% macro filtered_events_schema() %}
    {%- set relation = adapter.get_relation(database=none, schema=target.schema, identifier='tl_filtered_events') -%}
    {%- if relation is none -%}
        {{ exceptions.raise_compiler_error("tideline: daily aggregate " ~ model.name ~ ": tl_filtered_events does not exist yet; build it first (dbt run -s tl_filtered_events, or dbt build, which orders them)") }}
    {%- endif -%}
    {%- set information = relation.information if relation.information is defined and relation.information else none -%}
    {%- if not information or ' |-- ' not in information -%}
        {%- set found = tideline.query_rows("show table extended in " ~ relation.schema ~ " like '" ~ relation.identifier ~ "'") -%}
        {%- set information = found[0][3] if found else '' -%}
    {%- endif -%}
    {%- set schema = {} -%}
    {%- set walk = namespace(path=[]) -%}
    {%- for m in modules.re.finditer('(?m)^ ((?:\|    )*)\|-- (.*?): (.*?) \((?:nullable|containsNull|valueContainsNull) =', information) -%}
        {%- set depth = (m.group(1) | length) // 5 -%}
        {%- set walk.path = walk.path[:depth] + [m.group(2) | lower] -%}
        {%- do schema.update({walk.path | join('.'): m.group(3) | lower}) -%}
    {%- endfor -%}
    {{- return(schema) -}}
{% endmacro %}

{#- The type of a property path (geo_country, contexts_x_1[0].field) in the schema; none when
    the events do not have it. -#}
{% macro property_type(schema, path) %}
    {{- return(schema.get(modules.re.sub('\[[0-9]+\]', '.element', path) | lower)) -}}
{% endmacro %}

{#- Every property and criteria value against the events' columns. -#}
{% macro _check_against_events(view, schema) %}
    {%- if tideline.property_type(schema, view.key) is none -%}
        {{ tideline._view_error(view.where, "attribute_key " ~ view.key ~ " is not a column of the filtered events") }}
    {%- endif -%}
    {%- for a in view.attributes -%}
        {%- if a.property is not none -%}
            {%- set found = tideline.property_type(schema, a.property) -%}
            {%- if found is none -%}
                {{ tideline._view_error(a.where, "property " ~ a.property ~ " is not in the events (no such column or field in tl_filtered_events)") }}
            {%- endif -%}
            {%- set kind = tideline.value_kind(found) -%}
            {%- set fits = kind == 'number' if a.aggregation in ['sum', 'mean'] else (kind != 'complex' and (a.kind in [kind, 'string'])) -%}
            {%- if not fits -%}
                {{ tideline._view_error(a.where, "property " ~ a.property ~ " is " ~ found ~ ", which "
                    ~ ("aggregation " ~ a.aggregation ~ " cannot add up (it needs a number)" if a.aggregation in ['sum', 'mean']
                       else "does not fit the attribute's type " ~ a.declared_type ~ (" (a value must be a single value, not " ~ found ~ ")" if kind == 'complex' else ""))) }}
            {%- endif -%}
        {%- endif -%}
        {%- for c in (a.criteria.values() | first) -%}
            {%- do tideline._criterion_sql(a, c, schema) -%}
        {%- endfor -%}
    {%- endfor -%}
{% endmacro %}

{#- A daily aggregate built from an earlier version of the view keeps other columns: refused
    (a partition overwrite writes the table's own columns). -#}
{% macro _refuse_changed_daily_columns(view) %}
    {%- set existing = adapter.get_relation(database=this.database, schema=this.schema, identifier=this.identifier) -%}
    {%- if existing is none or should_full_refresh() -%}{{ return(none) }}{%- endif -%}
    {%- set have = tideline.cached_columns(existing) or (adapter.get_columns_in_relation(existing) | map(attribute='name') | map('lower') | list) -%}
    {%- set want = ['event_date', view.key] -%}
    {%- for a in view.attributes -%}{%- for part in tideline._daily_parts(a) -%}{%- do want.append(a.name ~ '__' ~ part) -%}{%- endfor -%}{%- endfor -%}
    {%- set have = have | reject('in', ['_tl_batch', '_tl_run']) | list -%}
    {%- if have | sort != want | sort -%}
        {{ tideline._view_error(view.where, "its daily aggregate " ~ this.identifier ~ " was built from another definition of the view (columns added: "
            ~ (want | reject('in', have) | join(', ') or 'none') ~ "; removed: " ~ (have | reject('in', want) | join(', ') or 'none')
            ~ "); rebuild it: dbt run -s " ~ this.identifier ~ " --full-refresh") }}
    {%- endif -%}
{% endmacro %}

{#- The daily parts an aggregation keeps. -#}
{% macro _daily_parts(a) %}
    {{- return({'counter': ['count'], 'sum': ['sum'], 'mean': ['sum', 'count'], 'min': ['min'], 'max': ['max'],
        'first': ['first'], 'last': ['last'], 'unique_list': ['values']}[a.aggregation]) -}}
{% endmacro %}

{#- Which events an attribute counts: one of its events, and its criteria. -#}
{% macro _attribute_events_sql(a, schema) %}
    {%- set events = [] -%}
    {%- for e in a.events -%}
        {%- set parts = ["event_vendor = " ~ tideline.string_list([e.vendor])[1:-1], "event_name = " ~ tideline.string_list([e.name])[1:-1]] -%}
        {%- if e.get('version') is not none -%}{%- do parts.append("event_version = " ~ tideline.string_list([e.version])[1:-1]) -%}{%- endif -%}
        {%- do events.append('(' ~ parts | join(' and ') ~ ')') -%}
    {%- endfor -%}
    {%- set sql = events[0] if events | length == 1 else '(' ~ events | join(' or ') ~ ')' -%}
    {%- set joiner = a.criteria.keys() | first -%}
    {%- set conditions = [] -%}
    {%- for c in a.criteria[joiner] -%}{%- do conditions.append(tideline._criterion_sql(a, c, schema)) -%}{%- endfor -%}
    {%- if conditions -%}
        {%- set sql = sql ~ ' and (' ~ conditions | join(' ' ~ ('and' if joiner == 'all' else 'or') ~ ' ') ~ ')' -%}
    {%- endif -%}
    {{- return(sql) -}}
{% endmacro %}

{#- One criterion as SQL, its value checked against the property's type. `!=` is null-safe: a
    null property is not equal to the value (a plain <> would drop the row). -#}
{% macro _criterion_sql(a, c, schema) %}
    {%- set found = tideline.property_type(schema, c.property) -%}
    {%- set fail = "criterion " ~ c.property ~ " " ~ c.operator ~ ((" " ~ tojson(c.value)) if c.value is not none else "") ~ ": " -%}
    {%- if found is none -%}
        {{ tideline._view_error(a.where, fail ~ "property " ~ c.property ~ " is not in the events (no such column or field in tl_filtered_events)") }}
    {%- endif -%}
    {%- if c.operator == 'is null' or c.operator == 'is not null' -%}
        {{- return(c.property ~ ' ' ~ c.operator) -}}
    {%- endif -%}
    {%- set kind = tideline.value_kind(found) -%}
    {%- set allowed = {'number': ['=', '!=', '<', '<=', '>', '>=', 'in'], 'string': tideline.criteria_operators(),
        'boolean': ['=', '!=', 'in'], 'date': ['=', '!=', '<', '<=', '>', '>=', 'in'], 'timestamp': ['=', '!=', '<', '<=', '>', '>=', 'in']}.get(kind, []) -%}
    {%- if c.operator not in allowed -%}
        {{ tideline._view_error(a.where, fail ~ "operator " ~ c.operator ~ " does not apply to " ~ c.property ~ ", which is " ~ found
            ~ "; accepted: " ~ (allowed + ['is null', 'is not null']) | unique | join(', ')) }}
    {%- endif -%}
    {%- set literals = [] -%}
    {%- for v in (c.value if c.operator == 'in' else [c.value]) -%}
        {%- set literal = tideline._criterion_literal(kind, v) -%}
        {%- if literal is none -%}
            {{ tideline._view_error(a.where, fail ~ "value " ~ tojson(v) ~ " does not fit " ~ c.property ~ ", which is " ~ found
                ~ {'number': ' (a number is needed)', 'string': ' (a string is needed)', 'boolean': ' (true or false is needed)',
                   'date': ' (a date YYYY-MM-DD is needed)', 'timestamp': ' (a time YYYY-MM-DD[ HH:MM[:SS]] is needed)'}[kind]) }}
        {%- endif -%}
        {%- do literals.append(literal) -%}
    {%- endfor -%}
    {%- if c.operator == 'in' -%}{{- return(c.property ~ ' in (' ~ literals | join(', ') ~ ')') -}}{%- endif -%}
    {%- if c.operator == '!=' -%}{{- return('not (' ~ c.property ~ ' <=> ' ~ literals[0] ~ ')') -}}{%- endif -%}
    {{- return(c.property ~ ' ' ~ c.operator ~ ' ' ~ literals[0]) -}}
{% endmacro %}

{#- A value as a SQL literal of the given kind; none when it does not fit. -#}
{% macro _criterion_literal(kind, v) %}
    {%- if kind == 'number' and v is number and v is not boolean -%}{{ return(v | string) }}
    {%- elif kind == 'string' and v is string -%}{{ return(tideline.string_list([v])[1:-1]) }}
    {%- elif kind == 'boolean' and v is boolean -%}{{ return('true' if v else 'false') }}
    {%- elif kind == 'date' and v is string and modules.re.match('^\d{4}-\d{2}-\d{2}$', v) and tideline.parse_utc_time(v) is not none -%}
        {{ return("date'" ~ v ~ "'") }}
    {%- elif kind == 'timestamp' and v is string and tideline.parse_utc_time(v) is not none -%}
        {{ return(tideline.ts(tideline.parse_utc_time(v))) }}
    {%- endif -%}
    {{- return(none) -}}
{% endmacro %}

{#- The daily aggregate's select. -#}
{% macro attribute_view_daily_sql(view, schema) %}
    {%- set parts = [] -%}
    {%- for a in view.attributes -%}
        {%- set events = tideline._attribute_events_sql(a, schema) -%}
        {%- set p = a.property -%}
        {%- if a.aggregation == 'counter' -%}
            {%- do parts.append(['count_if(' ~ events ~ ')', a.name ~ '__count']) -%}
        {%- elif a.aggregation in ['sum', 'mean', 'min', 'max'] -%}
            {%- for part in tideline._daily_parts(a) -%}
                {%- do parts.append([part ~ '(case when ' ~ events ~ ' then ' ~ p ~ ' end)', a.name ~ '__' ~ part]) -%}
            {%- endfor -%}
        {%- elif a.aggregation == 'first' -%}
            {%- do parts.append([tideline.daily_first(p, events) | trim, a.name ~ '__first']) -%}
        {%- elif a.aggregation == 'last' -%}
            {%- do parts.append([tideline.daily_last(p, events) | trim, a.name ~ '__last']) -%}
        {%- else -%}
            {%- do parts.append([tideline.daily_unique_list(p, events) | trim, a.name ~ '__values']) -%}
        {%- endif -%}
    {%- endfor -%}
    {% set sql %}
-- Generated by tideline from the attribute view {{ view.name }} (version {{ view.version }}) declared by model {{ view.model }}:
-- per event date and {{ view.key }}, the day's part of each attribute over the filtered events.
select
    event_date,
    {{ view.key }},
{%- for part in parts %}
    {{ part[0] }} as {{ part[1] }}{{ ',' if not loop.last }}
{%- endfor %}
from {{ tideline.filtered_events() | trim }}
where {{ view.key }} is not null
group by event_date, {{ view.key }}
    {% endset %}
    {{- return(sql | trim) -}}
{% endmacro %}

{#- The attributes table's select: one pass over the daily aggregate. -#}
{% macro attribute_view_attributes_sql(view, daily) %}
    {%- set include = view.include_current_day -%}
    {%- set columns = [] -%}
    {%- for a in view.attributes -%}
        {%- set n = a.days -%}
        {%- set column = a.name ~ '__' ~ (tideline._daily_parts(a) | first) -%}
        {%- if a.aggregation in ['counter', 'sum'] -%}
            {%- set expression = tideline.sum_in_period(column, n, include) -%}
        {%- elif a.aggregation == 'mean' -%}
            {%- set expression = tideline.mean_in_period(a.name ~ '__sum', a.name ~ '__count', n, include) -%}
        {%- elif a.aggregation == 'min' -%}
            {%- set expression = tideline.min_in_period(column, n, include) -%}
        {%- elif a.aggregation == 'max' -%}
            {%- set expression = tideline.max_in_period(column, n, include) -%}
        {%- elif a.aggregation == 'first' -%}
            {%- set expression = tideline.first_in_period(column, n, include) -%}
        {%- elif a.aggregation == 'last' -%}
            {%- set expression = tideline.last_in_period(column, n, include) -%}
        {%- else -%}
            {%- set expression = tideline.unique_list_in_period(column, n, include) -%}
        {%- endif -%}
        {%- do columns.append(['cast(' ~ (expression | trim) ~ ' as ' ~ a.type ~ ')', a.name]) -%}
    {%- endfor -%}
    {%- set dates = tideline.period_dates(none, include) -%}
    {% set sql %}
-- Generated by tideline from the attribute view {{ view.name }} (version {{ view.version }}): per {{ view.key }}, each attribute
-- over its period, as of {{ dates[1] }} ({{ 'the reference day included' if include else 'the day before the reference day' }}), from {{ daily.identifier }}.
select
    {{ view.key }},
{%- for column in columns %}
    {{ column[0] }} as {{ column[1] }}{{ ',' if not loop.last }}
{%- endfor %}
from {{ daily }}
where {{ tideline.in_period(none, include) }}
group by {{ view.key }}
    {% endset %}
    {{- return(sql | trim) -}}
{% endmacro %}

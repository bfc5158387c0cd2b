{#- Attribute views: the definition checked against the filtered events' columns. -#}

{#- The filtered events' columns as {path: type}, nested fields included (arrays' elements as
    <column>.element), from Spark's schema tree of tl_filtered_events: dbt's relation cache
    holds it; one `show table extended` when the cache has none (a relation built in this run). -#}
{% macro filtered_events_schema() %}
    {%- set relation = adapter.get_relation(database=none, schema=target.schema, identifier='tl_filtered_events') -%}
    {%- if relation is none -%}
        {{ exceptions.raise_compiler_error("tideline: daily aggregate {}: tl_filtered_events does not exist yet; build it first (dbt run -s tl_filtered_events, or dbt build, which orders them)".format(model.name)) }}
    {%- endif -%}
    {%- set information = relation.information if relation.information is defined and relation.information else none -%}
    {%- if not information or ' |-- ' not in information -%}
        {% set show_sql %}
            show table extended in {{ relation.schema }} like {{ tideline.literal(relation.identifier) }}
        {% endset %}
        {%- set found = tideline.query_rows(show_sql) -%}
        {%- set information = found[0].information if found else '' -%}
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
        {{ tideline._view_error(view.where, "attribute_key {} is not a column of the filtered events".format(view.key)) }}
    {%- endif -%}
    {%- for a in view.attributes -%}
        {%- if a.property is not none -%}
            {%- set found = tideline.property_type(schema, a.property) -%}
            {%- if found is none -%}
                {{ tideline._view_error(a.where, "property {} is not in the events (no such column or field in tl_filtered_events)".format(a.property)) }}
            {%- endif -%}
            {%- set kind = tideline.value_kind(found) -%}
            {%- set fits = kind == 'number' if a.aggregation in ['sum', 'mean'] else (kind != 'complex' and (a.kind in [kind, 'string'])) -%}
            {%- if not fits and a.aggregation in ['sum', 'mean'] -%}
                {{ tideline._view_error(a.where, "property {} is {}, which aggregation {} cannot add up (it needs a number)".format(a.property, found, a.aggregation)) }}
            {%- elif not fits and kind == 'complex' -%}
                {{ tideline._view_error(a.where, "property {} is {}, which does not fit the attribute's type {} (a value must be a single value, not {})".format(a.property, found, a.declared_type, found)) }}
            {%- elif not fits -%}
                {{ tideline._view_error(a.where, "property {} is {}, which does not fit the attribute's type {}".format(a.property, found, a.declared_type)) }}
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
    {%- set have = tideline.column_names(existing) -%}
    {%- set want = ['event_date', view.key] -%}
    {%- for a in view.attributes -%}{%- for part in tideline._daily_parts(a) -%}{%- do want.append('{}__{}'.format(a.name, part)) -%}{%- endfor -%}{%- endfor -%}
    {%- set have = have | reject('in', ['_tl_batch', '_tl_run']) | list -%}
    {%- if have | sort != want | sort -%}
        {{ tideline._view_error(view.where, "its daily aggregate {table} was built from another definition of the view (columns added: {added}; removed: {removed}); rebuild it: dbt run -s {table} --full-refresh".format(
            table=this.identifier, added=want | reject('in', have) | join(', ') or 'none', removed=have | reject('in', want) | join(', ') or 'none')) }}
    {%- endif -%}
{% endmacro %}

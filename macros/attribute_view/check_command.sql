{#- Attribute views: the fast check, without Spark.

      dbt run-operation tideline.check_attribute_views [--args '{views: [user_signals], columns: {...}}']

    reads every view of the project from dbt's graph (or those named), checks each definition as
    a run does (a view in Signals' form is printed as tideline reads it), and prints the SQL of
    its attributes table; given the filtered events' columns
    (`columns`: {path: Spark type}, nested fields as a.b), it also checks the properties and the
    criteria against them and prints the daily aggregate's SQL. No statement is sent, so dbt
    never opens the Spark session: a few seconds, most of them dbt's parse. -#}
{% macro check_attribute_views(views=none, columns=none) %}
    {%- set found = tideline._declared_attribute_views() -%}
    {%- set wanted = found | map(attribute='name') | list if views is none else views -%}
    {%- if wanted is string or wanted is mapping or wanted is not iterable -%}
        {{ tideline._view_error('check_attribute_views', "views = {} is invalid; accepted: a list of view names ({})".format(tojson(views), found | map(attribute='name') | sort | join(', '))) }}
    {%- endif -%}
    {%- for name in wanted if name not in found | map(attribute='name') | list -%}
        {{ tideline._view_error('check_attribute_views', "there is no attribute view {} (views: {})".format(tojson(name), found | map(attribute='name') | sort | join(', ') or 'none')) }}
    {%- endfor -%}
    {%- set schema = tideline._given_events_columns(columns) -%}
    {%- for f in found if f.name in wanted -%}
        {%- set view = tideline.attribute_view_definition(f.view, f.model) -%}
        {%- if tideline.is_signals_view(f.view) -%}
            {{ log("-- Signals view {} read as tideline's form
{}".format(f.name, toyaml(tideline.signals_view_as_tideline(view.where, f.view), sort_keys=false)), info=true) }}
        {%- endif -%}
        {%- if schema is not none -%}
            {%- do tideline._check_against_events(view, schema) -%}
            {{ log("-- daily aggregate of {}\n{}".format(view.where, tideline.attribute_view_daily_sql(view, schema)), info=true) }}
        {%- endif -%}
        {{ log("-- attributes table of {}\n{}".format(view.where, tideline.attribute_view_attributes_sql(view, api.Relation.create(schema=target.schema, identifier=f.daily))), info=true) }}
        {{ log("tideline: {}: {} attributes checked{}".format(view.where, view.attributes | length,
            "" if schema is not none else " (properties and criteria are checked against tl_filtered_events when its daily aggregate runs, or here with --args '{columns: {...}}')"), info=true) }}
    {%- endfor -%}
{% endmacro %}

{#- Every model of the project with meta.attribute_view: [{name, model, view, daily}], `daily`
    the model whose SQL generates its daily aggregate (by name; `<model>_daily` if none does). -#}
{% macro _declared_attribute_views() %}
    {%- set found = [] -%}
    {%- for node in graph.nodes.values() if node.resource_type == 'model' and (node.config.get('meta') or {}).get('attribute_view') is not none -%}
        {%- set view = node.config.meta.attribute_view -%}
        {%- set daily = namespace(name='{}_daily'.format(node.name)) -%}
        {%- for other in graph.nodes.values() if other.resource_type == 'model' and modules.re.search("attribute_view_daily_aggregate\(\s*['\"]{}['\"]".format(node.name), other.raw_code or '') -%}
            {%- set daily.name = other.name -%}
        {%- endfor -%}
        {%- do found.append({'name': view.name if view is mapping and view.name is string else node.name, 'model': node.name, 'view': view, 'daily': daily.name}) -%}
    {%- endfor -%}
    {{- return(found) -}}
{% endmacro %}

{#- `columns` ({path: Spark type}) as the schema the checks read, or none when not given. -#}
{% macro _given_events_columns(columns) %}
    {%- if columns is none -%}{{ return(none) }}{%- endif -%}
    {%- if columns is not mapping -%}
        {{ tideline._view_error('check_attribute_views', "columns = {} is invalid; accepted: a mapping of the filtered events' column paths to Spark types, e.g. {{domain_userid: string, geo_country: string}}".format(tojson(columns))) }}
    {%- endif -%}
    {%- set schema = {} -%}
    {%- for path, type in columns.items() -%}{%- do schema.update({path | lower: type | string | lower}) -%}{%- endfor -%}
    {{- return(schema) -}}
{% endmacro %}

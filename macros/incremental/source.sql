{#- The events source (models/tideline/sources.yml): what tideline needs of it, checked by the
    on-run-start hook check_source() before anything is written, so that a missing table, a
    missing column or a wrong type is refused in one line that says what to do, instead of a
    Spark error halfway through a run (after the state tables were made). -#}

{#- The columns tideline reads from every event, with their Spark types. app_id and event_name
    are needed when the filters that read them are set, the attribute key when a model uses it. -#}
{% macro required_source_columns() %}
    {%- set required = {
        'event_id': 'string', 'derived_tstamp': 'timestamp', 'load_tstamp': 'timestamp', 'load_date': 'date',
        'dvce_created_tstamp': 'timestamp', 'collector_tstamp': 'timestamp', 'event_fingerprint': 'string'} -%}
    {%- if tideline.var_string_list('tideline__app_id') -%}{%- do required.update({'app_id': 'string'}) -%}{%- endif -%}
    {%- if tideline.var_string_list('tideline__events_to_include') -%}{%- do required.update({'event_name': 'string'}) -%}{%- endif -%}
    {{- return(required) -}}
{% endmacro %}

{#- How to get events into the source, said by every refusal about it. -#}
{% macro load_events_hint() %}
    {{- return("Load events first (make demo loads sample events; python -m tideline_tools.generate --help loads generated ones), or point tideline__events_schema and tideline__events_table at your events table.") -}}
{% endmacro %}

{#- on-run-start: when a selected node reads the events (tl_filtered_events, a daily aggregate,
    an analyst's model on the source), the source must exist with the required columns and
    types, and tideline__attribute_key must be one of its columns. Renders to nothing. -#}
{% macro check_source() %}
    {%- if not execute -%}{{ return('') }}{%- endif -%}
    {%- set node = graph.sources.values() | selectattr('package_name', 'equalto', 'tideline')
        | selectattr('source_name', 'equalto', 'tideline') | selectattr('name', 'equalto', 'events') | first -%}
    {%- if node is undefined or not tideline._reads_source(node.unique_id) or not tideline.events_pipeline_in_use() -%}{{ return('') }}{%- endif -%}
    {%- set relation = api.Relation.create(database=none, schema=node.schema, identifier=node.identifier) -%}
    {%- set found = dict(tideline.source_column_types(relation)) -%}
    {%- if not found -%}
        {{ exceptions.raise_compiler_error("tideline: the events source {} does not exist. {}".format(relation, tideline.load_events_hint())) }}
    {%- endif -%}
    {%- set problems = [] -%}
    {%- for name, type in tideline.required_source_columns().items() -%}
        {%- if name not in found -%}
            {%- do problems.append("{} ({}) is missing".format(name, type)) -%}
        {%- elif found[name] != type -%}
            {%- do problems.append("{} is {}, not {}".format(name, found[name], type)) -%}
        {%- endif -%}
    {%- endfor -%}
    {%- if problems -%}
        {{ exceptions.raise_compiler_error("tideline: the events source {} is not Snowplow-shaped as tideline needs it: {}. {}".format(
            relation, problems | join('; '), tideline.load_events_hint())) }}
    {%- endif -%}
    {%- set key = tideline.var_identifier('tideline__attribute_key') -%}
    {%- if key | lower not in found -%}
        {{ tideline._var_error('tideline__attribute_key', key, "a column of {} (e.g. domain_userid, user_id, network_userid)".format(relation)) }}
    {%- endif -%}
    {{- return('') -}}
{% endmacro %}

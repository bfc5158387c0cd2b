{#- Whether the project uses the time-based pipeline, and what tl_filtered_events leaves when it
    does not (a project that installs tideline for its derivations, continual tasks or
    channels alone builds without disabling tideline's own models). -#}

{#- True unless all of these hold: the root project is not tideline itself; no model, test or
    other node outside the tideline package reads tl_filtered_events or the events source
    (filtered_events(), source_events(), ref or source); and the events source does not exist.
    Where it is false, the events source is checked by nothing and tl_filtered_events builds a
    placeholder (pipeline_placeholder). -#}
{% macro events_pipeline_in_use() %}
    {%- if not execute or project_name == 'tideline' -%}{{ return(true) }}{%- endif -%}
    {%- set node = graph.sources.values() | selectattr('package_name', 'equalto', 'tideline')
        | selectattr('source_name', 'equalto', 'tideline') | selectattr('name', 'equalto', 'events') | first -%}
    {%- set readers = ['model.tideline.tl_filtered_events', node.unique_id if node is defined else ''] -%}
    {%- for other in graph.nodes.values() if other.package_name != 'tideline' -%}
        {%- if other.depends_on.nodes | select('in', readers) | list -%}{{ return(true) }}{%- endif -%}
    {%- endfor -%}
    {%- if node is undefined -%}{{ return(false) }}{%- endif -%}
    {{- return(adapter.get_relation(database=none, schema=node.schema, identifier=node.identifier) is not none) -}}
{% endmacro %}

{#- tl_filtered_events in a project that does not use the pipeline: a view of no rows, in the
    columns its data tests check, created once (a later run with nothing to do sends nothing);
    the first run of a project that uses the pipeline replaces it with the real view. -#}
{% macro pipeline_placeholder(relation) %}
    {%- set existing = adapter.get_relation(database=relation.database, schema=relation.schema, identifier=relation.identifier) -%}
    {%- if existing is none -%}
        {% call statement('placeholder', fetch_result=false) %}
            create view {{ relation }} as
            select
                cast(null as string) as event_id,
                cast(null as date) as event_date,
                cast(null as timestamp) as derived_tstamp,
                cast(null as timestamp) as load_tstamp,
                cast(null as timestamp) as _tl_batch,
                cast(null as string) as _tl_run
            where false
        {% endcall %}
    {%- endif -%}
    {{ log("tideline {}: not built: no model of this project reads the events (tl_filtered_events, filtered_events() or source_events()) and the events source does not exist; {} is a view of no rows until one does".format(relation.identifier, relation), info=true) }}
{% endmacro %}

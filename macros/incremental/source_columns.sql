{#- The events source's columns, and whether a model reads the source. -#}

{#- The source's columns as [[name, type], ...] (lower case), [] when the table does not exist.
    One describe; dbt-spark answers [] for a missing table or schema. -#}
{% macro source_column_types(relation) %}
    {%- set columns = [] -%}
    {%- for c in adapter.get_columns_in_relation(relation) -%}
        {%- do columns.append([c.name | lower, c.dtype | lower]) -%}
    {%- endfor -%}
    {{- return(columns) -}}
{% endmacro %}

{#- The source's column names, for a model that reads it (events_this_run); refuses a missing
    table with the hint, so that `dbt compile` before any load says what to do too, except in a
    project that does not use the pipeline (events_pipeline_in_use), where tl_filtered_events
    renders over the required columns and its materialization builds a placeholder. -#}
{% macro source_columns(relation) %}
    {%- set columns = tideline.source_column_types(relation) | map('first') | list -%}
    {%- if not columns and not tideline.events_pipeline_in_use() -%}
        {{- return(tideline.required_source_columns().keys() | list) -}}
    {%- endif -%}
    {%- if not columns -%}
        {{ exceptions.raise_compiler_error("tideline: the events source {} does not exist. {}".format(relation, tideline.load_events_hint())) }}
    {%- endif -%}
    {{- return(columns) -}}
{% endmacro %}

{#- Whether a selected node reads the events source, directly or through other models: a walk
    up from the selected nodes through depends_on, each node visited once. -#}
{% macro _reads_source(source_uid) %}
    {%- set to_visit = selected_resources | list -%}
    {%- set seen = {} -%}
    {%- for _ in range(10000) if to_visit -%}
        {%- set uid = to_visit.pop() -%}
        {%- if uid == source_uid -%}{{ return(true) }}{%- endif -%}
        {%- if uid not in seen and uid in graph.nodes -%}
            {%- do seen.update({uid: true}) -%}
            {%- do to_visit.extend(graph.nodes[uid].depends_on.nodes) -%}
        {%- endif -%}
    {%- endfor -%}
    {{- return(false) -}}
{% endmacro %}

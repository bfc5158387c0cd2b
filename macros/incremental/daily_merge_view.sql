{#- Daily aggregates, merge path: the model's view over its parts, and what it records. -#}

{#- The model's columns, from its parts table's: every column but the commit columns. -#}
{% macro _merge_columns(table_columns) %}
    {%- set columns = [] -%}
    {%- for name in table_columns if name | lower not in ['_tl_batch', '_tl_run'] -%}{%- do columns.append({'name': name | lower}) -%}{%- endfor -%}
    {{- return(columns) -}}
{% endmacro %}

{#- The view's select: the committed parts merged (`pending_run`: a rebuild's, see
    committed_runs_sql). -#}
{% macro _merge_view_sql(model_name, data, measures, pending_run) %}
    {%- set table_columns = tideline.column_names(data) -%}
    {{- return(tideline.merged_parts_sql(data, tideline._merge_columns(table_columns), measures, tideline.committed_runs_sql(model_name, pending_run=pending_run))) -}}
{% endmacro %}

{#- The view's properties: the measures its parts were made with. -#}
{% macro _merge_view_properties(measures) %}
    {%- set names = [] -%}
    {%- for column in measures | sort -%}{%- do names.append('{}:{}'.format(column, measures[column])) -%}{%- endfor -%}
    {{- return({'tideline.measures': names | join(',')}) -}}
{% endmacro %}

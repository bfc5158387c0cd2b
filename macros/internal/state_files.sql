{#- The files of a model's state, counted by its state query (contract 3), and the columns
    dbt's relation cache already knows. -#}

{#- The column of tl_state that names each row's file: Spark's file metadata for parquet and
    delta, Iceberg's metadata column for iceberg. -#}
{% macro state_file_column() -%}
    {{- '_file' if tideline.state_file_format() == 'iceberg' else '_metadata.file_path' -}}
{%- endmacro %}

{#- The number of files of a model's state, as an aggregate a state query adds to its select
    list (over rows of tl_state that include the model's run rows). `file`: the file column,
    state_file_column() read from tl_state itself (a subquery passes it on under a name). -#}
{% macro state_files_sql(model_name, file=none) -%}
    size(collect_set(case when model = '{{ model_name }}' then {{ file or tideline.state_file_column() }} end))
{%- endmacro %}

{#- The columns of a cached relation, from the information dbt's relation cache already holds
    (no statement); none when the cache has no column list for it. -#}
{% macro cached_columns(relation) %}
    {%- set information = relation.information if relation is not none and relation.information is defined else none -%}
    {%- if not information -%}{{ return(none) }}{%- endif -%}
    {%- set columns = [] -%}
    {%- for m in modules.re.finditer('(?m)^ \|-- (.*?): (.*?) \(nullable', information) -%}
        {%- do columns.append(m.group(1) | lower) -%}
    {%- endfor -%}
    {{- return(columns or none) -}}
{% endmacro %}

{#- A relation's column names in lower case: from dbt's relation cache when it holds them
    (cached_columns, no statement), else one `describe` (get_columns_in_relation). -#}
{% macro column_names(relation) %}
    {{- return(tideline.cached_columns(relation) or (adapter.get_columns_in_relation(relation) | map(attribute='name') | map('lower') | list)) -}}
{% endmacro %}

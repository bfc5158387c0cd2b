{#- The format a table has, and a table of another format than configured refused. -#}

{#- The format of an existing table, from dbt's relation cache (dbt-spark reads the provider). -#}
{% macro relation_file_format(relation) %}
    {%- if relation.is_delta -%}{{ return('delta') }}{%- endif -%}
    {%- if relation.is_iceberg -%}{{ return('iceberg') }}{%- endif -%}
    {%- if relation.is_hudi -%}{{ return('hudi') }}{%- endif -%}
    {{- return('parquet') -}}
{% endmacro %}

{#- A table of a model in another format than configured is refused (before anything is
    written), unless the run rebuilds it: `--full-refresh` converts it. -#}
{% macro refuse_other_file_format(model_name, existing, wanted) %}
    {%- if existing is none or existing.type == 'view' -%}{{ return(none) }}{%- endif -%}
    {%- set found = tideline.relation_file_format(existing) -%}
    {%- if found != wanted -%}
        {{ exceptions.raise_compiler_error("tideline: model {name}: table {table} is {found}, the model's file_format is {wanted}; nothing was written. Convert it with dbt run --full-refresh --select {name} (the old table stays readable until the new one replaces it), or set file_format: {found}".format(
            name=model_name, table=existing, found=found, wanted=wanted)) }}
    {%- endif -%}
{% endmacro %}

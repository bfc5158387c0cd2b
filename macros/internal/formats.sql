{#- Table formats. dbt's own `file_format` config chooses the format of the tables a tideline
    model creates; the var tideline__state_file_format that of the schema's shared state table
    tl_state. Each operation whose SQL differs by format is one named strategy, looked up with
    adapter.dispatch('<operation>_<format>', 'tideline') (the name written out: dbt reads
    dispatch names statically), so a project can override one
    (`dispatch: [{macro_namespace: tideline, search_order: [<project>, tideline]}]`):

      operation          parquet                                   delta
      replace_table      build <name>__tl_new, drop, rename        create or replace table (one commit)
      delete_dates       alter table ... drop partition            delete from ... where <date> in (...)
      forget_state       insert overwrite of the model's partition  delete from tl_state where model = ...
      compact_state      copy to another folder, set location      optimize tl_state where model = ...
      drop_generations   alter table ... drop partition            delete from ... where tl_gen in (...)
      maintain_table     nothing                                   optimize, vacuum (maintenance.sql)
-#}

{#- The formats a tideline table may have. -#}
{% macro file_formats() %}
    {{- return(['parquet', 'delta', 'iceberg']) -}}
{% endmacro %}

{#- The validated format of a model's tables (its `file_format` config, default parquet);
    `value` for a format given some other way. -#}
{% macro model_file_format(model_name, value=none) %}
    {%- set format = value if value is not none else config.get('file_format', 'parquet') -%}
    {%- if format is not string or format | lower not in tideline.file_formats() -%}
        {{ exceptions.raise_compiler_error("tideline: model " ~ model_name ~ ": file_format = " ~ (format | tojson)
            ~ " is invalid; accepted: " ~ tideline.file_formats() | join(', ')) }}
    {%- endif -%}
    {{- return(format | lower) -}}
{% endmacro %}

{#- The format of tl_state: the var tideline__state_file_format. -#}
{% macro state_file_format() %}
    {%- set value = tideline.tl_var('tideline__state_file_format') -%}
    {%- if value is not string or value | lower not in tideline.file_formats() -%}
        {{ tideline._var_error('tideline__state_file_format', value, tideline.file_formats() | join(', ')) }}
    {%- endif -%}
    {{- return(value | lower) -}}
{% endmacro %}

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
        {{ exceptions.raise_compiler_error("tideline: model " ~ model_name ~ ": table " ~ existing ~ " is " ~ found
            ~ ", the model's file_format is " ~ wanted ~ "; nothing was written. Convert it with dbt run --full-refresh --select "
            ~ model_name ~ " (the old table stays readable until the new one replaces it), or set file_format: " ~ found) }}
    {%- endif -%}
{% endmacro %}


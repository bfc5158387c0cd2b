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
        {{ exceptions.raise_compiler_error("tideline: model {}: file_format = {} is invalid; accepted: {}".format(
            model_name, format | tojson, tideline.file_formats() | join(', '))) }}
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

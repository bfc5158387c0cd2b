{#- Where a model's table is stored, exposed and converted between formats. -#}

{#- A model stored as a table in parquet and delta is read through a view of its Iceberg table
    in iceberg: create it when the model's relation is not that view yet (a first build; a
    --full-refresh that converted a parquet or Delta table, which it replaces). Returns the
    relation dbt should know the model by. -#}
{% macro expose_stored_table(relation, stored, format) %}
    {%- if format != 'iceberg' -%}{{ return(relation.incorporate(type='table')) }}{%- endif -%}
    {%- set view = relation.incorporate(type='view') -%}
    {%- set existing = adapter.get_relation(database=none, schema=relation.schema, identifier=relation.identifier) -%}
    {%- if existing is not none and existing.type == 'view' -%}{{ return(view) }}{%- endif -%}
    {%- if existing is not none -%}{%- do adapter.drop_relation(existing) -%}{%- endif -%}
    {% call statement('expose_stored_table', fetch_result=false) %}
        create or replace view {{ view }} as
        select * from {{ stored }}
    {% endcall %}
    {{- return(view) -}}
{% endmacro %}

{#- The storage of a model that is a table in parquet and delta (a daily aggregate, a
    tideline_table): {'table': the stored table, 'existing': it if it exists, else none,
    'converts': whether this run converts the model from another storage (drop_converted_table
    after its build)}. The
    model's relation in spark_catalog must be what its format makes it (a table; a view of the
    Iceberg table for iceberg): another one is refused before anything is written, unless the
    run rebuilds the model (`--full-refresh` converts it). -#}
{% macro table_model_storage(relation, format, full_refresh) %}
    {%- set found = adapter.get_relation(database=none, schema=relation.schema, identifier=relation.identifier) -%}
    {%- set wanted_type = 'view' if format == 'iceberg' else 'table' -%}
    {%- if found is not none and found.type != wanted_type and not full_refresh -%}
        {%- set what = " (of {})".format(tideline.relation_file_format(found)) if found.type == 'table' else " (the view of an Iceberg table?)" -%}
        {{ exceptions.raise_compiler_error("tideline: model {name}: {found} is a {type}{what}, the model's file_format {format} makes it a {wanted}; nothing was written. Convert it with dbt run --full-refresh --select {name}, or set file_format back.".format(
            name=relation.identifier, found=found, type=found.type, what=what, format=format, wanted=wanted_type)) }}
    {%- endif -%}
    {%- set existing = found if format != 'iceberg' else tideline.find_stored_table(relation, format) -%}
    {{- return({'table': tideline.stored_relation(relation, format), 'existing': existing,
                'converts': found is not none and found.type != wanted_type}) -}}
{% endmacro %}

{#- After a rebuild that converted a model's table has committed (its file_format changed), the
    table of the same name in the other storage is dropped: for iceberg the parquet or Delta table
    of spark_catalog (dbt's cache: no statement when there is none), for parquet and delta the
    Iceberg table of the same name, if any (`drop table if exists`; nothing when the session has
    no Iceberg catalog). Call it on rebuilds only. Readers left it at the commit; until then they
    read it. -#}
{% macro drop_converted_table(relation, format) %}
    {%- if format != 'iceberg' -%}
        {%- if tideline.iceberg_catalog_configured() -%}
            {% call statement('drop_converted_table', fetch_result=false) %}
                drop table if exists {{ tideline.stored_relation(relation, 'iceberg') }}
            {% endcall %}
        {%- endif -%}
        {{- return(none) -}}
    {%- endif -%}
    {%- set cached = adapter.get_relation(database=none, schema=tideline.unstored_schema(relation), identifier=relation.identifier) -%}
    {%- if cached is not none and cached.type == 'table' -%}{%- do adapter.drop_relation(cached) -%}{%- endif -%}
{% endmacro %}

{#- The file format of another model of the project, by name (its `file_format` config; parquet,
    dbt-spark's default, when it has none): where a model that reads it finds its tables. -#}
{% macro node_file_format(model_name) %}
    {%- if not execute -%}{{ return('parquet') }}{%- endif -%}
    {%- for node in graph.nodes.values() if node.resource_type == 'model' and node.name == model_name -%}
        {{- return((node.config.file_format or 'parquet') | lower) -}}
    {%- endfor -%}
    {{- return('parquet') -}}
{% endmacro %}

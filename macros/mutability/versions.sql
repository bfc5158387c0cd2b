{#- A mutability model's version tables: the model is a view of its newest version table
    `<model>__tl_v<N>`, which carries the model's tideline.* properties; a rebuild builds the next
    version and swaps the view to it (build_and_swap). -#}

{#- tideline.* TBLPROPERTIES of a model ({} when it does not exist): those of the version table
    its view points at, so the one `alter view` that swaps the rows swaps them too. `holder`:
    that table when the caller has found it already (_rows_table), saving a `describe`. -#}
{% macro mutability_properties(relation, holder=none) %}
    {%- set holder = holder or tideline._rows_table(relation) -%}
    {%- if holder is none -%}{{ return({}) }}{%- endif -%}
    {%- set props = {} -%}
    {%- for row in tideline.query_rows('show tblproperties ' ~ holder) if (row[0] | string).startswith('tideline.') -%}
        {%- do props.update({row[0][9:]: row[1]}) -%}
    {%- endfor -%}
    {{- return(props) -}}
{% endmacro %}

{#- The table that holds a model's rows: for a view, the version table `<model>__tl_v<N>` it
    selects from (none for a view tideline did not make); a table is its own. -#}
{% macro _rows_table(relation) %}
    {%- if relation is none -%}{{ return(none) }}{%- endif -%}
    {{- return(tideline._view_version_table(relation) if relation.type == 'view' else relation) -}}
{% endmacro %}

{#- The version table `<model>__tl_v<N>` a model's view selects from (none for another view). -#}
{% macro _view_version_table(view) %}
    {%- for row in tideline.query_rows('describe table extended ' ~ view) if row[0] == 'View Text' -%}
        {%- set text = row[1] | trim -%}
        {%- set found = modules.re.search('`?' ~ view.identifier ~ '__tl_v([0-9]+)`?\\s*$', text) -%}
        {%- set in_iceberg = (tideline.iceberg_catalog() ~ '.') in text -%}
        {%- if found -%}{{ return(tideline._version_table(view, found.group(1) | int, 'iceberg' if in_iceberg else 'parquet')) }}{%- endif -%}
    {%- endfor -%}
    {{- return(none) -}}
{% endmacro %}

{#- The version table N of a model: stored as the model's file format makes it (storage.sql),
    or `format` (that of a version table a view already selects from). -#}
{% macro _version_table(relation, version, format=none) %}
    {%- set table = relation.incorporate(path={'identifier': relation.identifier ~ '__tl_v' ~ version}, type='table') -%}
    {{- return(tideline.stored_relation(table, format or tideline.model_file_format(model.name))) -}}
{% endmacro %}

{#- The model's properties as tideline.* table properties (with those of `format`, for a create). -#}
{% macro _properties_sql(props, format=none) %}
    {%- set named = {} -%}
    {%- for k, v in props.items() -%}{%- do named.update({'tideline.' ~ k: v}) -%}{%- endfor -%}
    {{- return(tideline.table_properties_sql(format, named)) -}}
{% endmacro %}

{#- Build the model into a new version table that carries the properties, then point the
    model's view at it with one `alter view` (one metastore update; `create or replace view` is a
    drop and a create in Spark, with a moment of no view between them): a reader sees the old
    rows or the new, never an empty or partial table or no table. The previous version is kept
    for readers still scanning it; the one before is dropped. Returns the number of rows built. -#}
{% macro build_and_swap(relation, existing, model_sql, props, partition_by=none) %}
    {%- set old = tideline.mutability_properties(existing) -%}
    {%- set version = (old.get('version') or 0) | int + 1 -%}
    {%- set built = tideline._version_table(relation, version) -%}
    {#- each version names its format and that of the version before it, so that the version
        dropped two builds later is found where it is stored after a file_format change -#}
    {%- do props.update({'version': version, 'format': tideline.model_file_format(model.name),
                         'previous_format': old.get('format') or tideline.model_file_format(model.name)}) -%}
    {%- do tideline.exec('drop table if exists ' ~ built) -%}
    {%- do tideline.exec('create table ' ~ built ~ ' using ' ~ tideline.model_file_format(model.name) ~ ' ' ~ ('partitioned by (' ~ partition_by ~ ') ' if partition_by else '')
        ~ tideline._properties_sql(props, tideline.model_file_format(model.name)) ~ ' as ' ~ model_sql) -%}
    {%- do tideline.checkpoint(model.name, 'built') -%}
    {%- if existing is not none and existing.type == 'view' -%}
        {%- do tideline.exec('alter view ' ~ relation ~ ' as select * from ' ~ built) -%}
    {%- else -%}
        {%- if existing is not none -%}
            {#- a table left by another materialization: replaced once, not atomically -#}
            {%- do tideline.exec('drop table if exists ' ~ existing) -%}
        {%- endif -%}
        {%- do tideline.exec('create view ' ~ relation ~ ' as select * from ' ~ built) -%}
    {%- endif -%}
    {%- do tideline.checkpoint(model.name, 'swapped') -%}
    {%- if version > 2 -%}
        {%- do tideline.exec('drop table if exists ' ~ tideline._version_table(relation, version - 2, old.get('previous_format'))) -%}
    {%- endif -%}
    {{- return(tideline.query_rows('select count(*) from ' ~ built)[0][0] | int) -}}
{% endmacro %}

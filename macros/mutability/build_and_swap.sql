{#- A mutability model's next version built and swapped in. -#}

{#- The model's properties as tideline.* table properties (with those of `format`, for a create). -#}
{% macro _properties_sql(props, format=none) %}
    {%- set named = {} -%}
    {%- for k, v in props.items() -%}{%- do named.update({'tideline.{}'.format(k): v}) -%}{%- endfor -%}
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
    {%- set format = tideline.model_file_format(model.name) -%}
    {%- do tideline.exec('drop table if exists {}'.format(built)) -%}
    {% set create_sql %}
        create table {{ built }}
        using {{ format }}
        {%- if partition_by %} partitioned by ({{ partition_by }}){% endif %}
        {{ tideline._properties_sql(props, format) }}
        as {{ model_sql }}
    {% endset %}
    {%- do tideline.exec(create_sql) -%}
    {%- do tideline.checkpoint(model.name, 'built') -%}
    {%- if existing is not none and existing.type == 'view' -%}
        {%- do tideline.exec('alter view {} as select * from {}'.format(relation, built)) -%}
    {%- else -%}
        {%- if existing is not none -%}
            {#- a table left by another materialization: replaced once, not atomically -#}
            {%- do tideline.exec('drop table if exists {}'.format(existing)) -%}
        {%- endif -%}
        {%- do tideline.exec('create view {} as select * from {}'.format(relation, built)) -%}
    {%- endif -%}
    {%- do tideline.checkpoint(model.name, 'swapped') -%}
    {%- if version > 2 -%}
        {%- do tideline.exec('drop table if exists {}'.format(tideline._version_table(relation, version - 2, old.get('previous_format')))) -%}
    {%- endif -%}
    {%- set count_sql -%}select count(*) as written from {{ built }}{%- endset -%}
    {{- return(tideline.query_rows(count_sql)[0].written | int) -}}
{% endmacro %}

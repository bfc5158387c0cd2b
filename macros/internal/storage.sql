{#- Where a table of each format is stored. Delta Lake owns spark_catalog (the Hive metastore),
    so parquet and Delta tables are stored where dbt names them: <schema>.<name>. Iceberg tables
    live in their own catalog, the var tideline__iceberg_catalog (default tideline_iceberg, a
    hadoop catalog in the project's profile), in the namespace of the model's schema:
    <catalog>.<schema>.<name>. What dbt and analysts read stays in spark_catalog: a model whose
    readers already read a view (filtered events, derivations, continual tasks) has its view
    select from the Iceberg table; a model that is a table in the other formats (a daily
    aggregate, a tideline_table, a channel's items, a mutability version) becomes a view of
    its Iceberg table, of the same name. Every statement that writes names the stored table. -#}

{#- The relation that holds the rows of `relation` (a table of the model's schema and name) in
    `format`: the relation itself for parquet and delta, the Iceberg catalog's table for iceberg. -#}
{% macro stored_relation(relation, format) %}
    {%- if format != 'iceberg' -%}
        {{- return(relation.incorporate(type='table')) -}}
    {%- endif -%}
    {{- return(api.Relation.create(schema='{}.{}'.format(tideline.iceberg_catalog(), tideline.unstored_schema(relation)),
                                   identifier=relation.identifier, type='table', is_iceberg=true)) -}}
{% endmacro %}

{#- The spark_catalog schema of a relation, stored or not. -#}
{% macro unstored_schema(relation) %}
    {{- return(relation.schema.split('.')[-1]) -}}
{% endmacro %}

{#- The stored table of `relation` in `format` if it exists, else none: dbt's relation cache for
    parquet and delta (no statement); one `show tables` of the schema's Iceberg namespace for
    iceberg (the namespace is created at run start, ensure_iceberg_namespaces). Unless
    `full_refresh`, a table of the same name in the other storage (the model's file_format
    changed) is refused with the fix, as refuse_other_file_format does: for iceberg a parquet or
    Delta table in spark_catalog; for parquet and delta, when there is no table in spark_catalog,
    the Iceberg table the model's view reads (find_iceberg_table). -#}
{% macro find_stored_table(relation, format, full_refresh=true) %}
    {%- set stored = tideline.stored_relation(relation, format) -%}
    {%- set cached = adapter.get_relation(database=none, schema=tideline.unstored_schema(relation), identifier=relation.identifier) -%}
    {%- if format != 'iceberg' -%}
        {%- if cached is none and not full_refresh -%}
            {%- do tideline.refuse_other_file_format(model.name, tideline.find_iceberg_table(relation), format) -%}
        {%- endif -%}
        {{- return(cached) -}}
    {%- endif -%}
    {%- if cached is not none and not full_refresh -%}
        {#- the table of a parquet or Delta model, whose file_format became iceberg -#}
        {%- do tideline.refuse_other_file_format(model.name, cached, format) -%}
    {%- endif -%}
    {% set sql %}
        show tables in {{ stored.schema }} like '{{ stored.identifier }}'
    {% endset %}
    {%- set found = run_query(sql).rows | selectattr('tableName', 'equalto', stored.identifier) | list -%}
    {{- return(stored if found else none) -}}
{% endmacro %}

{#- The Iceberg table of the same schema and name as `relation` that the model's view (`this`)
    reads, else none: what a model whose file_format went from iceberg back to parquet or delta
    left. One `describe` of the view (its text names the table it reads); nothing is sent when
    the model is not a view or the session has no Iceberg catalog. -#}
{% macro find_iceberg_table(relation) %}
    {%- set view = adapter.get_relation(database=none, schema=tideline.unstored_schema(relation), identifier=model.name) -%}
    {%- if view is none or view.type != 'view' or not tideline.iceberg_catalog_configured() -%}
        {{- return(none) -}}
    {%- endif -%}
    {%- set stored = tideline.stored_relation(relation, 'iceberg') -%}
    {% set sql %}
        describe table extended {{ view }}
    {% endset %}
    {%- for row in run_query(sql).rows if row['col_name'] == 'View Text' -%}
        {%- if (stored | string | lower) in (row['data_type'] | replace('`', '') | lower) -%}{{ return(stored) }}{%- endif -%}
    {%- endfor -%}
    {{- return(none) -}}
{% endmacro %}

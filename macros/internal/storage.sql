{#- Where a table of each format is stored. Delta Lake owns spark_catalog (the Hive metastore),
    so parquet and Delta tables are stored where dbt names them: <schema>.<name>. Iceberg tables
    live in their own catalog, the var tideline__iceberg_catalog (default tideline_iceberg, a
    hadoop catalog in the project's profile), in the namespace of the model's schema:
    <catalog>.<schema>.<name>. What dbt and analysts read stays in spark_catalog: a model whose
    readers already read a view (filtered events, derivations, continual tasks) has its view
    select from the Iceberg table; a model that is a table in the other formats (a daily
    aggregate, a tideline_table, a channel's items, a mutability version) becomes a view of
    its Iceberg table, of the same name. Every statement that writes names the stored table. -#}

{#- The Iceberg catalog tideline writes to: the var tideline__iceberg_catalog. -#}
{% macro iceberg_catalog() %}
    {{- return(tideline.var_identifier('tideline__iceberg_catalog')) -}}
{% endmacro %}

{#- The relation that holds the rows of `relation` (a table of the model's schema and name) in
    `format`: the relation itself for parquet and delta, the Iceberg catalog's table for iceberg. -#}
{% macro stored_relation(relation, format) %}
    {%- if format != 'iceberg' -%}
        {{- return(relation.incorporate(type='table')) -}}
    {%- endif -%}
    {{- return(api.Relation.create(schema=tideline.iceberg_catalog() ~ '.' ~ tideline.unstored_schema(relation),
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

{#- Whether the session has the Iceberg catalog tideline writes to (it is stated: a catalog is a
    static setting). -#}
{% macro iceberg_catalog_configured() %}
    {{- return(('spark.sql.catalog.' ~ tideline.iceberg_catalog()) in tideline.stated_session_settings()) -}}
{% endmacro %}

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

{#- The schemas (of this invocation's models and tl_state) whose tables are Iceberg tables. -#}
{% macro iceberg_schemas() %}
    {%- set schemas = [] -%}
    {%- if tideline.state_file_format() == 'iceberg' -%}{%- do schemas.append(target.schema) -%}{%- endif -%}
    {%- for node in graph.nodes.values() if node.resource_type == 'model' and (node.config.file_format or '') | lower == 'iceberg' -%}
        {%- if node.schema not in schemas -%}{%- do schemas.append(node.schema) -%}{%- endif -%}
    {%- endfor -%}
    {{- return(schemas) -}}
{% endmacro %}

{#- on-run-start: the Iceberg catalog is configured (refused by name otherwise) and holds a
    namespace for each schema of an Iceberg model. Sends nothing when no model is Iceberg. -#}
{% macro ensure_iceberg_namespaces() %}
    {%- set schemas = tideline.iceberg_schemas() -%}
    {%- if not schemas -%}{{ return(none) }}{%- endif -%}
    {%- set stated = tideline.stated_session_settings() -%}
    {%- set key = 'spark.sql.catalog.' ~ tideline.iceberg_catalog() -%}
    {%- if key not in stated -%}
        {{ exceptions.raise_compiler_error("tideline: this run was refused before writing anything: models of schema "
            ~ schemas | join(', ') ~ " are Iceberg tables (file_format: iceberg), and the Spark session has no catalog "
            ~ tideline.iceberg_catalog() ~ " (" ~ key ~ " is not set). Fix: configure it in your profile's server_side_parameters ("
            ~ key ~ ": org.apache.iceberg.spark.SparkCatalog, with its type and warehouse; see profiles/profiles.yml), or set"
            ~ " the var tideline__iceberg_catalog to the Iceberg catalog you have.") }}
    {%- endif -%}
    {%- for schema in schemas -%}
        {% call statement('create_iceberg_namespace', fetch_result=false) %}
            create namespace if not exists {{ tideline.iceberg_catalog() }}.{{ schema }}
        {% endcall %}
    {%- endfor -%}
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
        {{ exceptions.raise_compiler_error("tideline: model " ~ relation.identifier ~ ": " ~ found ~ " is a " ~ found.type
            ~ (" (of " ~ tideline.relation_file_format(found) ~ ")" if found.type == 'table' else " (the view of an Iceberg table?)")
            ~ ", the model's file_format " ~ format ~ " makes it a " ~ wanted_type ~ "; nothing was written. Convert it with dbt run --full-refresh --select "
            ~ relation.identifier ~ ", or set file_format back.") }}
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

{#- The table properties tideline gives every table it creates in `format`, as {name: value}:
    for iceberg, each commit deletes the table's metadata files beyond the newest 100 (Iceberg
    keeps every one by default: an hourly model would gather 8,760 a year). -#}
{% macro format_table_properties(format) %}
    {%- if format != 'iceberg' -%}{{ return({}) }}{%- endif -%}
    {{- return({'write.metadata.delete-after-commit.enabled': 'true', 'write.metadata.previous-versions-max': '100'}) -}}
{% endmacro %}

{#- format_table_properties(format) (and `extra`) as a `tblproperties (...)` clause, or nothing. -#}
{% macro table_properties_sql(format, extra={}) %}
    {%- set props = tideline.format_table_properties(format) -%}
    {%- do props.update(extra) -%}
    {%- if not props -%}{{ return('') }}{%- endif -%}
    {%- set items = [] -%}
    {%- for k, v in props.items() -%}{%- do items.append(tideline.string_list([k])[1:-1] ~ ' = ' ~ tideline.string_list([v | string])[1:-1]) -%}{%- endfor -%}
    {{- return('tblproperties (' ~ items | join(', ') ~ ')') -}}
{% endmacro %}

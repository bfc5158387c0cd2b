{#- Iceberg: the catalog tideline's Iceberg tables live in, checked, and its namespaces. -#}

{#- The Iceberg catalog tideline writes to: the var tideline__iceberg_catalog. -#}
{% macro iceberg_catalog() %}
    {{- return(tideline.var_identifier('tideline__iceberg_catalog')) -}}
{% endmacro %}

{#- Whether the session has the Iceberg catalog tideline writes to (it is stated: a catalog is a
    static setting). One `set <key>`: Spark answers `<undefined>` for a key nothing states. -#}
{% macro iceberg_catalog_configured() %}
    {{- return(tideline.session_setting('spark.sql.catalog.{}'.format(tideline.iceberg_catalog())) != '<undefined>') -}}
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
    {%- set key = 'spark.sql.catalog.{}'.format(tideline.iceberg_catalog()) -%}
    {%- if key not in stated -%}
        {{ exceptions.raise_compiler_error("tideline: this run was refused before writing anything: models of schema {schemas} are Iceberg tables (file_format: iceberg), and the Spark session has no catalog {catalog} ({key} is not set). Fix: configure it in your profile's server_side_parameters ({key}: org.apache.iceberg.spark.SparkCatalog, with its type and warehouse; see profiles/profiles.yml), or set the var tideline__iceberg_catalog to the Iceberg catalog you have.".format(
            schemas=schemas | join(', '), catalog=tideline.iceberg_catalog(), key=key)) }}
    {%- endif -%}
    {%- for schema in schemas -%}
        {% call statement('create_iceberg_namespace', fetch_result=false) %}
            create namespace if not exists {{ tideline.iceberg_catalog() }}.{{ schema }}
        {% endcall %}
    {%- endfor -%}
{% endmacro %}

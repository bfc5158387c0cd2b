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
    {%- for row in tideline.query_rows('show tblproperties {}'.format(holder)) if (row['key'] | string).startswith('tideline.') -%}
        {%- do props.update({row['key'][9:]: row['value']}) -%}
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
    {%- for row in tideline.query_rows('describe table extended {}'.format(view)) if row.col_name == 'View Text' -%}
        {%- set text = row.data_type | trim -%}
        {%- set found = modules.re.search('`?{}__tl_v([0-9]+)`?\\s*$'.format(view.identifier), text) -%}
        {%- set in_iceberg = '{}.'.format(tideline.iceberg_catalog()) in text -%}
        {%- if found -%}{{ return(tideline._version_table(view, found.group(1) | int, 'iceberg' if in_iceberg else 'parquet')) }}{%- endif -%}
    {%- endfor -%}
    {{- return(none) -}}
{% endmacro %}

{#- The version table N of a model: stored as the model's file format makes it (storage.sql),
    or `format` (that of a version table a view already selects from). -#}
{% macro _version_table(relation, version, format=none) %}
    {%- set table = relation.incorporate(path={'identifier': '{}__tl_v{}'.format(relation.identifier, version)}, type='table') -%}
    {{- return(tideline.stored_relation(table, format or tideline.model_file_format(model.name))) -}}
{% endmacro %}

{#- tl_state and its views, made on-run-start; a state of an earlier layout migrated, any other refused. -#}

{#- on-run-start: create tl_state and its views when missing, migrate a state table of an
    earlier version's layout (earlier_state.sql), and refuse any other: a state table with other
    columns or of another format (or a state table of the layout before tl_state, where the
    views are now) stops the run before anything is written, naming the table, its columns and
    the fix. With everything in place it sends no statement: dbt's relation cache already
    knows the tables and columns. -#}
{% macro ensure_state_tables() %}
    {%- if not execute -%}{{ return('') }}{%- endif -%}
    {#- checks first, so that a refused run has created nothing -#}
    {%- do tideline.ensure_iceberg_namespaces() -%}
    {%- set relation = adapter.get_relation(database=none, schema=target.schema, identifier='tl_state') -%}
    {%- if tideline.state_file_format() == 'iceberg' and relation is none -%}
        {%- set relation = tideline.find_stored_table(api.Relation.create(schema=target.schema, identifier='tl_state'), 'iceberg') -%}
    {%- endif -%}
    {%- set found = tideline._state_table_columns(relation) if relation is not none else none -%}
    {%- if relation is not none -%}{%- do tideline._refuse_other_state_table(relation, found) -%}{%- endif -%}
    {%- set missing_views = tideline._missing_state_views() -%}
    {%- do tideline.refuse_partial_full_refresh() -%}
    {%- if relation is not none -%}{%- do tideline.refuse_now_before_watermarks() -%}{%- endif -%}
    {%- if relation is not none and found != tideline.state_columns() | map('first') | list -%}
        {%- do tideline.migrate_state_table(found) -%}   {#- an earlier layout (state_migration.sql) #}
    {%- endif -%}
    {%- if relation is none -%}{%- do tideline._create_state_table() -%}{%- endif -%}
    {%- for name in missing_views -%}
        {% call statement('create_{}'.format(name)) %}
            create or replace view {{ tideline.state_table(name) }} as {{ tideline.state_views()[name] }}
        {% endcall %}
    {%- endfor -%}
    {#- dbt's relation cache learns what was made, so the models of this invocation do not make it again -#}
    {%- do tideline._cache_state_relations(relation is none and tideline.state_file_format() != 'iceberg', missing_views) -%}
    {#- an empty hook: dbt sends nothing for it -#}
    {{- return('') -}}
{% endmacro %}

{#- A state table of other columns (than this version's or an earlier version's) or another
    format than this version writes is refused (`found`: its columns). -#}
{% macro _refuse_other_state_table(relation, found) %}
    {%- set wanted = tideline.state_columns() | map('first') | list -%}
    {%- if found != wanted and not tideline._earlier_state_layout(found, wanted) -%}
        {{ exceptions.raise_compiler_error("tideline: state table {state} has columns ({found}), this version of tideline expects ({wanted}) and migrates the layouts of its earlier versions only. Drop {state} and rebuild with dbt run --full-refresh.".format(
            state=tideline.state_table(), found=found | join(', '), wanted=wanted | join(', '))) }}
    {%- endif -%}
    {%- set format = tideline.relation_file_format(relation) -%}
    {%- if format != tideline.state_file_format() -%}
        {{ exceptions.raise_compiler_error("tideline: state table {state} is {found}, tideline__state_file_format is {wanted}; nothing was written. Set tideline__state_file_format to {found}, or rebuild the schema's tideline models in the new format: drop {state} and run dbt run --full-refresh.".format(
            state=tideline.state_table(), found=format, wanted=tideline.state_file_format())) }}
    {%- endif -%}
{% endmacro %}

{#- The views over tl_state that do not exist yet; a table of an earlier version in the place of
    one is refused. -#}
{% macro _missing_state_views() %}
    {%- set missing_views = [] -%}
    {%- for name in tideline.state_views() -%}
        {%- set existing = adapter.get_relation(database=none, schema=target.schema, identifier=name) -%}
        {%- if existing is not none and existing.type != 'view' -%}
            {{ exceptions.raise_compiler_error("tideline: state table {old} is a table of an earlier version of tideline; this version keeps its state in {state} and {name} is a view over it. State is not migrated between versions: drop the old state tables ({views}) and rebuild with dbt run --full-refresh.".format(
                old=tideline.state_table(name), state=tideline.state_table(), name=name, views=tideline.state_views().keys() | join(', '))) }}
        {%- endif -%}
        {%- if existing is none -%}{%- do missing_views.append(name) -%}{%- endif -%}
    {%- endfor -%}
    {{- return(missing_views) -}}
{% endmacro %}

{#- tl_state, created in the schema (made first when missing). -#}
{% macro _create_state_table() %}
    {%- do tideline.exec('create schema if not exists {}'.format(target.schema)) -%}
    {% call statement('create_tl_state') %}
        create table if not exists {{ tideline.state_table() }} (
            {%- for c in tideline.state_columns() %}
            {{ c[0] }} {{ c[1] }}{{ ',' if not loop.last }}
            {%- endfor %}
        )
        using {{ tideline.state_file_format() }} partitioned by (model)
        {{ tideline.table_properties_sql(tideline.state_file_format()) }}
    {% endcall %}
{% endmacro %}


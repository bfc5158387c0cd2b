{#- Derivations: the data table's columns and layout, and the table created. -#}

{#- The data table's columns: the derived table's, the register key and registers, and the
    commit columns. One table holds every kind of row (tl_part 'row', 'register', 'set_aside'
    for a row under a null key under on_bad_rows='quarantine', or 'held' for a document a read
    delay holds for a later run: held_documents.sql), so a run writes them with one
    insert, and readers of the rows never scan the registers or the set-aside rows. -#}
{% macro derivation_data_columns(settings) %}
    {%- set columns = [] -%}
    {%- for c in settings.derived -%}{%- do columns.append([c[0], c[1]]) -%}{%- endfor -%}
    {%- do columns.extend(tideline.register_columns(settings)) -%}
    {%- do columns.extend(tideline.held_document_columns(settings)) -%}
    {%- do columns.extend([['_tl_batch', 'timestamp'], ['_tl_run', 'string'], ['tl_part', 'string'], ['tl_gen', 'string']]) -%}
    {{- return(columns) -}}
{% endmacro %}

{% macro register_struct_type(settings) %}
    {%- set fields = [] -%}
    {%- for r in settings.registers -%}{%- do fields.append('{}:{}'.format(r.name, r.type)) -%}{%- endfor -%}
    {{- return('struct<{}>'.format(fields | join(','))) -}}
{% endmacro %}

{#- The data table's layout now ('name type'), and whether the table `existing_data` has it. -#}
{% macro derivation_layout(settings) %}
    {%- set layout = [] -%}
    {%- for c in tideline.derivation_data_columns(settings) -%}{%- do layout.append('{} {}'.format(c[0], c[1])) -%}{%- endfor -%}
    {{- return(layout) -}}
{% endmacro %}

{% macro create_derivation_table(settings, data) %}
    {% call statement('create_data', fetch_result=false) %}
        create table {{ data }} ({{ tideline.derivation_layout(settings) | join(', ') }}) using {{ tideline.model_file_format(settings.name) }} partitioned by (tl_part, tl_gen)
        {{ tideline.table_properties_sql(tideline.model_file_format(settings.name)) }}
    {% endcall %}
{% endmacro %}

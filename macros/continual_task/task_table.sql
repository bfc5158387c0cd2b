{#- Continual tasks: the data table's layout, the table created, and config columns in the
    table's order. -#}

{#- The data table's columns ('name type'): the output's, then the row id, the operation, the
    step's time and id, and the generation. -#}
{% macro task_layout(settings) %}
    {%- set layout = [] -%}
    {%- for c in settings.columns -%}{%- do layout.append('{} {}'.format(c[0], c[1])) -%}{%- endfor -%}
    {%- do layout.extend(['_tl_row string', '_tl_op string', '_tl_batch timestamp', '_tl_run string', 'tl_gen string']) -%}
    {{- return(layout) -}}
{% endmacro %}

{% macro create_task_table(settings, data) %}
    {% call statement('create_data', fetch_result=false) %}
        create table {{ data }} ({{ tideline.task_layout(settings) | join(', ') }})
        using {{ tideline.model_file_format(settings.name) }}
        partitioned by (tl_gen)
        {{ tideline.table_properties_sql(tideline.model_file_format(settings.name)) }}
    {% endcall %}
{% endmacro %}

{#- Config columns in the data table's order (`live`), when the recorded definition (`recorded`)
    has the same columns in another order: dbt does not keep a config mapping's order from one
    parse to the next, and a step's insert is by position. The statements that list no columns
    and the definition follow. A describe of the table only when the order differs. -#}
{% macro align_task_columns(settings, recorded, live) %}
    {%- set before = fromjson(recorded).get('columns') if recorded else none -%}
    {%- if before is none or before | tojson == settings.columns | tojson
          or before | map('join', ' ') | sort | list != settings.columns | map('join', ' ') | sort | list -%}
        {{ return(none) }}
    {%- endif -%}
    {%- set stored = [] -%}
    {%- for column in tideline.data_table_layout(live) -%}{%- do stored.append(column.split(' ', 1)) -%}{%- endfor -%}
    {%- set aligned = tideline.in_stored_order(settings.columns, stored) -%}
    {%- if aligned is none -%}{{ return(none) }}{%- endif -%}
    {%- do settings.update({'columns': aligned}) -%}
    {%- for st in settings.statements if not st.listed -%}{%- do st.update({'columns': aligned | map('first') | list}) -%}{%- endfor -%}
    {%- do settings.update({'definition': tideline.task_definition(settings)}) -%}
{% endmacro %}

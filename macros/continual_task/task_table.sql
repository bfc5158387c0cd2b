{#- Continual tasks: the data table's layout and the table created. -#}

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

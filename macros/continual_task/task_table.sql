{#- Continual tasks: the data table's layout, the table created, and its inserts checked. -#}

{#- Each insert's select returns as many columns as it names (or as the output has): one
    `describe query` per insert, once per run with steps. -#}
{% macro check_task_inserts(settings) %}
    {%- set step = {'time': '1970-01-01 00:00:00', 'upto': false} -%}
    {%- set empty_output -%}
        (select {% for c in settings.columns %}cast(null as {{ c[1] }}) as {{ c[0] }}{{ ', ' if not loop.last }}{% endfor %} where false)
    {%- endset -%}
    {%- for st in settings.statements if st.kind == 'insert' -%}
        {%- set rows = tideline.query_rows('describe query {}'.format(tideline._at_step(settings, st, step, empty_output))) -%}
        {%- if rows | length != st.columns | length -%}
            {{ tideline._task_error(settings.name, 'statement {}'.format(loop.index), (rows | map(attribute='col_name') | list),
                "a select of {} columns ({}), not {}".format(st.columns | length, st.columns | join(', '), rows | length)) }}
        {%- endif -%}
    {%- endfor -%}
{% endmacro %}

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

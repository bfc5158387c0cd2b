{#- Continual tasks: the data table's layout, the table created, and its inserts checked. -#}

{#- Each statement planned against the inputs and an empty output before anything is written
    (one `explain` each: a column or function that does not resolve is refused naming the
    statement), and each insert's select returning as many columns as it names (or as the
    output has: one `describe query`). Once per run that writes. -#}
{% macro check_task_statements(settings) %}
    {%- set step = {'time': '1970-01-01 00:00:00', 'upto': false} -%}
    {%- set empty_output -%}
        (select {% for c in settings.columns %}cast(null as {{ c[1] }}) as {{ c[0] }}{{ ', ' if not loop.last }}{% endfor %} where false)
    {%- endset -%}
    {%- set shown = {} -%}
    {%- for i in settings.inputs -%}{%- do shown.update({i.name: 'true'}) -%}{%- endfor -%}
    {%- for st in settings.statements -%}
        {%- set text = tideline._at_step(settings, st, step, empty_output) -%}
        {%- set probe -%}
            {%- if st.kind == 'insert' -%}{{ text }}
            {%- else -%}select * from {{ empty_output }} as _tl_output where {{ '({})'.format(text) if st.has_where else 'false' }}
            {%- endif -%}
        {%- endset -%}
        {%- set error = tideline.analysis_error(probe) -%}
        {%- if error is not none -%}
            {{ tideline._task_error(settings.name, 'statement {}'.format(loop.index), modules.re.sub('\\s+', ' ', tideline.task_step_text(st, shown)) | trim,
                "a {} Spark can plan over the task's inputs and its output ({}); Spark says: {}".format(
                    'select' if st.kind == 'insert' else 'condition', settings.columns | map('first') | join(', '), error)) }}
        {%- endif -%}
        {%- if st.kind == 'insert' -%}
            {%- set rows = tideline.query_rows('describe query {}'.format(text)) -%}
            {%- if rows | length != st.columns | length -%}
                {{ tideline._task_error(settings.name, 'statement {}'.format(loop.index), (rows | map(attribute='col_name') | list),
                    "a select of {} columns ({}), not {}".format(st.columns | length, st.columns | join(', '), rows | length)) }}
            {%- endif -%}
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

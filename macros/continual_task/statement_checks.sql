{#- Continual tasks: each statement planned against the task's inputs and an empty output before
    anything is written, so that SQL Spark cannot plan, or an insert whose columns cannot become
    the output's, is refused naming the statement, not met half-way through a run. -#}

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
            {{ tideline._task_error(settings.name, 'statement {}'.format(loop.index), tideline.sql_as_defined(tideline.task_step_text(st, shown)),
                "a {} Spark can plan over the task's inputs and its output ({}); Spark says: {}".format(
                    'select' if st.kind == 'insert' else 'condition', settings.columns | map('first') | join(', '), error)) }}
        {%- endif -%}
        {%- if st.kind == 'insert' -%}{%- do tideline._check_inserted_columns(settings, st, text, loop.index) -%}{%- endif -%}
    {%- endfor -%}
{% endmacro %}

{#- An insert's select (`text`, planned) returns as many columns as it names or the output has
    (one `describe query`), each of a type the output's column takes without a cast
    (first_unfit_column). A statement that lists no columns and whose select names every output
    column once takes them by name, in the select's order; any other select's columns are the
    output's in config columns' order. -#}
{% macro _check_inserted_columns(settings, st, text, index) %}
    {%- set setting = 'statement {}'.format(index) -%}
    {%- set rows = tideline.query_rows('describe query {}'.format(text)) -%}
    {%- if rows | length != st.columns | length -%}
        {{ tideline._task_error(settings.name, setting, (rows | map(attribute='col_name') | list),
            "a select of {} columns ({}), not {}".format(st.columns | length, st.columns | join(', '), rows | length)) }}
    {%- endif -%}
    {%- set named = rows | map(attribute='col_name') | map('lower') | list -%}
    {%- if not st.listed and named | sort | list == st.columns | sort | list -%}{%- do st.update({'columns': named}) -%}{%- endif -%}
    {%- set found = [] -%}
    {%- for row in rows -%}{%- do found.append([st.columns[loop.index0], tideline.type_name(row.data_type)]) -%}{%- endfor -%}
    {%- set unfit = tideline.first_unfit_column(found, settings.columns) -%}
    {%- if unfit is not none -%}
        {{ tideline._task_error(settings.name, '{} column {}'.format(setting, unfit.name), unfit.found,
            tideline.unfit_column_accepted(unfit, 'the statement')) }}
    {%- endif -%}
{% endmacro %}

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
            {{ tideline._task_error(settings.name, 'statement {}'.format(loop.index), modules.re.sub('\\s+', ' ', tideline.task_step_text(st, shown)) | trim,
                "a {} Spark can plan over the task's inputs and its output ({}); Spark says: {}".format(
                    'select' if st.kind == 'insert' else 'condition', settings.columns | map('first') | join(', '), error)) }}
        {%- endif -%}
        {%- if st.kind == 'insert' -%}{%- do tideline._check_inserted_columns(settings, st, text, loop.index) -%}{%- endif -%}
    {%- endfor -%}
{% endmacro %}

{#- An insert's select (`text`, planned) returns as many columns as it names or the output has
    (one `describe query`), each of a type that can become the output's as a step casts it (one
    `explain` when a type differs; one per column only to find the one to refuse). -#}
{% macro _check_inserted_columns(settings, st, text, index) %}
    {%- set setting = 'statement {}'.format(index) -%}
    {%- set rows = tideline.query_rows('describe query {}'.format(text)) -%}
    {%- if rows | length != st.columns | length -%}
        {{ tideline._task_error(settings.name, setting, (rows | map(attribute='col_name') | list),
            "a select of {} columns ({}), not {}".format(st.columns | length, st.columns | join(', '), rows | length)) }}
    {%- endif -%}
    {%- set declared = {} -%}
    {%- for c in settings.columns -%}{%- do declared.update({c[0]: c[1]}) -%}{%- endfor -%}
    {%- set differ = [] -%}
    {%- for row in rows -%}
        {%- set name, found = st.columns[loop.index0], tideline.type_name(row.data_type) -%}
        {%- if found != declared[name] -%}{%- do differ.append([name, found]) -%}{%- endif -%}
    {%- endfor -%}
    {%- if differ and tideline.analysis_error(tideline._insert_casts_probe_sql(settings, st, text, differ)) is not none -%}
        {%- for c in differ if tideline.analysis_error(tideline._insert_casts_probe_sql(settings, st, text, [c])) is not none -%}
            {%- if loop.first -%}
                {{ tideline._task_error(settings.name, '{} column {}'.format(setting, c[0]), c[1],
                    "a value that can become {}, the column's type in columns".format(declared[c[0]])) }}
            {%- endif -%}
        {%- endfor -%}
    {%- endif -%}
{% endmacro %}

{#- An insert's select with the columns `columns` ([[name, type found], ...]) cast to the output's
    types as a step casts them (_inserted_columns). -#}
{% macro _insert_casts_probe_sql(settings, st, text, columns) %}
    {%- set declared = {} -%}
    {%- for c in settings.columns -%}{%- do declared.update({c[0]: c[1]}) -%}{%- endfor -%}
    select
        {%- for c in columns %}
        {{ tideline.checked_cast('q.{}'.format(c[0]), declared[c[0]], 'insert') }} as {{ c[0] }}{{ ',' if not loop.last }}
        {%- endfor %}
    from ({{ text }}) as q({{ st.columns | join(', ') }})
{%- endmacro %}

{#- Continual tasks: the model's statements as found, and the output's columns when config
    columns is left out (inferred from an insert's select). -#}

{#- The model's statements, in order, as data (statement blocks, or the legacy form's plain
    statements), each with its index: at least one, and nothing but blocks and comments beside
    blocks. -#}
{% macro collected_task_statements(model_name, output) %}
    {%- set found = tideline.collect_model_definitions() -%}
    {%- set outside = modules.re.sub('--[^\n]*|/\*.*?\*/|\s+', '', found.rest, flags=modules.re.S) -%}
    {%- if found.definitions and outside -%}
        {{ tideline._task_error(model_name, 'statements', found.rest | trim | truncate(80, true, ''), "tideline.task_delete() and tideline.task_insert() blocks and comments only (or, without blocks, plain statements separated by `;`)") }}
    {%- endif -%}
    {%- set statements = found.definitions if found.definitions else tideline.legacy_task_statements(model_name, found.rest, output) -%}
    {%- if not statements -%}
        {{ tideline._task_error(model_name, 'statements', '', "at least one tideline.task_delete() or tideline.task_insert() block") }}
    {%- endif -%}
    {%- for st in statements -%}{%- do st.update({'index': loop.index, 'legacy': st.get('legacy', false)}) -%}{%- endfor -%}
    {{- return(statements) -}}
{% endmacro %}

{#- The output's columns of a task whose config leaves columns out: [[name, type], ...], the
    columns of its first insert's select (the names its block lists, else the select's own),
    of the types Spark plans for them (one `explain` and one `describe query`, over no input
    rows; nothing is read). Refused by name when a statement reads the output ({{ this }}: its
    columns must be known before the statements are), when the task has no insert, when the
    select cannot be planned, or when a column has no usable name (an expression without
    `as`). The other statements are then checked against these columns as against declared
    ones. -#}
{% macro inferred_task_columns(model_name, output, inputs, statements) %}
    {%- set example = "{'key': 'int', 'val': 'int'}" -%}
    {%- set probe = tideline.task_input_probe(inputs | map(attribute='name') | list) -%}
    {%- for st in statements -%}
        {%- if (output | string) in tideline.task_step_text(st, probe) -%}
            {{ tideline._task_error(model_name, 'columns', none, "a mapping of column name to Spark type, e.g. {}: required when a statement reads the output ({{{{ this }}}}, statement {})".format(example, loop.index)) }}
        {%- endif -%}
    {%- endfor -%}
    {%- set first = [] -%}
    {%- for st in statements -%}
        {%- if st.kind == 'insert' and not first -%}{%- do first.append({'st': st, 'setting': 'statement {}'.format(loop.index)}) -%}{%- endif -%}
    {%- endfor -%}
    {%- if not first -%}
        {{ tideline._task_error(model_name, 'columns', none, "a mapping of column name to Spark type, e.g. {}: required for a task without an insert".format(example)) }}
    {%- endif -%}
    {%- set st, setting = first[0].st, first[0].setting -%}
    {%- set nothing = {} -%}
    {%- for i in inputs -%}{%- do nothing.update({i.name: {'where': 'false', 'columns': i.columns}}) -%}{%- endfor -%}
    {%- set text = tideline.task_step_text(st, nothing) -%}
    {%- set error = tideline.analysis_error(text) -%}
    {%- if error is not none -%}
        {{ tideline._task_error(model_name, setting, tideline.sql_as_defined(tideline.task_step_text(st, probe)),
            "a select Spark can plan over the task's inputs (its columns are the output's: config columns is left out); Spark says: {}".format(error)) }}
    {%- endif -%}
    {%- set rows = tideline.query_rows('describe query {}'.format(text)) -%}
    {%- set listed = st.columns if st.columns is iterable and st.columns is not string and st.columns is not mapping else none -%}
    {%- if listed is not none and listed | length != rows | length -%}
        {{ tideline._task_error(model_name, setting, rows | map(attribute='col_name') | list,
            "a select of {} columns ({}), not {}".format(listed | length, listed | join(', '), rows | length)) }}
    {%- endif -%}
    {%- set columns = {} -%}
    {%- for row in rows -%}
        {%- set name = (listed[loop.index0] if listed is not none else row.col_name) | lower -%}
        {%- if not modules.re.match('^[a-z_][a-z0-9_]*$', name) or name.startswith('_tl_') or name in columns -%}
            {{ tideline._task_error(model_name, '{} column {}'.format(setting, loop.index), name,
                "a distinct column name of letters, digits and underscores, not starting with _tl_ (name the select's column with `as`), or config columns") }}
        {%- endif -%}
        {%- if tideline.type_name(row.data_type) == 'void' -%}
            {{ tideline._task_error(model_name, '{} column {}'.format(setting, name), row.data_type,
                "a column of a type (a bare null has none: cast it, e.g. cast(null as int)), or config columns") }}
        {%- endif -%}
        {%- do columns.update({name: tideline.type_name(row.data_type)}) -%}
    {%- endfor -%}
    {{- return(columns.items() | list | map('list') | list) -}}
{% endmacro %}

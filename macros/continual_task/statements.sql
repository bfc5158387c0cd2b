{#- Continual tasks (seed 002, Materialize): the model's statements and settings.

    A model is its config and the task's statements, in order, separated by `;`, as in the seed:

        {{ config(materialized='continual_task', inputs=['append_only'], columns={'key': 'int', 'val': 'int'}) }}
        delete from {{ this }} where key in (select key from {{ tideline.input('append_only') }});
        insert into {{ this }} select key, max(val) from {{ tideline.input('append_only') }} group by key

    `tideline.input(name)` is the rows the input committed at this step; `{{ this }}` in a read
    is the output as the statement sees it (through the previous step, plus what the earlier
    statements of this step proposed); any other ref() or source() is a reference, read whole.
    The steps themselves are in macros/continual_task/steps.sql. -#}

{#- The task's settings, checked before anything is written: the first error stops the run,
    naming the model and the setting. -#}
{% macro continual_task_settings(model_name, model_sql, output) %}
    {#- output columns -#}
    {%- set declared = tideline.declared_columns('continual task', model_name, 'columns', config.get('columns'), "{'key': 'int', 'val': 'int'}") -%}
    {%- set snapshot = config.get('snapshot', true) -%}
    {%- if snapshot is not boolean -%}
        {{ tideline._task_error(model_name, 'snapshot', snapshot, "true (the first run passes the inputs' existing rows through the task) or false") }}
    {%- endif -%}

    {%- set inputs = tideline._task_inputs(model_name) -%}
    {%- set input_names = inputs | map(attribute='name') | list -%}

    {%- set statements = tideline._task_statements(model_name, model_sql, output, declared, input_names) -%}
    {#- does a step read the output (a delete, or {{ this }} in a read)? if not, it never scans it -#}
    {%- set reads_output = [] -%}
    {%- for st in statements -%}
        {%- set text = (st.where or '') if st.kind == 'delete' else st.select -%}
        {%- if st.kind == 'delete' or (output | string) in text -%}{%- do reads_output.append(true) -%}{%- endif -%}
    {%- endfor -%}
    {#- only deletions leave rows the output no longer shows: a task with a delete compacts -#}
    {%- set compact_every = tideline.compact_every_setting(model_name, tideline._task_error) -%}
    {{- return({'name': model_name, 'columns': declared, 'snapshot': snapshot, 'inputs': inputs,
                'statements': statements, 'reads_output': reads_output | length > 0, 'output': output | string,
                'deletes': statements | selectattr('kind', 'equalto', 'delete') | list | length > 0, 'compact_every': compact_every}) -}}
{% endmacro %}

{#- The task's statements, in order: `delete from {{ this }} [where ...]` or `insert into {{ this }}
    [(columns)] select ...`, each checked (its target, its inputs, its columns). -#}
{% macro _task_statements(model_name, model_sql, output, declared, input_names) %}
    {%- set targets = [output | string | lower, output.identifier | lower, (output | string | lower | replace('`', ''))] -%}
    {%- set statements = [] -%}
    {%- for text in tideline._split_statements(model_sql) -%}
        {%- set bare = modules.re.sub('^(\\s|--[^\n]*|/\\*.*?\\*/)*', '', text, flags=modules.re.S) -%}
        {%- set delete = modules.re.match('(?is)^delete\\s+from\\s+(\\S+)\\s*(?:where\\s+(.*))?$', bare) -%}
        {%- set insert = modules.re.match('(?is)^insert\\s+into\\s+(?:table\\s+)?([^\\s(]+)\\s*(?:\\(([^)]*)\\))?\\s*((?:select|with|values|\\().*)$', bare) -%}
        {%- set match = delete or insert -%}
        {%- if not match -%}
            {{ tideline._task_error(model_name, 'statement {}'.format(loop.index), bare[:80], "`delete from {{ this }} [where ...]` or `insert into {{ this }} [(columns)] select ...`") }}
        {%- endif -%}
        {%- if (match.group(1) | lower) not in targets -%}
            {{ tideline._task_error(model_name, 'statement {}'.format(loop.index), bare[:80], "statements that write the task's own output, {} ({}), and nothing else".format(output, "{{ this }}")) }}
        {%- endif -%}
        {%- for used in modules.re.findall('/\\* tideline:step (\\S+) \\*/', text) if used not in input_names -%}
            {{ tideline._task_error(model_name, 'statement {}'.format(loop.index), 'tideline.input({})'.format(used), "inputs named in config inputs ({})".format(input_names | join(', '))) }}
        {%- endfor -%}
        {%- if delete -%}
            {%- do statements.append({'kind': 'delete', 'where': delete.group(2)}) -%}
        {%- else -%}
            {%- set listed = [] -%}
            {%- for c in (insert.group(2) or '').split(',') if c | trim -%}{%- do listed.append(c | trim | lower) -%}{%- endfor -%}
            {%- for c in listed if c not in (declared | map('first') | list) -%}
                {{ tideline._task_error(model_name, 'statement {}'.format(loop.index), c, "columns of config columns ({})".format(declared | map('first') | join(', '))) }}
            {%- endfor -%}
            {%- do statements.append({'kind': 'insert', 'columns': listed or (declared | map('first') | list), 'select': insert.group(3)}) -%}
        {%- endif -%}
    {%- endfor -%}
    {%- if not statements -%}
        {{ tideline._task_error(model_name, 'statements', '', "at least one `delete from {{ this }}` or `insert into {{ this }}` statement") }}
    {%- endif -%}
    {{- return(statements) -}}
{% endmacro %}

{#- The statements of `model_sql`: split at top-level `;` (not inside strings or comments). -#}
{% macro _split_statements(model_sql) %}
    {%- set statements = [''] -%}
    {%- for token in modules.re.findall("'(?:[^'\\\\]|\\\\.)*'|\"(?:[^\"\\\\]|\\\\.)*\"|--[^\n]*|/\\*.*?\\*/|;|[^;'\"/-]+|.", model_sql, modules.re.S) -%}
        {%- if token == ';' -%}{%- do statements.append('') -%}
        {%- else -%}{%- do statements.append('{}{}'.format(statements.pop(), token)) -%}{%- endif -%}
    {%- endfor -%}
    {{- return(statements | map('trim') | reject('equalto', '') | list) -}}
{% endmacro %}

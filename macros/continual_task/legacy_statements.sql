{#- Continual tasks: the legacy form of a model, its statements as plain SQL separated by `;`
    (tideline 0.1), still accepted so that existing models keep working. A model in this form
    is rendered whole and split at top-level `;`; the blocks of statement_blocks.sql need
    neither (docs/continual_tasks.md, "Migrating from statements separated by `;`"). -#}

{#- The statements of `text`: split at top-level `;` (not inside strings or comments). -#}
{% macro split_legacy_statements(text) %}
    {%- set statements = [''] -%}
    {%- for token in modules.re.findall("'(?:[^'\\\\]|\\\\.)*'|\"(?:[^\"\\\\]|\\\\.)*\"|--[^\n]*|/\\*.*?\\*/|;|[^;'\"/-]+|.", text, modules.re.S) -%}
        {%- if token == ';' -%}{%- do statements.append('') -%}
        {%- else -%}{%- do statements.append('{}{}'.format(statements.pop(), token)) -%}{%- endif -%}
    {%- endfor -%}
    {{- return(statements | map('trim') | reject('equalto', '') | list) -}}
{% endmacro %}

{#- One statement's parts: {'kind', 'target', 'where', 'columns', 'select', 'text'} (kind none: neither
    a delete nor an insert). -#}
{% macro legacy_statement_parts(text) %}
    {%- set bare = modules.re.sub('^(\\s|--[^\n]*|/\\*.*?\\*/)*', '', text, flags=modules.re.S) -%}
    {%- set delete = modules.re.match('(?is)^delete\\s+from\\s+(\\S+)\\s*(?:where\\s+(.*))?$', bare) -%}
    {%- set insert = modules.re.match('(?is)^insert\\s+into\\s+(?:table\\s+)?([^\\s(]+)\\s*(?:\\(([^)]*)\\))?\\s*((?:select|with|values|\\().*)$', bare) -%}
    {%- if delete -%}
        {{- return({'kind': 'delete', 'target': delete.group(1), 'where': delete.group(2), 'text': bare}) -}}
    {%- elif insert -%}
        {%- set listed = [] -%}
        {%- for c in (insert.group(2) or '').split(',') if c | trim -%}{%- do listed.append(c | trim | lower) -%}{%- endfor -%}
        {{- return({'kind': 'insert', 'target': insert.group(1), 'columns': listed, 'select': insert.group(3), 'text': bare}) -}}
    {%- endif -%}
    {{- return({'kind': none, 'text': bare}) -}}
{% endmacro %}

{#- The legacy statements of the model's file `rendered` as data (as statement blocks give
    them), each checked: a delete or an insert, of the task's own output. -#}
{% macro legacy_task_statements(model_name, rendered, output) %}
    {%- set targets = [output | string | lower, output.identifier | lower, (output | string | lower | replace('`', ''))] -%}
    {%- set statements = [] -%}
    {%- for text in tideline.split_legacy_statements(rendered) -%}
        {%- set parts = tideline.legacy_statement_parts(text) -%}
        {%- if parts.kind is none -%}
            {{ tideline._task_error(model_name, 'statement {}'.format(loop.index), parts.text[:80], "`delete from {{ this }} [where ...]` or `insert into {{ this }} [(columns)] select ...`, or the blocks tideline.task_delete() and tideline.task_insert()") }}
        {%- endif -%}
        {%- if (parts.target | lower) not in targets -%}
            {{ tideline._task_error(model_name, 'statement {}'.format(loop.index), parts.text[:80], "statements that write the task's own output, {} ({}), and nothing else".format(output, "{{ this }}")) }}
        {%- endif -%}
        {%- do statements.append({'kind': parts.kind, 'columns': parts.columns or none, 'body': none, 'legacy': true}) -%}
    {%- endfor -%}
    {{- return(statements) -}}
{% endmacro %}

{#- Continual tasks (seed 002, Materialize): the model's statements and settings.

    A model is its config and the task's statements, in order, each a block
    (statement_blocks.sql):

        {{ config(materialized='continual_task', inputs=['append_only'], columns={'key': 'int', 'val': 'int'}) }}
        {% call tideline.task_delete() %} key in (select key from {{ tideline.input('append_only') }}) {% endcall %}
        {% call tideline.task_insert() %} select key, max(val) from {{ tideline.input('append_only') }} group by key {% endcall %}

    or, in the legacy form (legacy_statements.sql), plain statements separated by `;`
    (`delete from {{ this }} where ...; insert into {{ this }} select ...`).
    `tideline.input(name)` is the rows the input committed at this step; `{{ this }}` in a read
    is the output as the statement sees it (through the previous step, plus what the earlier
    statements of this step proposed); any other ref() or source() is a reference, read whole.
    The steps themselves are in macros/continual_task/steps.sql. -#}

{#- The task's settings, checked before anything is written: the first error stops the run,
    naming the model and the setting. -#}
{% macro continual_task_settings(model_name, output) %}
    {#- output columns: declared, or (config columns left out) inferred from the inserts below -#}
    {%- set given = config.get('columns') -%}
    {%- set declared = none if given is none else tideline.declared_columns('continual task', model_name, 'columns', given, "{'key': 'int', 'val': 'int'}") -%}
    {%- set snapshot = config.get('snapshot', true) -%}
    {%- if snapshot is not boolean -%}
        {{ tideline._task_error(model_name, 'snapshot', snapshot, "true (the first run passes the inputs' existing rows through the task) or false") }}
    {%- endif -%}

    {%- set inputs = tideline._task_inputs(model_name) -%}
    {%- set references = tideline._task_references(model_name, inputs) -%}
    {%- set collected = tideline.collected_task_statements(model_name, output) -%}
    {%- if declared is none -%}{%- set declared = tideline.inferred_task_columns(model_name, output, inputs, collected) -%}{%- endif -%}
    {%- set statements = tideline._task_statements(model_name, output, declared, inputs, collected) -%}
    {#- only deletions leave rows the output no longer shows: a task with a delete compacts -#}
    {%- set compact_every = tideline.compact_every_setting(model_name, tideline._task_error) -%}
    {%- set on_definition_change = tideline.on_definition_change_setting('continual task', model_name) -%}
    {%- set settings = {'name': model_name, 'on_definition_change': on_definition_change,
                        'on_bad_rows': tideline.on_bad_rows_setting('continual task', model_name), 'columns': declared, 'snapshot': snapshot, 'inputs': inputs, 'references': references,
                        'statements': statements, 'reads_output': statements | selectattr('reads_output') | list | length > 0, 'output': output | string,
                        'deletes': statements | selectattr('kind', 'equalto', 'delete') | list | length > 0, 'compact_every': compact_every,
                        'late_row_lookback': tideline.late_row_lookback_setting(model_name, tideline._task_error)} -%}
    {%- do settings.update({'definition': tideline.task_definition(settings)}) -%}
    {{- return(settings) -}}
{% endmacro %}

{#- The task's statements, in order, as data: {'kind' (delete or insert), 'columns' (an insert's
    output columns, in its select's order), 'listed' (the block or statement lists them; if not,
    config columns' order until the insert's check finds the select names them), 'index', 'body' (the block) or 'legacy', 'has_where'
    (a delete's condition), 'reads_output' (a delete, or {{ this }} in the statement),
    'reads_input' (tideline.input() in the statement: one that reads no input writes nothing,
    task_input_probe)}, from the statements as collected_task_statements found them. Each is
    checked: its columns, its inputs (tideline.input() refuses a name not in config inputs when
    the statement is rendered here, before anything is written). -#}
{% macro _task_statements(model_name, output, declared, inputs, statements) %}
    {%- set names = declared | map('first') | list -%}
    {%- set probe = tideline.task_input_probe(inputs | map(attribute='name') | list) -%}
    {%- for st in statements -%}
        {%- set setting = 'statement {}'.format(loop.index) -%}
        {%- if st.columns is not none and (st.columns is string or st.columns is mapping or st.columns is not iterable) -%}
            {{ tideline._task_error(model_name, setting, st.columns, "columns: a list of the output's column names") }}
        {%- endif -%}
        {%- set listed = (st.columns or names) | map('lower') | list -%}
        {%- for c in listed if c not in names -%}
            {{ tideline._task_error(model_name, setting, c, "columns of config columns ({})".format(names | join(', '))) }}
        {%- endfor -%}
        {%- do st.update({'index': loop.index, 'columns': listed, 'listed': (st.columns or []) | length > 0, 'legacy': st.get('legacy', false)}) -%}
        {%- set text = tideline.task_step_text(st, probe) -%}
        {%- do st.update({'has_where': text != '', 'reads_output': st.kind == 'delete' or (output | string) in text,
                          'reads_input': tideline.task_reads_input(text, probe)}) -%}
    {%- endfor -%}
    {{- return(statements) -}}
{% endmacro %}

{#- Continual tasks: the statements as blocks the materialization receives as data.

        {% call tideline.task_delete() %}
            key in (select key from {{ tideline.input('stream.append_only') }})
        {% endcall %}

        {% call tideline.task_insert() %}
            select key, max(val) as val from {{ tideline.input('stream.append_only') }} group by key
        {% endcall %}

    Each block is one statement, in the order of the file. The materialization renders a
    block's body once per step, with each tideline.input() in it standing for the rows its
    input committed at that step (task_step_text). In dbt's parse and compile the blocks render
    as the seed's SQL (`delete from ... where ...;`, `insert into ... select ...;`). -#}

{#- `insert into {{ this }} [(columns)] <the block's select>`: `columns` lists the output's
    columns the select gives, in its order (default: all of them). -#}
{% macro task_insert(columns=none) %}
    {{- return(tideline._task_block('insert', columns, caller if caller is defined else none)) -}}
{% endmacro %}

{#- `delete from {{ this }} where <the block's condition>`: without a block (a plain
    `{{ tideline.task_delete() }}`), every row of the output. -#}
{% macro task_delete() %}
    {{- return(tideline._task_block('delete', none, caller if caller is defined else none)) -}}
{% endmacro %}

{#- The block as data for the collector (collect_model_definitions), else its SQL to read. -#}
{% macro _task_block(kind, columns, body) %}
    {%- set collector = tideline.model_definitions_collector() -%}
    {%- if collector is not none -%}
        {%- do collector.append({'kind': kind, 'columns': columns, 'body': body}) -%}
        {{- return('') -}}
    {%- endif -%}
    {%- if kind == 'insert' -%}
        {{- return('insert into {}{}\n{};'.format(this, ' ({})'.format(columns | join(', ')) if columns else '', body() | trim if body is not none else '')) -}}
    {%- endif -%}
    {{- return('delete from {}{};'.format(this, '\nwhere {}'.format(body() | trim) if body is not none else '')) -}}
{% endmacro %}

{#- A statement's text at a step: its select (insert) or condition (delete; '' for none), each
    tideline.input() in it replaced by its input's rows at the step (`predicates`: input name ->
    the condition on its commit column). A statement of the legacy form (statements separated
    by `;`, legacy_statements.sql) is found in the whole file rendered at the step. -#}
{% macro task_step_text(st, predicates) %}
    {%- do model.update({'tideline_task_step': predicates}) -%}
    {%- if st.legacy -%}
        {%- set parts = tideline.legacy_statement_parts(tideline.split_legacy_statements(render(model.raw_code))[st.index - 1]) -%}
        {%- set text = (parts.where or '') if st.kind == 'delete' else parts.select -%}
    {%- else -%}
        {%- set text = st.body() if st.body is not none else '' -%}
    {%- endif -%}
    {%- do model.pop('tideline_task_step') -%}
    {{- return(text | trim) -}}
{% endmacro %}

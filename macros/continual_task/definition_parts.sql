{#- Continual tasks: the definition recorded with their state (internal/definitions.sql), as
    named parts: the output's columns, each input with its commit column, each statement (its
    kind, the columns it inserts and its text as rendered, without comments and with runs of
    whitespace as one space). -#}
{% macro task_definition(settings) %}
    {%- set parts = {'columns': settings.columns} -%}
    {%- set shown = {} -%}
    {%- for i in settings.inputs -%}
        {%- do parts.update({'input {}'.format(i.name): {'commit_column': i.commit_column}}) -%}
        {%- do shown.update({i.name: 'true'}) -%}
    {%- endfor -%}
    {%- for r in settings.references -%}
        {%- do parts.update({'reference {}'.format(r.name): {'time_travel': true} if r.time_travel else {'valid_from': r.valid_from, 'key': r.key}}) -%}
    {%- endfor -%}
    {%- do shown.update(tideline.task_reference_entries(settings, none)) -%}
    {%- for st in settings.statements -%}
        {%- do parts.update({'statement {}'.format(st.index): {'kind': st.kind, 'columns': st.columns,
                                                               'text': tideline.sql_as_defined(tideline.task_step_text(st, shown))}}) -%}
    {%- endfor -%}
    {{- return(parts) -}}
{% endmacro %}

{#- Continual tasks: which inputs a statement reads, found by rendering it with a marked probe
    per input. -#}

{#- What tideline.input() gives each of `names` when a statement is rendered to be looked at, not
    run: a condition that holds, marked with the input's name, so that the text shows which
    inputs the statement reads. A statement that reads none writes nothing: Materialize's task
    produces output only in response to changes in its inputs, and such a statement's result
    never changes with them (step_sql.sql). -#}
{% macro task_input_probe(names) %}
    {%- set probe = {} -%}
    {%- for name in names -%}{%- do probe.update({name: '/* tideline: input {} */ true'.format(name)}) -%}{%- endfor -%}
    {{- return(probe) -}}
{% endmacro %}

{#- The run line's note of the statements that read no input ('' when every one reads one). -#}
{% macro task_inputless_note(settings) %}
    {%- set indexes = settings.statements | rejectattr('reads_input') | map(attribute='index') | map('string') | list -%}
    {%- if not indexes -%}{{ return('') }}{%- endif -%}
    {{- return(", NOTE: statement {} reads no input and writes nothing (a task reacts to its inputs only)".format(indexes | join(', '))) -}}
{% endmacro %}

{#- Whether a statement's `text`, rendered with `probe` (task_input_probe), reads an input. -#}
{% macro task_reads_input(text, probe) %}
    {{- return(probe.values() | select('in', text) | list | length > 0) -}}
{% endmacro %}

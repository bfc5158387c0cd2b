{#- Continual tasks: an input's rows at a step, as tideline.input() and tideline.input_deletes()
    render them. -#}

{#- The rows of `relation` an entry `at` of the step gives: its `part` ('where': the rows
    committed, or inserted by an upstream task; 'deletes': the rows an upstream task deleted)
    from its `from` (an upstream task's changes) or the relation, with its own columns, less
    the rows of its `minus` (an upstream task's deletes up to a snapshot step). An entry that
    is a condition alone (the definition's form, the probes) gives the whole row. -#}
{% macro input_rows_sql(relation, at, part) %}
    {%- if at is not mapping -%}
        {{- return('(select * from {} where {})'.format(relation, at)) -}}
    {%- endif -%}
    {% set sql %}
        (select {{ at.columns | join(', ') }} from {{ at.get('from', relation) }} where {{ at.get(part, 'false') }}
        {%- if part == 'where' and at.get('minus') %}
        except all
        select {{ at.columns | join(', ') }} from {{ at.from }} where {{ at.minus }}
        {%- endif %})
    {% endset %}
    {{- return(sql | trim) -}}
{% endmacro %}

{#- Input `i`'s entry at `step`: its rows committed at the step's time (up to it at a snapshot
    step); for an upstream task, its inserts at that time and its deletes, or at a snapshot
    step its rows live then. -#}
{% macro task_input_entry(i, step) %}
    {%- set bound = '{} {}'.format('<=' if step.upto else '=', tideline.ts(step.time)) -%}
    {%- if not i.get('upstream') -%}
        {{- return({'where': '{} {}'.format(i.commit_column, bound), 'columns': i.columns}) -}}
    {%- endif -%}
    {%- set entry = {'where': "_tl_op = 'insert' and _tl_batch {}".format(bound), 'columns': i.columns, 'from': i.source.rendered,
                     'deletes': "_tl_op = 'delete' and _tl_batch {}".format(bound) if not step.upto else 'false'} -%}
    {%- if step.upto -%}{%- do entry.update({'minus': "_tl_op = 'delete' and _tl_batch {}".format(bound)}) -%}{%- endif -%}
    {{- return(entry) -}}
{% endmacro %}

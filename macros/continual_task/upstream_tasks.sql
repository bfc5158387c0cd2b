{#- Continual tasks: an input that is another continual task's output (a chain, issue 35, item
    7), read as Materialize gives a task its inputs: at each step the rows the upstream
    inserted and those it deleted at that time, consolidated. -#}

{#- In a statement: the rows input `name`, a continual task, deleted at this step, with its own
    columns (as tideline.input() gives the rows it inserted). An input that is not a continual
    task's output only ever gains rows: it is refused by name. In dbt's parse and compile, no
    rows. -#}
{% macro input_deletes(name) %}
    {%- set call = tideline._input_call(name) -%}
    {%- if call.parsing -%}{{- return('(select * from {} where false)'.format(call.relation)) -}}{%- endif -%}
    {%- if name not in call.inputs or not tideline.is_continual_task(name) -%}
        {%- set tasks = [] -%}
        {%- for n in call.inputs if tideline.is_continual_task(n) -%}{%- do tasks.append(n) -%}{%- endfor -%}
        {{ tideline._task_error(model.name, 'tideline.input_deletes', name, "inputs named in config inputs that are continual tasks ({}): another input only ever gains rows".format(
            tasks | join(', ') or 'none')) }}
    {%- endif -%}
    {{- return(tideline.input_rows_sql(call.relation, call.step[name] if call.step is not none else 'false', 'deletes')) -}}
{% endmacro %}

{#- An input's or reference's relation: a source for 'source_name.table_name', else a model. -#}
{% macro _input_relation(name) %}
    {%- if name is string and name.count('.') == 1 -%}
        {{- return(source(name.split('.')[0], name.split('.')[1])) -}}
    {%- endif -%}
    {{- return(ref(name)) -}}
{% endmacro %}

{#- Whether `name` (a model, or 'source.table') is a continual task of the project. -#}
{% macro is_continual_task(name) %}
    {%- for node in graph.nodes.values() if node.resource_type == 'model' and node.name == name -%}
        {{- return(node.config.materialized == 'continual_task') -}}
    {%- endfor -%}
    {{- return(false) -}}
{% endmacro %}

{#- An upstream task's changes, as a relation: each row it inserted or deleted (_tl_op) at a
    step (_tl_batch), consolidated per step as Materialize's diffs are (a row deleted and
    inserted again at the same step is no change), of its committed steps in its live
    generation (and of the rebuild its view counts as committed). `view`: the upstream's view,
    whose property names its data table; `columns`: its own columns. One `show tblproperties`.
    An upstream with a map column (maps cannot be grouped) is refused by name.
    A compaction of the upstream keeps the changes after the oldest frontier of the tasks that
    read it (compaction_sql.sql). -#}
{% macro upstream_changes_sql(model_name, view, columns) %}
    {%- for column, type in tideline._column_types(view).items() if 'map<' in type -%}
        {{ tideline._task_error(model_name, 'inputs', view.identifier, "continual tasks without map columns ({}.{} is {}: Spark cannot compare maps, so the task's changes cannot be consolidated; store it as text with to_json, or read {} as a reference)".format(
            view.identifier, column, type, view.identifier)) }}
    {%- endfor -%}
    {%- set properties = tideline.view_properties(view) -%}
    {%- set data = properties.get('tideline.data_table') -%}
    {%- if not data -%}
        {{ tideline._task_error(model_name, 'inputs', view.identifier, "continual tasks whose view names its data table ({} was built by an earlier version of tideline: rebuild it with dbt run --full-refresh --select {})".format(view, view.identifier)) }}
    {%- endif -%}
    {%- set upstream = {'name': view.identifier, 'columns': []} -%}
    {%- set kept = tideline.task_rows_kept_sql(upstream, none, none, properties.get('tideline.rebuild_run')) -%}
    {% set sql %}
        (select {{ columns | join(', ') }}, _tl_batch, case when net > 0 then 'insert' else 'delete' end as _tl_op
        from (
            select {{ columns | join(', ') }}, _tl_batch, sum(case when _tl_op = 'insert' then 1 else -1 end) as net
            from {{ data }}
            where {{ kept }}
            group by {{ columns | join(', ') }}, _tl_batch
            having sum(case when _tl_op = 'insert' then 1 else -1 end) != 0
        ) as consolidated
        lateral view explode(sequence(1, abs(net))) copies as copy) as changes
    {% endset %}
    {{- return(sql) -}}
{% endmacro %}

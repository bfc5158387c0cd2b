{#- Continual tasks: what a step writes as its changes, and what a compacting step keeps for the
    tasks that read this one's output (issue 35, item 7). -#}

{#- A step's changes, from the output before it (cur_0) and after its statements (cur_<n>):
    the rows it deleted and the rows it inserted, each with the step's time. -#}
{% macro task_step_changes_sql(settings, step, step_run, plan, n) %}
    {%- set columns = settings.columns | map('first') | list -%}
    select {% for c in columns %}b.{{ c }}, {% endfor %}b._tl_row, 'delete' as _tl_op, {{ tideline.ts(step.time) }} as _tl_batch, '{{ step_run }}' as _tl_run, '{{ plan.write_gen }}' as tl_gen
    from cur_0 as b
    left anti join cur_{{ n }} as a on b._tl_row = a._tl_row
    union all
    select {% for c in columns %}a.{{ c }}, {% endfor %}a._tl_row, 'insert', {{ tideline.ts(step.time) }}, '{{ step_run }}', '{{ plan.write_gen }}'
    from cur_{{ n }} as a
    left anti join cur_0 as b on a._tl_row = b._tl_row
{%- endmacro %}

{#- A compaction when tasks read this one (plan.horizon: the oldest frontier among them): the
    output as of the horizon, each row at the time of the step that inserted it, then every
    change after it as it was written, so that a reader still finds each insert and delete it
    has not read, and the live rows are the same as a compaction without readers leaves. -#}
{% macro task_kept_changes_sql(settings, data, step, step_run, plan, n) %}
    {%- set columns = settings.columns | map('first') | list -%}
    select {% for c in columns %}h.{{ c }}, {% endfor %}h._tl_row, 'insert' as _tl_op, h._tl_batch, '{{ step_run }}' as _tl_run, '{{ plan.write_gen }}' as tl_gen
    from ({{ tideline.task_live_rows_sql(settings, data, ['_tl_row', '_tl_batch'], plan.read_gen, plan.get('runs'), up_to=plan.horizon) }}) as h
    union all
    select {% for c in columns %}c.{{ c }}, {% endfor %}c._tl_row, c._tl_op, c._tl_batch, '{{ step_run }}', '{{ plan.write_gen }}'
    from {{ data }} as c
    where {{ tideline.task_rows_kept_sql(settings, plan.read_gen, plan.get('runs'), none, 'c.') }} and c._tl_batch > {{ tideline.ts(plan.horizon) }}
    union all
    {{ tideline.task_step_changes_sql(settings, step, step_run, plan, n) }}
{%- endmacro %}

{#- The horizon of a task's compactions: the oldest frontier among the continual tasks that read
    its output as an input (the project's graph; each frontier from tl_state), or none when
    none has run (a compaction then keeps the live rows only). One query, only when there are
    such tasks. -#}
{% macro task_readers_horizon(model_name) %}
    {%- set readers = [] -%}
    {%- for node in graph.nodes.values() if node.resource_type == 'model' and node.config.materialized == 'continual_task' -%}
        {%- set inputs = node.config.get('inputs') or [] -%}
        {%- if inputs is iterable and inputs is not string and model_name in (inputs | list) -%}{%- do readers.append(node.name) -%}{%- endif -%}
    {%- endfor -%}
    {%- if not readers -%}{{ return(none) }}{%- endif -%}
    {% set sql %}
        select cast(min(frontier) as string) as horizon
        from (
            select model, max(watermark) as frontier
            from {{ tideline.state_table() }}
            where model in {{ tideline.string_list(readers) }} and kind = 'run'
            group by model
        ) as readers
    {% endset %}
    {{- return(tideline.query_rows(sql)[0].horizon) -}}
{% endmacro %}

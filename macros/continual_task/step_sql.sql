{#- Continual tasks: one step's select, its statements in order. -#}

{#- A statement's text for one step: its select or condition with each input's rows at the
    step, and a read of {{ this }} as `current` (the output as the statement sees it). -#}
{% macro _at_step(settings, st, step, current) %}
    {%- set predicates = {} -%}
    {%- for i in settings.inputs -%}{%- do predicates.update({i.name: tideline.task_input_entry(i, step)}) -%}{%- endfor -%}
    {%- do predicates.update(tideline.task_reference_entries(settings, step.time)) -%}
    {{- return(tideline.task_step_text(st, predicates) | replace(settings.output, current)) -}}
{% endmacro %}

{#- The output's columns `columns` (cast and checked) of an insert's select `q`. -#}
{% macro _inserted_columns(settings, listed) %}
    {%- set out = [] -%}
    {%- for c in settings.columns -%}
        {%- if c[0] in listed -%}
            {%- set message = 'tideline: continual task {}: inserted column {} is not a {}: '.format(settings.name, c[0], c[1]) -%}
            {%- do out.append('{} as {}'.format(tideline.checked_cast('q.{}'.format(c[0]), c[1], message), c[0])) -%}
        {%- else -%}
            {%- do out.append('cast(null as {}) as {}'.format(c[1], c[0])) -%}
        {%- endif -%}
    {%- endfor -%}
    {{- return(out | join(', ')) -}}
{% endmacro %}

{#- No rows, in the columns of the output as a step's CTEs carry it. -#}
{% macro _no_output_rows(settings) %}
        select {% for c in settings.columns %}cast(null as {{ c[1] }}) as {{ c[0] }}, {% endfor %}cast(null as string) as _tl_row, cast(null as timestamp) as _tl_batch
        where false
{%- endmacro %}

{#- One step's select: the statements in order, each over the output as the previous one left
    it (cur_<n>; a statement that reads no input leaves it as it was), then what the step changes: deletions of rows that were there before it, and
    the rows it inserted that are still there (in a task without a delete statement, every row
    it inserted); or, in a compacting step (plan.compact), the whole output after the step,
    into the next generation (with plan.horizon, the output as of it and the changes after it:
    compaction_sql.sql). -#}
{% macro task_step_sql(settings, data, step, step_run, plan) %}
    {%- set columns = settings.columns | map('first') | list -%}
    {%- set n = settings.statements | length -%}
    with
    cur_0 as (
        {%- if settings.reads_output %}
        {{ tideline.task_live_rows_sql(settings, data, ['_tl_row', '_tl_batch'], plan.read_gen, plan.get('runs')) }}
        {%- else %}
        {{ tideline._no_output_rows(settings) }}
        {%- endif %}
    ),
    {%- for st in settings.statements %}
    {%- set before = 'cur_{}'.format(loop.index0) %}
    {%- if not st.get('reads_input', true) %}

    -- statement {{ loop.index }} reads no input: it writes nothing
    {%- if st.kind == 'insert' %}
    ins_{{ loop.index }} as (
        {{ tideline._no_output_rows(settings) }}
    ),
    {%- endif %}

    cur_{{ loop.index }} as (
        select * from {{ before }}
    ){{ ',' if not loop.last }}
    {%- elif st.kind == 'delete' %}

    -- statement {{ loop.index }}: delete
    cur_{{ loop.index }} as (
        select * from {{ before }}
        where {% if st.has_where %}not coalesce(({{ tideline._at_step(settings, st, step, before) }}), false){% else %}false{% endif %}
    ){{ ',' if not loop.last }}
    {%- else %}

    -- statement {{ loop.index }}: insert
    ins_{{ loop.index }} as (
        select
            {{ tideline._inserted_columns(settings, st.columns) }},
            concat('{{ step.time }}|{{ loop.index }}|', md5(to_json(struct(q.*))), '|',
                   row_number() over (partition by to_json(struct(q.*)) order by 1)) as _tl_row,
            {{ tideline.ts(step.time) }} as _tl_batch
        from ({{ tideline._at_step(settings, st, step, before) }}) as q({{ st.columns | join(', ') }})
    ),

    cur_{{ loop.index }} as (
        select * from {{ before }}
        union all
        select * from ins_{{ loop.index }}
    ){{ ',' if not loop.last }}
    {%- endif %}
    {%- endfor %}

    {%- if plan.compact and plan.get('horizon') is not none %}

    -- tasks read this one: the output as of their oldest frontier, then every change after it
    {{ tideline.task_kept_changes_sql(settings, data, step, step_run, plan, n) }}
    {%- elif plan.compact %}

    -- the rows keep the time of the step that inserted them: a reader by commit time sees no change
    select {% for c in columns %}a.{{ c }}, {% endfor %}a._tl_row, 'insert' as _tl_op, a._tl_batch, '{{ step_run }}' as _tl_run, '{{ plan.write_gen }}' as tl_gen
    from cur_{{ n }} as a
    {%- elif settings.statements | selectattr('kind', 'equalto', 'delete') | list | length == 0 %}

    -- inserts only: what the step changes is the rows its statements inserted, and the output as
    -- it was is read once (by the statements that read it), not again to tell its rows apart
    select {% for c in columns %}a.{{ c }}, {% endfor %}a._tl_row, 'insert' as _tl_op, {{ tideline.ts(step.time) }} as _tl_batch, '{{ step_run }}' as _tl_run, '{{ plan.write_gen }}' as tl_gen
    from (
        {%- for st in settings.statements %}
        select * from ins_{{ loop.index }}{{ ' union all' if not loop.last }}
        {%- endfor %}
    ) as a
    {%- else %}

    {{ tideline.task_step_changes_sql(settings, step, step_run, plan, n) }}
    {%- endif %}
{% endmacro %}

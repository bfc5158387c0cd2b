{#- Continual tasks: the steps of a run. The materialization (macros/materializations/continual_task.sql)
    calls these in order.

    STEPS. Each distinct commit time T of the inputs, up to the frontier F
    (macros/internal/frontier.sql, shared with the derivations: the inputs are its feeds), is
    one step, processed in order of T. At step T, `tideline.input(name)` is the rows input
    `name` committed at T; references (any other ref or source) are read whole, as they are now;
    `{{ this }}` is the output through the previous step plus what the earlier statements of
    this step proposed (the seed's one iteration).

    THE FIRST RUN. Its F is the task's creation time I. With snapshot (default) the inputs'
    rows up to I pass through the task as one step at I; without, the output starts empty and
    only commits after I are steps. A --full-refresh replays the same way, from the I kept in
    tl_state: the snapshot step at I, then every later commit time as its own step.

    STORAGE AND COMMIT. <model> is a view over its data table (<model>__tl_data or __tl_data_b:
    macros/internal/data_tables.sql), which holds inserted rows
    (_tl_op 'insert', each with a row id _tl_row) and deletions (_tl_op 'delete', the id of the
    row they delete), each with the step's time (_tl_batch) and the step's id (_tl_run =
    <invocation id>/<step number>). A step is one insert and one commit (a run row in tl_state
    named by the step's id): a step committed fully or not at all, and a rerun continues after
    the last committed step. A task with a delete compacts (macros/internal/generations.sql):
    every compact_every steps, a step writes the whole output after it as inserted rows into
    the next generation (tl_gen) instead of its changes, and the old generation is dropped
    after its commit, so a step scans the live output plus at most compact_every steps of
    changes, whatever the input's history. -#}

{#- The output's live rows: inserted by a committed step, not deleted by one, in generation
    `generation` (none: the live one, looked up when the statement runs). `runs`: the steps
    whose rows count instead of the committed ones (a rebuild's own steps, before its commit).
    `pending_run`: the view a rebuild into a new table swaps in (data_tables.sql). -#}
{% macro task_live_rows_sql(settings, data, extra_columns=['_tl_batch'], generation=none, runs=none, pending_run=none) %}
    {%- set committed = tideline.committed_runs_sql(settings.name, pending_run=pending_run) if runs is none
                        else tideline.string_list(runs)[1:-1] if runs else 'cast(null as string)' -%}
    {%- set gen = "'" ~ generation ~ "'" if generation is not none else 'cast((' ~ tideline.live_generation_sql(settings.name, pending_run) ~ ') as string)' -%}
    {% set sql %}
        select {% for c in settings.columns %}i.{{ c[0] }}, {% endfor %}{{ extra_columns | map('replace', '_tl', 'i._tl') | join(', ') }}
        from {{ data }} as i
        left anti join (
            select _tl_row from {{ data }} where tl_gen = {{ gen }} and _tl_op = 'delete' and _tl_run in ({{ committed }})
        ) as deleted
            on i._tl_row = deleted._tl_row
        where i.tl_gen = {{ gen }} and i._tl_op = 'insert' and i._tl_run in ({{ committed }})
    {% endset %}
    {{- return(sql) -}}
{% endmacro %}

{#- The task's committed state: its creation time I (the first step), the frontier F_prev
    reached (every input has been processed up to it), the live generation and how many
    steps it has had, and the files of its state. -#}
{% macro task_state(settings) %}
    {% set sql %}
        with runs as (
            select batch, watermark, coalesce(generation, 0) as generation, model, {{ tideline.state_file_column() }} as state_file
            from {{ tideline.state_table() }}
            where model = '{{ settings.name }}' and kind = 'run'
        )

        select
            cast(min(batch) as string),
            cast(max(watermark) as string),
            coalesce(max(generation), 0),
            count_if(generation = (select max(generation) from runs)),
            {{ tideline.state_files_sql(settings.name, 'state_file') }}
        from runs
    {% endset %}
    {%- set row = tideline.query_rows(sql)[0] -%}
    {%- set watermarks = {} -%}
    {%- for i in settings.inputs if row[1] -%}{%- do watermarks.update({i.name: row[1]}) -%}{%- endfor -%}
    {{- return({'creation': row[0], 'frontier': row[1], 'watermarks': watermarks,
                'generation': row[2] | int, 'runs_in_generation': row[3] | int, 'state_files': row[4] | int}) -}}
{% endmacro %}

{#- The run's steps: [{'time', 'upto' (true: the snapshot step, every row up to time), 'data'
    (false: the creation of a task without snapshot, nothing to process)}]. -#}
{% macro task_steps(settings, state, frontier, rebuild) %}
    {%- set steps = [] -%}
    {%- set creation = state.creation if state.creation else frontier.frontier -%}
    {%- if rebuild or not state.creation -%}
        {%- set before = frontier.steps | select('le', creation) | list if frontier.steps else [] -%}
        {%- do steps.append({'time': creation, 'upto': true, 'data': settings.snapshot and (before | length > 0)}) -%}
        {%- for t in frontier.steps if t > creation -%}{%- do steps.append({'time': t, 'upto': false, 'data': true}) -%}{%- endfor -%}
    {%- else -%}
        {%- for t in frontier.steps -%}{%- do steps.append({'time': t, 'upto': false, 'data': true}) -%}{%- endfor -%}
    {%- endif -%}
    {{- return(steps) -}}
{% endmacro %}

{#- A statement's text for one step: each input's marker becomes its rows at the step, and a
    read of {{ this }} becomes `current` (the output as the statement sees it). -#}
{% macro _at_step(settings, text, step, current) %}
    {%- set out = {'text': text} -%}
    {%- for i in settings.inputs -%}
        {%- set predicate = i.commit_column ~ (' <= ' if step.upto else ' = ') ~ tideline.ts(step.time) -%}
        {%- do out.update({'text': out.text | replace('/* tideline:step ' ~ i.name ~ ' */ true', predicate)}) -%}
    {%- endfor -%}
    {{- return(out.text | replace(settings.output, current)) -}}
{% endmacro %}

{#- The output's columns `columns` (cast and checked) of an insert's select `q`. -#}
{% macro _inserted_columns(settings, listed) %}
    {%- set out = [] -%}
    {%- for c in settings.columns -%}
        {%- if c[0] in listed -%}
            {%- do out.append(tideline.checked_cast('q.' ~ c[0], c[1], 'tideline: continual task ' ~ settings.name ~ ': inserted column ' ~ c[0] ~ ' is not a ' ~ c[1] ~ ': ') ~ ' as ' ~ c[0]) -%}
        {%- else -%}
            {%- do out.append('cast(null as ' ~ c[1] ~ ') as ' ~ c[0]) -%}
        {%- endif -%}
    {%- endfor -%}
    {{- return(out | join(', ')) -}}
{% endmacro %}

{#- One step's select: the statements in order, each over the output as the previous one left
    it (cur_<n>), then what the step changes: deletions of rows that were there before it, and
    the rows it inserted that are still there; or, in a compacting step (plan.compact), the
    whole output after the step, into the next generation. -#}
{% macro task_step_sql(settings, data, step, step_run, plan) %}
    {%- set columns = settings.columns | map('first') | list -%}
    {%- set n = settings.statements | length -%}
    with
    cur_0 as (
        {%- if settings.reads_output %}
        {{ tideline.task_live_rows_sql(settings, data, ['_tl_row', '_tl_batch'], plan.read_gen, plan.get('runs')) }}
        {%- else %}
        select {% for c in settings.columns %}cast(null as {{ c[1] }}) as {{ c[0] }}, {% endfor %}cast(null as string) as _tl_row, cast(null as timestamp) as _tl_batch
        where false
        {%- endif %}
    ),
    {%- for st in settings.statements %}
    {%- set before = 'cur_' ~ loop.index0 %}
    {%- if st.kind == 'delete' %}

    -- statement {{ loop.index }}: delete
    cur_{{ loop.index }} as (
        select * from {{ before }}
        where {{ 'not coalesce((' ~ tideline._at_step(settings, st.where, step, before) ~ '), false)' if st.where else 'false' }}
    ){{ ',' if not loop.last }}
    {%- else %}

    -- statement {{ loop.index }}: insert
    ins_{{ loop.index }} as (
        select
            {{ tideline._inserted_columns(settings, st.columns) }},
            concat('{{ step.time }}|{{ loop.index }}|', md5(to_json(struct(q.*))), '|',
                   row_number() over (partition by to_json(struct(q.*)) order by 1)) as _tl_row,
            {{ tideline.ts(step.time) }} as _tl_batch
        from ({{ tideline._at_step(settings, st.select, step, before) }}) as q({{ st.columns | join(', ') }})
    ),

    cur_{{ loop.index }} as (
        select * from {{ before }}
        union all
        select * from ins_{{ loop.index }}
    ){{ ',' if not loop.last }}
    {%- endif %}
    {%- endfor %}

    {%- if plan.compact %}

    -- the rows keep the time of the step that inserted them: a reader by commit time sees no change
    select {% for c in columns %}a.{{ c }}, {% endfor %}a._tl_row, 'insert' as _tl_op, a._tl_batch, '{{ step_run }}' as _tl_run, '{{ plan.write_gen }}' as tl_gen
    from cur_{{ n }} as a
    {%- else %}

    select {% for c in columns %}b.{{ c }}, {% endfor %}b._tl_row, 'delete' as _tl_op, {{ tideline.ts(step.time) }} as _tl_batch, '{{ step_run }}' as _tl_run, '{{ plan.write_gen }}' as tl_gen
    from cur_0 as b
    left anti join cur_{{ n }} as a on b._tl_row = a._tl_row
    union all
    select {% for c in columns %}a.{{ c }}, {% endfor %}a._tl_row, 'insert', {{ tideline.ts(step.time) }}, '{{ step_run }}', '{{ plan.write_gen }}'
    from cur_{{ n }} as a
    left anti join cur_0 as b on a._tl_row = b._tl_row
    {%- endif %}
{% endmacro %}

{#- Each insert's select returns as many columns as it names (or as the output has): one
    `describe query` per insert, once per run with steps. -#}
{% macro check_task_inserts(settings) %}
    {%- set step = {'time': '1970-01-01 00:00:00', 'upto': false} -%}
    {%- set empty_output -%}
        (select {% for c in settings.columns %}cast(null as {{ c[1] }}) as {{ c[0] }}{{ ', ' if not loop.last }}{% endfor %} where false)
    {%- endset -%}
    {%- for st in settings.statements if st.kind == 'insert' -%}
        {%- set rows = tideline.query_rows('describe query ' ~ tideline._at_step(settings, st.select, step, empty_output)) -%}
        {%- if rows | length != st.columns | length -%}
            {{ tideline._task_error(settings.name, 'statement ' ~ loop.index, (rows | map('first') | list),
                "a select of " ~ st.columns | length ~ " columns (" ~ st.columns | join(', ') ~ "), not " ~ rows | length) }}
        {%- endif -%}
    {%- endfor -%}
{% endmacro %}

{#- The data table's columns ('name type'): the output's, then the row id, the operation, the
    step's time and id, and the generation. -#}
{% macro task_layout(settings) %}
    {%- set layout = [] -%}
    {%- for c in settings.columns -%}{%- do layout.append(c[0] ~ ' ' ~ c[1]) -%}{%- endfor -%}
    {%- do layout.extend(['_tl_row string', '_tl_op string', '_tl_batch timestamp', '_tl_run string', 'tl_gen string']) -%}
    {{- return(layout) -}}
{% endmacro %}

{% macro create_task_table(settings, data) %}
    {% call statement('create_data', fetch_result=false) %}
        create table {{ data }} ({{ tideline.task_layout(settings) | join(', ') }})
        using {{ tideline.model_file_format(settings.name) }}
        partitioned by (tl_gen)
        {{ tideline.table_properties_sql(tideline.model_file_format(settings.name)) }}
    {% endcall %}
{% endmacro %}

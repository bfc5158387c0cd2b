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

{#- The task's committed state: its creation time I (the first step), the frontier F_prev
    reached (every input has been processed up to it), the live generation and how many
    steps it has had, and the files of its state. -#}
{% macro task_state(settings) %}
    {% set sql %}
        with runs as (
            select batch, watermark, coalesce(generation, 0) as generation, definition, model, {{ tideline.state_file_column() }} as state_file
            from {{ tideline.state_table() }}
            where model = '{{ settings.name }}' and kind = 'run'
        )

        select
            cast(min(batch) as string) as creation,
            cast(max(watermark) as string) as frontier,
            coalesce(max(generation), 0) as generation,
            count_if(generation = (select max(generation) from runs)) as runs_in_generation,
            max_by(definition, batch) as definition,
            {{ tideline.state_files_sql(settings.name, 'state_file') }} as state_files,
            {{ tideline.recorded_recounts_sql(settings.name, 'input', settings.late_row_lookback) }} as recorded
        from runs
    {% endset %}
    {%- set row = tideline.query_rows(sql)[0] -%}
    {%- set watermarks = {} -%}
    {%- for i in settings.inputs if row.frontier -%}{%- do watermarks.update({i.name: row.frontier}) -%}{%- endfor -%}
    {{- return({'creation': row.creation, 'frontier': row.frontier, 'watermarks': watermarks,
                'generation': row.generation | int, 'runs_in_generation': row.runs_in_generation | int, 'state_files': row.state_files | int,
                'definition': row.definition,
                'recorded': tideline.recorded_recounts(row.recorded)}) -}}
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

{#- The output's live rows: inserted by a committed step, not deleted by one, in generation
    `generation` (none: the live one, looked up when the statement runs). `runs`: the steps
    whose rows count instead of the committed ones (a rebuild's own steps, before its commit).
    `pending_run`: the view a rebuild into a new table swaps in (data_tables.sql). `up_to`:
    live as of that step time (the changes after it left out). -#}
{% macro task_live_rows_sql(settings, data, extra_columns=['_tl_batch'], generation=none, runs=none, pending_run=none, up_to=none) %}
    {% set sql %}
        select {% for c in settings.columns %}i.{{ c[0] }}, {% endfor %}{{ extra_columns | map('replace', '_tl', 'i._tl') | join(', ') }}
        from {{ data }} as i
        left anti join (
            select _tl_row from {{ data }} where {{ tideline.task_rows_kept_sql(settings, generation, runs, pending_run) }} and _tl_op = 'delete'{% if up_to is not none %} and _tl_batch <= {{ tideline.ts(up_to) }}{% endif %}
        ) as deleted
            on i._tl_row = deleted._tl_row
        where {{ tideline.task_rows_kept_sql(settings, generation, runs, pending_run, 'i.') }} and i._tl_op = 'insert'{% if up_to is not none %} and i._tl_batch <= {{ tideline.ts(up_to) }}{% endif %}
    {% endset %}
    {{- return(sql) -}}
{% endmacro %}

{#- The rows of the data table that count, as a condition on the table (aliased `alias`): of
    generation `generation` (none: the live one) and of the committed steps (or `runs`, or
    with `pending_run`'s). -#}
{% macro task_rows_kept_sql(settings, generation, runs, pending_run, alias='') %}
    {%- set committed = tideline.committed_runs_sql(settings.name, pending_run=pending_run) if runs is none
                        else tideline.string_list(runs)[1:-1] if runs else 'cast(null as string)' -%}
    {%- set gen = "'{}'".format(generation) if generation is not none else 'cast(({}) as string)'.format(tideline.live_generation_sql(settings.name, pending_run)) -%}
    {{- return('{0}tl_gen = {1} and {0}_tl_run in ({2})'.format(alias, gen, committed)) -}}
{% endmacro %}

{#- Continual tasks: the two ways a run goes through its steps (called by
    macros/materializations/continual_task.sql). -#}

{#- One step: its insert into the data table (when it has data). -#}
{% macro write_task_step(settings, data, step, step_run, plan) %}
    {% call statement('step', fetch_result=false) %}
        insert into {{ data }} partition (tl_gen)
        {{ tideline.task_step_sql(settings, data, step, step_run, plan) }}
    {% endcall %}
    {%- do tideline.checkpoint(settings.name, 'written') -%}
{% endmacro %}

{#- A step's run row: its id, its time, the window it closes, the generation it wrote and the
    task's definition; the run's last step (last_of: the run's frontier) also counts the
    inputs' rows without a commit time and those found behind the watermark. -#}
{% macro task_step_row(settings, step_run, step, lower, watermark, generation, last_of=none) %}
    {{- return({'kind': 'run', 'run_id': step_run, 'batch': step.time, 'lower_limit': lower,
                'upper_limit': step.time, 'watermark': watermark, 'generation': generation,
                'rows_without_load_time': last_of.unplaced.values() | sum if last_of else 0,
                'rows_behind_watermark': last_of.behind.values() | sum(attribute='rows') if last_of else 0,
                'definition': tideline.definition_text(settings.definition)}) -}}
{% endmacro %}

{#- The steps one by one, each committed alone: an incremental run or a first build. A task with a delete compacts every
    compact_every steps, keeping the changes the tasks that read it have not read yet (their
    oldest frontier, looked up at the run's first compaction). -#}
{% macro run_task_steps(settings, data, state, frontier, steps, rebuild) %}
    {%- set generation = {'live': 0 if rebuild else state.generation, 'steps': 0 if rebuild else state.runs_in_generation,
                          'state_files': none if rebuild else state.state_files} -%}
    {%- for step in steps -%}
        {%- set step_run = '{}/{}'.format(tideline.run_id(), loop.index) -%}
        {%- set plan = tideline.generation_plan(generation.live, generation.steps if settings.deletes and step.data else 0, settings.compact_every) -%}
        {%- if plan.compact and 'horizon' not in generation -%}{%- do generation.update({'horizon': tideline.task_readers_horizon(settings.name)}) -%}{%- endif -%}
        {%- do plan.update({'horizon': generation.get('horizon')}) -%}
        {%- if step.data -%}{%- do tideline.write_task_step(settings, data, step, step_run, plan) -%}{%- endif -%}
        {%- set row = tideline.task_step_row(settings, step_run, step, state.frontier if loop.first else loop.previtem.time,
                                             frontier.frontier if loop.last else step.time, plan.write_gen, frontier if loop.last else none) -%}
        {%- do generation.update({'state_files': tideline.commit_run(settings.name, row, tideline.input_state_rows(settings.inputs, frontier.frontier, frontier, settings.late_row_lookback) if loop.last else [],
                                                                     files=generation.state_files)}) -%}
        {%- do tideline.checkpoint(settings.name, 'committed') -%}
        {%- if plan.compact -%}
            {%- do tideline.drop_old_generations(data, plan) -%}
            {%- do generation.update({'live': plan.write_gen, 'steps': 0}) -%}
        {%- endif -%}
        {%- do generation.update({'steps': generation.steps + 1}) -%}
    {%- endfor -%}
{% endmacro %}

{#- An atomic rebuild (a --full-refresh over a data table of the same layout): every step
    writes into the generation after the live one (generations.sql, rebuild_plan), reading the
    output the rebuild's own earlier steps left there; then ONE commit, which replaces the
    task's state with the steps' run rows, makes that generation live, and the old one is
    dropped. Readers see the old output until the commit; a rebuild that dies before it leaves
    tables and state as they were (its rows carry step ids no commit names). Into a new table
    (another layout), it commits under `commit_key`, the pending key, and the materialization
    swaps the view (data_tables.sql); the old table is dropped whole. -#}
{% macro rebuild_task(settings, data, state, frontier, steps, commit_key=none) %}
    {%- set plan = tideline.rebuild_plan(state.generation) -%}
    {%- set written = [] -%}
    {%- set rows = [] -%}
    {%- for step in steps -%}
        {%- set step_run = '{}/{}'.format(tideline.run_id(), loop.index) -%}
        {%- if step.data -%}
            {%- do tideline.write_task_step(settings, data, step, step_run, {'read_gen': plan.read_gen, 'write_gen': plan.write_gen,
                                                                             'compact': false, 'runs': written}) -%}
            {%- do written.append(step_run) -%}
        {%- endif -%}
        {%- do rows.append(tideline.task_step_row(settings, step_run, step, none if loop.first else loop.previtem.time,
                                                    frontier.frontier if loop.last else step.time, plan.write_gen, frontier if loop.last else none)) -%}
    {%- endfor -%}
    {%- do tideline.commit_run(commit_key or settings.name, rows[-1], rows[:-1] + tideline.input_state_rows(settings.inputs, frontier.frontier, frontier, settings.late_row_lookback), replace=true) -%}
    {%- do tideline.checkpoint(settings.name, 'committed') -%}
    {%- if commit_key is none -%}{%- do tideline.drop_old_generations(data, {'read_gen': plan.replaced_gen}) -%}{%- endif -%}
{% endmacro %}

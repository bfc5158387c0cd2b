{#- materialized='continual_task' (seed 002, Materialize): statements that react only to new
    input rows, step by step. The rules live in macros/continual_task/ (statements.sql: the
    model's statements and settings; steps.sql: the steps, the step's select, storage); this
    page is the run:

      settings (a describe per input not in dbt's cache) -> state -> frontier and steps ->
      per insert statement one describe -> per step: one insert, one commit (and every
      compact_every steps of a task with a delete, the drop of the old generation).

    A step commits alone (a run row named <invocation id>/<step>), so a run that dies between
    steps is continued by the rerun after the last committed one. -#}
{% materialization continual_task, adapter='spark' %}
    {%- do tideline.prepare_session(this.identifier) -%}
    {%- do tideline.model_file_format(this.identifier) -%}
    {%- set view = this.incorporate(type='view') -%}
    {%- set settings = tideline.continual_task_settings(this.identifier, sql, view) -%}
    {%- set data = tideline.task_data_relation(this) -%}
    {%- set existing = adapter.get_relation(database=this.database, schema=this.schema, identifier=this.identifier) -%}
    {%- set existing_data = adapter.get_relation(database=this.database, schema=this.schema, identifier=data.identifier) -%}
    {%- set rebuild = should_full_refresh() or existing_data is none -%}

    {#- tl_state: on-run-start creates it, but dbt leaves out a package's hooks when all of its models are disabled -#}
    {%- if adapter.get_relation(database=none, schema=this.schema, identifier='tl_state') is none -%}{%- do tideline.ensure_state_tables() -%}{%- endif -%}
    {{ run_hooks(pre_hooks) }}
    {%- set state = tideline.task_state(settings) -%}
    {%- do tideline.refuse_now_before_watermark(settings.name, state.frontier if not rebuild else none) -%}
    {%- set frontier = tideline.commit_frontier(settings.inputs, {'frontier': none, 'watermarks': {}} if rebuild else state, with_steps=true) -%}
    {%- set steps = tideline.task_steps(settings, state, frontier, rebuild) -%}
    {%- if steps | selectattr('data') | list -%}{%- do tideline.check_task_inserts(settings) -%}{%- endif -%}

    {%- if rebuild -%}
        {#- a rebuild forgets the task's state first (keeping its creation time, which the
            snapshot step recommits): if it dies half-way, the rerun is a first build -#}
        {%- if existing_data is not none -%}{%- do tideline.forget_state(settings.name) -%}{%- endif -%}
        {%- do tideline.create_task_table(settings, data, existing_data) -%}
    {%- endif -%}
    {%- do tideline.create_reader_view(view, existing, tideline.task_live_rows_sql(settings, data), rebuild) -%}

    {%- set generation = {'live': 0 if rebuild else state.generation, 'steps': 0 if rebuild else state.runs_in_generation, 'drops': 0,
                          'state_files': none if rebuild else state.state_files} -%}
    {%- for step in steps -%}
        {%- set step_run = tideline.run_id() ~ '/' ~ loop.index -%}
        {%- set plan = tideline.generation_plan(generation.live, generation.steps if settings.deletes and step.data else 0, settings.compact_every) -%}
        {%- if step.data -%}
            {% call statement('step', fetch_result=false) %}
                insert into {{ data }} partition (tl_gen)
                {{ tideline.task_step_sql(settings, data, step, step_run, plan) }}
            {% endcall %}
            {%- do tideline.checkpoint(settings.name, 'written') -%}
        {%- endif -%}
        {%- set state_files = tideline.commit_run(settings.name, {'kind': 'run', 'run_id': step_run, 'batch': step.time,
            'lower_limit': state.frontier if loop.first else loop.previtem.time, 'upper_limit': step.time,
            'watermark': frontier.frontier if loop.last else step.time, 'generation': plan.write_gen}, files=generation.state_files) -%}
        {%- do generation.update({'state_files': state_files}) -%}
        {%- do tideline.checkpoint(settings.name, 'committed') -%}
        {%- if plan.compact -%}
            {%- do tideline.drop_old_generations(data, plan) -%}
            {%- do generation.update({'live': plan.write_gen, 'steps': 0, 'drops': generation.drops + 1}) -%}
        {%- endif -%}
        {%- do generation.update({'steps': generation.steps + 1}) -%}
    {%- endfor -%}
    {%- set statements = 3 + (settings.statements | selectattr('kind', 'equalto', 'insert') | list | length if steps | selectattr('data') | list else 0)
        + (steps | selectattr('data') | list | length) + (steps | length) + generation.drops -%}
    {{ log("tideline " ~ settings.name ~ ": " ~ steps | length ~ " steps up to " ~ frontier.frontier
        ~ (" (after " ~ state.frontier ~ ")" if state.frontier and not rebuild else " (first run)" if not state.creation else " (replayed from " ~ state.creation ~ ")")
        ~ ", " ~ frontier.documents.values() | sum ~ " input rows, " ~ statements ~ " statements", info=true) }}
    {%- do tideline.store_main('tideline: ' ~ steps | length ~ ' steps') -%}
    {{ run_hooks(post_hooks) }}

    {{ return({'relations': [view]}) }}
{% endmaterialization %}

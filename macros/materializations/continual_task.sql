{#- materialized='continual_task' (seed 002, Materialize): statements that react only to new
    input rows, step by step. The rules live in macros/continual_task/ (statements.sql: the
    model's statements and settings; steps.sql: the steps, the step's select, storage); this
    page is the run:

      settings (a describe per input not in dbt's cache) -> state -> frontier and steps (and
      the versions of each reference read by time travel) ->
      per insert statement one describe -> per step: one insert, one commit (and every
      compact_every steps of a task with a delete, the drop of the old generation).

    A step commits alone (a run row named <invocation id>/<step>), so a run that dies between
    steps is continued by the rerun after the last committed one.

    A --full-refresh over a data table of the same layout is atomic: its steps write into the
    next generation, each reading the output the rebuild's earlier steps left, and one commit
    at the end, which replaces the task's state, makes that generation live (rebuild_task).
    Readers see the old output until then; a rebuild that dies before it changed nothing
    anyone reads. A changed layout needs a new table: the rebuild writes it beside the old one
    the same way, commits under a pending key and swaps the view onto it (data_tables.sql). -#}
{% materialization continual_task, adapter='spark' %}
    {%- do tideline.prepare_session(this.identifier) -%}
    {%- do tideline.refuse_unknown_configs(this.identifier) -%}
    {%- set format = tideline.model_file_format(this.identifier) -%}
    {%- set view = this.incorporate(type='view') -%}
    {%- set settings = tideline.continual_task_settings(this.identifier, view) -%}
    {%- set existing = adapter.get_relation(database=this.database, schema=this.schema, identifier=this.identifier) -%}
    {#- a rebuild of another layout or format writes the other slot and swaps readers onto it (data_tables.sql) -#}
    {%- set tables = tideline.find_data_tables(this, format, should_full_refresh(), tideline.task_layout(settings)) -%}
    {%- set rebuild, beside, data = tables.rebuild, tables.beside, tables.data -%}

    {#- tl_state: on-run-start creates it, but dbt leaves out a package's hooks when all of its models are disabled -#}
    {%- if not tideline.state_table_known() -%}{%- do tideline.ensure_state_tables() -%}{%- endif -%}
    {{ run_hooks(pre_hooks) }}
    {%- do tideline.finish_swap(settings.name, tables) -%}
    {%- set state = tideline.task_state(settings) -%}
    {%- do tideline.refuse_now_before_watermark(settings.name, state.frontier if not rebuild else none) -%}
    {%- if not rebuild -%}{%- do tideline.align_task_columns(settings, state.definition, tables.live) -%}{%- endif -%}
    {%- do tideline.check_definition('continual task', settings.name, state.definition, settings.definition, settings.on_definition_change, rebuild) -%}
    {%- set frontier = tideline.commit_frontier(settings.inputs, {'frontier': none, 'watermarks': {}} if rebuild else state, with_steps=true,
                                                lookback=settings.late_row_lookback) -%}
    {%- do tideline.refuse_unplaced_rows('continual task', settings, settings.inputs, frontier) -%}
    {%- do tideline.refuse_rows_behind_watermark('continual task', settings, settings.inputs, frontier) -%}
    {%- do tideline.quarantine_unplaced_rows(settings, settings.inputs, frontier, view) -%}
    {%- do tideline.quarantine_rows_behind_watermark(settings, settings.inputs, frontier, view) -%}
    {%- set steps = tideline.task_steps(settings, state, frontier, rebuild) -%}
    {%- do settings.update({'reference_versions': tideline.task_reference_versions(settings, steps)}) -%}
    {%- if steps | selectattr('data') | list or rebuild or tables.live is none -%}{%- do tideline.check_task_statements(settings) -%}{%- endif -%}

    {%- if tables.live is none -%}
        {#- a first build: it forgets the state of a table dropped by hand (keeping its creation
            time, which the snapshot step recommits), so that if it dies half-way the rerun is a
            first build too -#}
        {%- if state.creation -%}{%- do tideline.forget_state(settings.name) -%}{%- endif -%}
    {%- endif -%}
    {%- if tables.live is none or beside -%}{%- do tideline.create_task_table(settings, data) -%}{%- endif -%}
    {%- if not beside -%}
        {%- do tideline.create_reader_view(view, existing, tideline.task_live_rows_sql(settings, data), rebuild, data) -%}
    {%- endif -%}

    {%- if beside -%}
        {%- do tideline.rebuild_task(settings, data, state, frontier, steps, tideline.pending_state_key(settings.name)) -%}
        {%- do tideline.swap_data_table(settings.name, view, tideline.task_live_rows_sql(settings, data, pending_run=tideline.run_id()), data, tables.live) -%}
    {%- elif rebuild and tables.live is not none -%}
        {%- do tideline.rebuild_task(settings, data, state, frontier, steps) -%}
    {%- else -%}
        {%- do tideline.run_task_steps(settings, data, state, frontier, steps, rebuild) -%}
    {%- endif -%}
    {%- set since = " (after {})".format(state.frontier) if state.frontier and not rebuild else " (first run)" if not state.creation else " (replayed from {})".format(state.creation) -%}
    {{ log("tideline {}: {} steps up to {}{}, {} input rows{}{}{}".format(settings.name, steps | length, frontier.frontier, since, frontier.documents.values() | sum,
        tideline.unplaced_rows_warning(settings.inputs, frontier), tideline.behind_watermark_warning(settings.inputs, frontier), tideline.task_inputless_note(settings)), info=true) }}
    {%- do tideline.store_main('tideline: {} steps'.format(steps | length)) -%}
    {{ run_hooks(post_hooks) }}

    {{ return({'relations': [view]}) }}
{% endmaterialization %}

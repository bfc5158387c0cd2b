{#- Derivations: the rules of a run. The materialization (macros/materializations/derivation.sql)
    calls these in order: state, frontier, publish columns, the run's select, commit.

    THE ORDER. Every document (a source row of a transform) has a position, compared field by
    field:
      1. greatest(commit time + read delay, F_prev): its time; F_prev is the frontier the
         derivation had reached, so the backlog of a transform added later goes first, at F_prev;
      2. commit time + read delay;
      3. the transform's order_by column (rows committed together);
      4. higher priority first;
      5. the transform's name;
      6. the row's values, column by column in the source's column order, each compared as its
         type compares (10 after 9; a map by its JSON), nulls first (document_order.sql), and
         for identical rows their number: a total order, never a text rendering of the row.
    For each document in that order its update is reduced into the register of its shuffle key,
    then its publish lambda sees the register before (_previous) and after (_register).

    THE FRONTIER. A run processes every document whose time (1.) is at or before the frontier F
    (macros/internal/frontier.sql, shared with the continual tasks; a transform is a feed, its
    read delay the feed's delay), so the same arrivals give the same order whatever the runs
    they are split into.

    Folds are set-wise: Flow's update lambdas never read the register, so every strategy is an
    associative fold, computed with window functions over the new documents of a key, started
    from the stored register.

    STORAGE. Runs append new versions of rows and registers; readers keep the newest committed
    version of each key. The versions live in generations (partition tl_gen). The partition
    columns (tl_part, tl_gen) are strings without a leading underscore: a Hive metastore
    filters partitions by string keys only, and its filter parser rejects names starting
    with `_`. Every
    compact_every runs (default 24) a run also copies the newest version of every key into a
    new generation, commits it as the live one (tl_state.generation), then drops the old one.
    So a run scans at most the live keys plus compact_every runs' worth of versions (the
    mechanism is macros/internal/generations.sql, shared with the continual tasks). -#}

{#- The derivation's committed state: F_prev, the newest batch written, the live generation and
    how many runs wrote to it, each transform's watermark (the newest commit time it has
    processed), the files of its state, the definition its newest run recorded and each
    transform's recount behind its watermark (recorded_recounts, when late_row_lookback is not 0). A rebuild (rebuild=true) starts from nothing but
    the live generation, which its own comes after, and the newest batch, which its rows come
    after (consumers keep watermarks over _tl_batch). -#}
{% macro derivation_state(settings, rebuild) %}
    {%- set state = {'frontier': none, 'batch': none, 'generation': 0, 'runs_in_generation': 0, 'watermarks': {}, 'state_files': none, 'definition': none} -%}
    {% set sql %}
        with runs as (
            select *, {{ tideline.state_file_column() }} as state_file
            from {{ tideline.state_table() }}
            where model = '{{ settings.name }}' and kind in ('run', 'transform')
        )

        select
            kind,
            transform,
            cast(max(watermark) as string) as watermark,
            cast(max(batch) as string) as batch,
            max(generation) as generation,
            count_if(generation = (select max(generation) from runs where kind = 'run')) as runs_in_generation,
            max_by(definition, batch) as definition,
            {{ tideline.state_files_sql(settings.name, 'state_file') }} as state_files,
            {{ tideline.recorded_recounts_sql(settings.name, 'transform', settings.late_row_lookback) }} as recorded
        from runs
        group by kind, transform
    {% endset %}
    {%- for row in tideline.query_rows(sql) -%}
        {%- if row.kind == 'run' -%}
            {%- do state.update({'frontier': row.watermark, 'batch': row.batch, 'generation': row.generation | int,
                                 'runs_in_generation': row.runs_in_generation | int, 'state_files': row.state_files | int,
                                 'definition': row.definition, 'recorded': tideline.recorded_recounts(row.recorded)}) -%}
        {%- else -%}
            {%- do state.watermarks.update({row.transform: row.watermark}) -%}
        {%- endif -%}
    {%- endfor -%}
    {%- if rebuild -%}
        {{- return({'frontier': none, 'batch': state.batch, 'generation': state.generation, 'runs_in_generation': 0, 'watermarks': {}, 'state_files': none}) -}}
    {%- endif -%}
    {{- return(state) -}}
{% endmacro %}

{#- What this run writes: its batch (the frontier, or just after the previous batch when the
    frontier did not move, as when a transform added later reads its backlog: every run's rows
    are newer than the last run's, for readers of the newest version and for downstream
    watermarks), the generation it reads and the one it writes (the next one when it compacts, and
    always on a rebuild: rebuild_plan). -#}
{% macro derivation_plan(settings, state, frontier, rebuild) %}
    {%- set f = tideline.shift_time(frontier.frontier, 0) -%}
    {%- set batch = f if state.batch is none or f > tideline.shift_time(state.batch, 0) else tideline.shift_time(state.batch, 0.000001) -%}
    {%- set plan = tideline.rebuild_plan(state.generation) if rebuild
                   else tideline.generation_plan(state.generation, state.runs_in_generation, settings.compact_every) -%}
    {%- do plan.update({'batch': batch}) -%}
    {{- return(plan) -}}
{% endmacro %}

{#- The run's select: every row it writes to the data table, the derived rows (tl_part 'row',
    or 'set_aside': _derived_row_part) and the registers of the keys it updated (tl_part
    'register'), for one insert. -#}
{% macro derivation_select_sql(settings, state, frontier, plan, publish_columns, data, own=none) %}
    {%- set keys = settings.register_keys -%}
    {%- set publishers = settings.transforms | selectattr('publish') | list -%}
    {%- set committed = tideline.committed_runs_sql(settings.name) -%}
    with
    {{- tideline._derivation_document_ctes(settings, state, frontier, plan, data, own) }}
    {{- tideline._derivation_rows_ctes(settings, plan, data, committed, publishers, publish_columns) }}
    {{ tideline._derivation_output_sql(settings, plan, data, keys, committed, publishers, frontier, own) }}
{% endmacro %}

{#- The run's documents and what their publish lambdas see, as CTEs: each transform's new
    documents (src_<i>; `own`: the pass a transform over the derivation's own documents reads),
    the registers' fold, and each publish lambda's rows (published_<i>). Shared by the run's
    insert and by each pass over its own documents (own_document_passes.sql). -#}
{% macro _derivation_document_ctes(settings, state, frontier, plan, data, own) %}
    {%- set publishers = settings.transforms | selectattr('publish') | list -%}
    {{- tideline._derivation_sources_ctes(settings, state, frontier, own, plan, data) }}
    {{- tideline._derivation_register_ctes(settings, plan, data, settings.register_keys, tideline.committed_runs_sql(settings.name), publishers) if settings.registers }}
    {{- tideline._derivation_publish_ctes(settings, publishers) }}
{%- endmacro %}


{#- materialized='channel' (seed 003, FlightStats Hub mutableTime): a time-keyed table of items
    with a movable mutable_time. The rules live in macros/channel/ (channel.sql: settings,
    state, changes, moves, storage; epochs.sql: the epoch queries); this page is the run:

      settings -> state -> boundary (refuse a forward move) -> change frontier (with changes)
      -> decide: one query (refuse early real-time items, late or bad changes) -> move checks
      (one query, when moving with checks) -> one insert -> one commit -> every compact_every
      runs that write, a compaction of the item dates holding rows no reader keeps (compaction.sql).

    A run writes nothing another reader sees before its commit: every row carries the run id,
    and readers keep rows of committed runs only. The boundary in force is the newest committed
    run's, so readers see the old boundary or the new, never a mix. -#}
{% materialization channel, adapter='spark' %}
    {%- do tideline.prepare_session(this.identifier) -%}
    {%- do tideline.refuse_unknown_configs(this.identifier) -%}
    {%- set format = tideline.model_file_format(this.identifier) -%}
    {%- set settings = tideline.channel_settings(this.identifier) -%}
    {%- set view = this.incorporate(type='view') -%}
    {%- set items = tideline.stored_relation(tideline.channel_items_relation(this), format) -%}
    {%- set existing = adapter.get_relation(database=this.database, schema=this.schema, identifier=this.identifier) -%}
    {%- set existing_items = tideline.find_stored_table(items, format, should_full_refresh()) -%}
    {%- set rebuild = should_full_refresh() or existing_items is none -%}
    {%- if not rebuild -%}
        {%- do tideline.align_channel_payload(settings, existing_items) -%}
        {%- do tideline.refuse_late_changes_without_order(settings, items) -%}
    {%- endif -%}

    {#- tl_state: on-run-start creates it, but dbt leaves out a package's hooks when all of its models are disabled -#}
    {%- if not tideline.state_table_known() -%}{%- do tideline.ensure_state_tables() -%}{%- endif -%}
    {{ run_hooks(pre_hooks) }}

    {#- state and boundary: a rebuild reads every change row, each judged under the boundary in
        force when it was committed (the history its state keeps), then moves to mutable_time -#}
    {%- set empty = {'last_batch': none, 'mutable_time': none, 'realtime_after': none, 'frontier': none, 'watermarks': {}, 'runs': 0, 'state_files': none} -%}
    {%- set stored = tideline.channel_state(settings) -%}
    {%- set state = empty if rebuild else stored -%}
    {%- do tideline.refuse_now_before_watermark(settings.name, state.last_batch) -%}
    {%- set bound = tideline.channel_boundary(settings, items, state) -%}
    {%- set first = state.runs == 0 -%}
    {%- set move = bound.move if not first else ({'from': none, 'to': settings.mutable_time} if settings.mutable_time and settings.changes else none) -%}
    {%- set limits = {'realtime': state.mutable_time if state.mutable_time is not none else bound.boundary,
                      'history': stored.history,
                      'changes': state.mutable_time if state.mutable_time is not none else bound.boundary} -%}

    {#- the change rows up to the frontier (none: nothing to apply) -#}
    {%- set frontier = none -%}
    {%- set reached = tideline.commit_frontier(settings.changes, state, lookback=settings.late_row_lookback) if settings.changes else none -%}
    {%- if reached and reached.documents.values() | sum > 0 -%}{%- set frontier = reached.frontier -%}{%- endif -%}
    {#- change rows committed behind the watermark since the last run read it (behind_watermark.sql) -#}
    {%- if reached -%}{%- do tideline.refuse_rows_behind_watermark('channel', settings, settings.changes, reached) -%}{%- endif -%}

    {#- decide, and refuse before anything is written -#}
    {%- set run = tideline.channel_decide(settings, items, state, frontier, sql, limits) -%}
    {%- do tideline.refuse_channel_inputs(settings, run, limits) -%}
    {%- set failing = tideline.channel_move_checks(settings, items, state, frontier, move, limits) if move else [] -%}
    {%- if failing -%}{%- do tideline.refuse_failed_move_checks(settings, state, failing) -%}{%- endif -%}
    {%- do tideline.checkpoint(settings.name, 'decided') -%}
    {%- do tideline.quarantine_bad_changes(settings, items, state, frontier, limits, view, run) -%}
    {%- if reached -%}{%- do tideline.quarantine_rows_behind_watermark(settings, settings.changes, reached, view) -%}{%- endif -%}

    {%- set boundary_changed = bound.boundary != state.mutable_time -%}
    {%- set has_work = run.realtime_rows > 0 or run.change_rows > 0 or move is not none -%}
    {%- if rebuild -%}
        {#- the state stays until the rebuild's commit replaces it (with the boundary history): a rerun after a crash rebuilds the same way -#}
        {%- if existing_items is not none -%}{%- do adapter.drop_relation(existing_items) -%}{%- endif -%}
        {%- do tideline.create_channel_items(settings, items) -%}
    {%- endif -%}
    {%- do tideline.create_reader_view(view, existing, tideline.channel_view_sql(settings, items), rebuild) -%}

    {%- if has_work or first or boundary_changed -%}
        {%- if has_work and state.last_batch is not none and tideline.now() <= state.last_batch[:19] -%}
            {{ tideline._channel_refusal(settings.name, "now ({} UTC) is not after its last run ({}): the rows of this run would carry a commit time downstream readers have already passed. Run with a later now.".format(
                tideline.now(), state.last_batch)) }}
        {%- endif -%}
        {%- if has_work -%}
            {% call statement('write', fetch_result=false) %}
                insert into {{ items }} partition (item_date)
                {{ tideline.channel_write_sql(settings, items, state, frontier, sql, move, limits) }}
                distribute by item_date
            {% endcall %}
        {%- endif -%}
        {%- do tideline.checkpoint(settings.name, 'written') -%}
        {%- do tideline.commit_run(settings.name, {'kind': 'run', 'batch': tideline.now(),
            'realtime_after': run.realtime_newest or state.realtime_after, 'mutable_time': bound.boundary,
            'watermark': frontier or state.frontier, 'rows_read': run.realtime_rows + run.change_rows,
            'rows_written': run.realtime_items + run.change_rows - run.rejected - run.superseded, 'duplicates_dropped': run.realtime_rows - run.realtime_items,
            'rows_rejected': run.rejected,
            'missing_deletes': run.missing_deletes, 'days_processed': run.change_dates | length,
            'rows_behind_watermark': reached.behind.values() | sum(attribute='rows') if reached else 0,
            'late_rows': run.late_changes, 'late_rows_skipped': run.superseded},
            date_rows=(tideline.channel_move_rows(stored.history) if rebuild else [])
                      + (tideline.input_state_rows(settings.changes, frontier, reached, settings.late_row_lookback) if frontier else []),
            replace=rebuild, files=state.state_files) -%}
        {%- do tideline.checkpoint(settings.name, 'committed') -%}
    {%- endif -%}
    {%- if rebuild -%}{%- do tideline.drop_converted_table(items, format) -%}{%- endif -%}
    {%- set dropped = tideline.channel_retention(settings, items) -%}
    {%- set compacted = none -%}
    {%- if tideline.channel_compaction_due(settings, state.runs + 1, has_work, rebuild) -%}
        {%- set compacted = tideline.compact_channel_items(settings, items, bound.boundary) -%}
        {%- do tideline.checkpoint(settings.name, 'items_compacted') -%}
    {%- endif -%}

    {%- do tideline.log_channel_run(settings, run, frontier, bound.boundary, move, dropped, reached, compacted) -%}
    {%- do tideline.store_main('tideline: {} items and changes'.format(run.realtime_items + run.change_rows)) -%}
    {{ run_hooks(post_hooks) }}

    {{ return({'relations': [view]}) }}
{% endmaterialization %}

{#- Channels (seed 003, FlightStats Hub mutableTime): a time-keyed table of items with a movable
    boundary, mutable_time, between mutable history and stable data. The run is
    macros/materializations/channel.sql; the settings are in settings.sql and time_settings.sql,
    the decide query in changes.sql, the epoch queries in epochs.sql.

    An item is keyed by (item_time, item_id): item_time a UTC timestamp kept to the
    millisecond, item_id given by a column, or for a write without one the id of that write, as
    the Hub gives each write its own key (item_ids.sql).
      * Items AFTER mutable_time are stable (IMMUTABLE): real-time items from the model's own
        select, appended in item-time order, never rewritten.
      * Items AT OR BEFORE mutable_time are mutable (MUTABLE): the change relations insert and
        delete them, in any order, from any number of writers.
      * mutable_time only moves earlier. A move first checks the items about to become stable
        (config checks); then they are copied as stable rows in the same insert as the run's
        other rows, so they reach downstream readers once, by the move's commit time.

    Storage: <channel>__tl_items (parquet, partitioned by item_date) holds versions, appended
    by each run with its run id and commit time (_tl_run, _tl_batch), and two flags:
      _tl_stable   the item's one stable row (a real-time item, or the copy a move made);
      _tl_deleted  a mutable item's deletion.
    A mutable item is its newest committed version; a stable item is its stable row, so the
    channel's view (the IMMUTABLE epoch: what ref() of the channel reads) needs no window and
    is pruned by item_date and _tl_batch. The run's state is its tl_state run row:
      batch           the run's commit time (its now): _tl_batch of every row it wrote;
      mutable_time    mutable_time in force after the run (null: the channel has none);
      realtime_after  the newest real-time arrival read (the select is read after it);
      watermark       the change frontier (change rows are applied up to it, in order);
      missing_deletes deletes of items that did not exist (counted and warned, not applied);
      days_processed  the item dates the run wrote.
    A rebuild also writes one move row per boundary the channel had (kind 'move': batch, the
    commit time from which mutable_time held; mutable_time), so that every run, a rebuild
    too, judges a change row under the boundary in force when it was committed
    (boundary_history.sql).
    (State version 1 kept mutable_time, realtime_after and missing_deletes in upper_limit,
    lower_limit and rows_rejected: state_move.sql.) -#}


{% macro channel_items_relation(relation) %}
    {{- return(relation.incorporate(path={'identifier': '{}__tl_items'.format(relation.identifier)}, type='table')) -}}
{% endmacro %}

{#- The channel's committed state (see the top of this file). -#}
{% macro channel_state(settings) %}
    {% set sql %}
        select
            cast(max(batch) as string) as last_batch,
            cast(max_by(mutable_time, batch) as string) as mutable_time,
            cast(max_by(realtime_after, batch) as string) as realtime_after,
            count_if({{ tideline._channel_row_v1() }}) as rows_v1,
            cast(max(watermark) as string) as frontier,
            count_if(kind = 'run') as runs,
            to_json(array_sort(collect_list(case when mutable_time is not null then named_struct('batch', cast(batch as string), 'mutable_time', cast(mutable_time as string)) end))) as boundaries,
            {{ tideline.state_files_sql(settings.name) }} as state_files,
            {{ tideline.recorded_recounts_sql(settings.name, 'input', settings.changes and settings.late_row_lookback) }} as recorded
        from {{ tideline.state_table() }}
        where model = '{{ settings.name }}' and kind in ('run', 'move')
    {% endset %}
    {%- set row = tideline.query_rows(sql)[0] -%}
    {%- if row.rows_v1 | int > 0 -%}
        {%- do tideline.move_channel_state(settings.name) -%}
        {{- return(tideline.channel_state(settings)) -}}
    {%- endif -%}
    {%- set watermarks = {} -%}
    {%- for c in settings.changes if row.frontier -%}{%- do watermarks.update({c.name: row.frontier}) -%}{%- endfor -%}
    {{- return({'last_batch': row.last_batch, 'mutable_time': tideline._millis_text(row.mutable_time), 'realtime_after': row.realtime_after,
                'frontier': row.frontier, 'watermarks': watermarks, 'runs': row.runs | int, 'state_files': row.state_files | int,
                'history': tideline.channel_boundary_history(fromjson(row.boundaries or '[]')),
                'recorded': tideline.recorded_recounts(row.recorded)}) -}}
{% endmacro %}

{#- A run row of state version 1 (state_move.sql): its channel facts are not in their own columns. -#}
{% macro _channel_row_v1() %}
    {{- return("kind = 'run' and mutable_time is null and realtime_after is null and missing_deletes is null") -}}
{% endmacro %}

{#- 'YYYY-MM-DD HH:MM:SS.ffffff' as the channel writes times: to the millisecond, no zeros. -#}
{% macro _millis_text(text) %}
    {%- if text is none -%}{{ return(none) }}{%- endif -%}
    {%- set millis = '{}.000'.format(text)[20:23] if '.' in text else '000' -%}
    {{- return('{}.{}'.format(text[:19], millis) if millis != '000' else text[:19]) -}}
{% endmacro %}

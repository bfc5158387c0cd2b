{#- Channels (seed 003, FlightStats Hub mutableTime): a time-keyed table of items with a movable
    boundary, mutable_time, between mutable history and stable data. The run is
    macros/materializations/channel.sql; the epoch queries are macros/channel/epochs.sql.

    An item is keyed by (item_time, item_id): item_time a UTC timestamp kept to the
    millisecond, item_id given by a column or the SHA-256 of the item's payload as JSON.
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
      batch        the run's commit time (its now): _tl_batch of every row it wrote;
      upper_limit  mutable_time in force after the run (null: the channel has none);
      lower_limit  the newest real-time arrival read (the select is read after it);
      watermark    the change frontier (change rows are applied up to it, in order);
      rows_rejected deletes of items that did not exist (counted and warned, not applied). -#}

{% macro _channel_error(model_name, setting, value, accepted) %}
    {{ exceptions.raise_compiler_error("tideline: channel " ~ model_name ~ ": " ~ setting ~ " = "
        ~ (value | tojson if value is not string else value) ~ " is invalid; accepted: " ~ accepted) }}
{% endmacro %}

{% macro _channel_refusal(model_name, message) %}
    {{ exceptions.raise_compiler_error("tideline: channel " ~ model_name ~ ": " ~ message) }}
{% endmacro %}

{#- The channel's settings, checked before anything is written. -#}
{% macro channel_settings(model_name) %}
    {%- set fail = tideline._channel_error -%}
    {%- set payload = tideline.declared_columns('channel', model_name, 'columns', config.get('columns'), "{'value': 'int', 'text': 'string'}") -%}
    {%- set names = {} -%}
    {%- for setting, default in [['item_time', 'item_time'], ['item_id', none], ['change_time', 'changed_at'], ['arrival_column', none]] -%}
        {%- set value = config.get(setting, default) -%}
        {%- if value is not none and (value is not string or not modules.re.match('^[A-Za-z_][A-Za-z0-9_]*$', value)) -%}
            {{ fail(model_name, setting, value, "a column name (letters, digits, underscores)") }}
        {%- endif -%}
        {%- do names.update({setting: value | lower if value is not none else none}) -%}
    {%- endfor -%}
    {%- for c in payload if c[0] in [names.item_time, names.item_id, names.arrival_column, 'item_date', 'op', names.change_time] -%}
        {{ fail(model_name, 'columns', c[0], "payload columns other than the item time, the item id, the arrival column, item_date, op and the change time") }}
    {%- endfor -%}

    {%- set raw_time = config.get('mutable_time', none) -%}
    {%- set mutable_time = tideline.parse_utc_time(raw_time) if raw_time is not none else none -%}
    {%- if raw_time is not none and mutable_time is none -%}
        {{ fail(model_name, 'mutable_time', raw_time, "a UTC time written YYYY-MM-DD[ HH:MM[:SS[.fff]]] that exists on the calendar") }}
    {%- endif -%}
    {%- if mutable_time is not none and mutable_time > tideline.now() -%}
        {{ fail(model_name, 'mutable_time', raw_time, "a time in the past (now is " ~ tideline.now() ~ " UTC)") }}
    {%- endif -%}
    {%- set retention = config.get('retention_days', none) -%}
    {%- if retention is not none and (retention is string or retention is boolean or retention is not number or (retention | int) != retention or retention < 1) -%}
        {{ fail(model_name, 'retention_days', retention, "an integer >= 1 (days of items kept), or none") }}
    {%- endif -%}
    {%- if retention is not none and raw_time is not none -%}
        {{ tideline._channel_refusal(model_name, "mutable_time and retention_days cannot be combined: a channel with mutable_time keeps its history for good (as the Hub refuses ttlDays and maxItems)") }}
    {%- endif -%}

    {%- set checks = config.get('checks', {}) -%}
    {%- if checks is not mapping -%}
        {{ fail(model_name, 'checks', checks, "a mapping of check name to a SQL condition every item must meet, e.g. {'value_present': 'value is not null'}") }}
    {%- endif -%}
    {%- for name, condition in checks.items() if not modules.re.match('^[A-Za-z_][A-Za-z0-9_]*$', name) or condition is not string or condition | trim == '' -%}
        {{ fail(model_name, 'checks.' ~ name, condition, "names of letters, digits and underscores, each a SQL condition over the item's columns") }}
    {%- endfor -%}

    {%- set raw_changes = config.get('changes', []) -%}
    {%- if raw_changes is string or raw_changes is mapping or raw_changes is not iterable -%}
        {{ fail(model_name, 'changes', raw_changes, "a list of change relations: models or seeds, or 'source_name.table_name'") }}
    {%- endif -%}
    {%- set changes = [] -%}
    {%- for name in raw_changes -%}
        {%- set relation = tideline._input_relation(name) -%}
        {%- set found = adapter.get_relation(database=relation.database, schema=relation.schema, identifier=relation.identifier) -%}
        {%- if found is none -%}
            {{ fail(model_name, 'changes', name, "existing relations (" ~ relation ~ " does not exist)") }}
        {%- endif -%}
        {%- set columns = tideline.cached_columns(found) or (adapter.get_columns_in_relation(found) | map(attribute='name') | map('lower') | list) -%}
        {%- set needed = ['op', names.item_time, names.change_time] + ([names.item_id] if names.item_id else []) + payload | map('first') | list -%}
        {%- set missing = needed | reject('in', columns) | list -%}
        {%- if missing -%}
            {{ fail(model_name, 'changes', name, "relations with the columns op, " ~ names.item_time ~ ", " ~ names.change_time
                ~ (", " ~ names.item_id if names.item_id else "") ~ " and the payload columns (" ~ found ~ " lacks " ~ missing | join(', ') ~ ")") }}
        {%- endif -%}
        {%- do changes.append({'name': name, 'source': {'rendered': found | string}, 'commit_column': names.change_time, 'delay': 0, 'clock': true}) -%}
    {%- endfor -%}
    {{- return({'name': model_name, 'payload': payload, 'item_time': names.item_time, 'item_id': names.item_id,
                'change_time': names.change_time, 'arrival': names.arrival_column or names.item_time, 'mutable_time': mutable_time, 'retention_days': retention,
                'checks': checks, 'changes': changes}) -}}
{% endmacro %}

{% macro channel_items_relation(relation) %}
    {{- return(relation.incorporate(path={'identifier': relation.identifier ~ '__tl_items'}, type='table')) -}}
{% endmacro %}

{#- The channel's committed state (see the top of this file). -#}
{% macro channel_state(settings) %}
    {% set sql %}
        select
            cast(max(batch) as string),
            cast(max_by(upper_limit, batch) as string),
            cast(max_by(lower_limit, batch) as string),
            cast(max(watermark) as string),
            count(*)
        from {{ tideline.state_table() }}
        where model = '{{ settings.name }}' and kind = 'run'
    {% endset %}
    {%- set row = tideline.query_rows(sql)[0] -%}
    {%- set watermarks = {} -%}
    {%- for c in settings.changes if row[3] -%}{%- do watermarks.update({c.name: row[3]}) -%}{%- endfor -%}
    {{- return({'last_batch': row[0], 'mutable_time': tideline._millis_text(row[1]), 'realtime_after': row[2],
                'frontier': row[3], 'watermarks': watermarks, 'runs': row[4] | int}) -}}
{% endmacro %}

{#- 'YYYY-MM-DD HH:MM:SS.ffffff' as the channel writes times: to the millisecond, no zeros. -#}
{% macro _millis_text(text) %}
    {%- if text is none -%}{{ return(none) }}{%- endif -%}
    {%- set millis = (text ~ '.000')[20:23] if '.' in text else '000' -%}
    {{- return(text[:19] ~ ('.' ~ millis if millis != '000' else '')) -}}
{% endmacro %}

{#- An item's key, from a relation's columns: the item time truncated to the millisecond, and
    the given id or the SHA-256 of the payload as JSON. -#}
{% macro _item_key(settings, alias) %}
    timestamp_millis(unix_millis({{ alias }}.{{ settings.item_time }})) as item_time,
    {{ 'cast(' ~ alias ~ '.' ~ settings.item_id ~ ' as string)' if settings.item_id else 'sha2(' ~ tideline._payload_json(settings, alias) ~ ', 256)' }} as item_id
{%- endmacro %}

{#- The payload as JSON text: the id of an item without one, and the last tie-breaker of order. -#}
{% macro _payload_json(settings, alias=none) %}
    {%- set fields = [] -%}
    {%- for c in settings.payload -%}{%- do fields.append("'" ~ c[0] ~ "', " ~ (alias ~ '.' if alias else '') ~ c[0]) -%}{%- endfor -%}
    {{- return('to_json(named_struct(' ~ fields | join(', ') ~ '))') -}}
{% endmacro %}

{#- The payload columns of a relation `alias`, cast to their declared types (a value that does
    not fit stops the run). -#}
{% macro _item_payload(settings, alias) %}
    {%- for c in settings.payload -%}
    {{ tideline.checked_cast(alias ~ '.' ~ c[0], c[1], 'tideline: channel ' ~ settings.name ~ ': column ' ~ c[0] ~ ' is not a ' ~ c[1] ~ ': ') }} as {{ c[0] }}{{ ',' if not loop.last }}
    {%- endfor -%}
{%- endmacro %}

{#- The committed run ids of the channel, as a subquery. -#}
{% macro _channel_runs(settings) %}
    {{- tideline.committed_runs_sql(settings.name) -}}
{% endmacro %}

{#- The mutable items as committed: the newest committed version of each key, unless it is a
    deletion. `where` narrows the versions read (item_date first, so that it prunes). -#}
{% macro channel_mutable_items_sql(items, model_name, where='true') %}
    select * from (
        select
            *,
            row_number() over (partition by item_date, item_time, item_id order by _tl_batch desc) as tl_newest
        from {{ items }}
        where not _tl_stable and _tl_run in ({{ tideline.committed_runs_sql(model_name) }}) and ({{ where }})
    ) as versions
    where tl_newest = 1 and not _tl_deleted
{%- endmacro %}

{#- The stable items: their stable rows of committed runs. -#}
{% macro channel_stable_items_sql(items, model_name, where='true') %}
    select * from {{ items }}
    where _tl_stable and _tl_run in ({{ tideline.committed_runs_sql(model_name) }}) and ({{ where }})
{%- endmacro %}

{#- The channel's view: its stable items (the IMMUTABLE epoch), what ref() of it reads. -#}
{% macro channel_view_sql(settings, items) %}
    select item_time, item_id, {{ settings.payload | map('first') | join(', ') }}, item_date, _tl_batch, _tl_run
    from ({{ tideline.channel_stable_items_sql(items, settings.name) }}) as stable_items
{%- endmacro %}

{#- The change rows this run applies (after the previous frontier, up to this one), one
    relation after the other, each row keyed and numbered in the order they are applied:
    by change time, then the writer's place in config changes, then deletes before inserts,
    then the payload (so that ties are broken the same way in every run). -#}
{% macro _channel_ops_sql(settings, state, frontier) %}
    {%- for c in settings.changes %}
    select
        {{ tideline._item_key(settings, 'c') }},
        {{ tideline._item_payload(settings, 'c') }},
        lower(c.op) as op,
        c.{{ settings.change_time }} as changed_at,
        {{ loop.index0 }} as writer
    from {{ c.source.rendered }} as c
    where c.{{ settings.change_time }} <= {{ tideline.ts(frontier) }}
        {%- if state.frontier %} and c.{{ settings.change_time }} > {{ tideline.ts(state.frontier) }}{% endif %}
    {{- '\n    union all' if not loop.last }}
    {%- endfor %}
{%- endmacro %}

{#- The CTEs of a run's changes: `ops` (the change rows, ordered per key, each with whether the
    item existed just before it) and `changed` (per key the version the run writes: the last
    op's item, or a deletion of an item that existed). `existing` reads the committed mutable
    versions of the changed keys only (their item dates). -#}
{% macro _channel_changes_ctes(settings, items, state, frontier) %}
    raw_ops as (
        {{ tideline._channel_ops_sql(settings, state, frontier) }}
    ),

    ordered_ops as (
        select
            *,
            to_date(item_time) as item_date,
            row_number() over (
                partition by item_time, item_id
                order by changed_at, writer, case when op = 'delete' then 0 else 1 end, {{ tideline._payload_json(settings) }}
            ) as seq,
            count(*) over (partition by item_time, item_id) as ops_on_key
        from raw_ops
    ),

    existing as (
        {%- if state.runs == 0 %}
        select cast(null as date) as item_date, cast(null as timestamp) as item_time, cast(null as string) as item_id
        where false
        {%- else %}
        select item_date, item_time, item_id
        from ({{ tideline.channel_mutable_items_sql(items, settings.name,
            'item_date in (select distinct to_date(item_time) from raw_ops)') }}) as live
        {%- endif %}
    ),

    ops as (
        select
            o.*,
            case
                when o.seq = 1 then e.item_id is not null
                else lag(o.op) over (partition by o.item_time, o.item_id order by o.seq) = 'insert'
            end as existed,
            e.item_id is not null as existed_before_run
        from ordered_ops as o
        left join existing as e
            on o.item_date = e.item_date and o.item_time = e.item_time and o.item_id = e.item_id
    ),

    changed as (
        select *
        from ops
        where seq = ops_on_key and (op = 'insert' or existed_before_run)
    )
{%- endmacro %}

{#- The real-time rows this run reads: the model's select after the newest arrival read before
    (the arrival column, or the item time), up to now. -#}
{% macro _channel_realtime_sql(settings, state, model_sql) %}
    select {{ tideline._item_key(settings, 'r') }}, {{ tideline._item_payload(settings, 'r') }}, r.{{ settings.arrival }} as tl_arrival
    from ({{ model_sql }}) as r
    where r.{{ settings.arrival }} <= {{ tideline.ts(tideline.now()) }}
        {%- if state.realtime_after %} and r.{{ settings.arrival }} > {{ tideline.ts(state.realtime_after) }}{% endif %}
{%- endmacro %}

{#- The real-time items this run adds: one per key (the last by payload), and none whose key
    is a stable item already (a reloaded row: immutable, counted as a duplicate). -#}
{% macro _channel_realtime_new_sql(settings, items, state) %}
    select r.*
    from (
        select *, row_number() over (partition by item_time, item_id order by {{ tideline._payload_json(settings) }} desc) as tl_copy
        from realtime
    ) as r
    {%- if state.runs > 0 %}
    left anti join (
        {{ tideline.channel_stable_items_sql(items, settings.name, 'item_date in (select distinct to_date(item_time) from realtime)') }}
    ) as s
        on to_date(r.item_time) = s.item_date and r.item_time = s.item_time and r.item_id = s.item_id
    {%- endif %}
    where r.tl_copy = 1
{%- endmacro %}

{#- The run's decision, in one query: what it reads and what it must refuse before writing.
    One row: real-time rows read, their newest time, those at or before mutable_time (min and
    max), real-time duplicates; change rows, those after mutable_time or not insert/delete (a
    count and the first), deletes of items that did not exist, and the item dates the run
    changes. -#}
{% macro channel_decide(settings, items, state, frontier, model_sql, limits) %}
    {%- set now = tideline.now() -%}
    {%- set boundary = limits.realtime -%}
    {%- set after_limit = 'false' if limits.changes_open else 'true' if limits.changes is none else 'item_time > ' ~ tideline.ts(limits.changes) -%}
    {% set sql %}
        with realtime as (
            {{ tideline._channel_realtime_sql(settings, state, model_sql) }}
        ),

        realtime_new as (
            {{ tideline._channel_realtime_new_sql(settings, items, state) }}
        ),

        realtime_counts as (
            select
                count(*) as realtime_rows,
                (select count(*) from realtime_new) as realtime_items,
                cast(max(tl_arrival) as string) as newest,
                {%- if boundary is none %}
                0 as too_early, cast(null as string) as too_early_first, cast(null as string) as too_early_last
                {%- else %}
                count_if(item_time <= {{ tideline.ts(boundary) }}) as too_early,
                cast(min(case when item_time <= {{ tideline.ts(boundary) }} then item_time end) as string) as too_early_first,
                cast(max(case when item_time <= {{ tideline.ts(boundary) }} then item_time end) as string) as too_early_last
                {%- endif %}
            from realtime
        )
        {%- if frontier %},

        {{ tideline._channel_changes_ctes(settings, items, state, frontier) }},

        change_counts as (
            select
                count(*) as change_rows,
                count_if(op not in ('insert', 'delete') or op is null) as bad_ops,
                min(case when op not in ('insert', 'delete') or op is null then coalesce(op, 'null') end) as bad_op,
                count_if({{ after_limit }}) as too_late,
                cast(min(case when {{ after_limit }} then item_time end) as string) as too_late_first,
                count_if(op = 'delete' and not existed) as missing_deletes,
                concat_ws(',', sort_array(collect_set(cast(item_date as string)))) as change_dates
            from ops
        )
        {%- endif %}

        select r.*,
            {%- if frontier %} c.*{% else %} 0 as change_rows, 0 as bad_ops, null as bad_op, 0 as too_late, null as too_late_first, 0 as missing_deletes, '' as change_dates{% endif %}
        from realtime_counts as r
        {%- if frontier %} cross join change_counts as c{% endif %}
    {% endset %}
    {%- set row = tideline.query_rows(sql)[0] -%}
    {{- return({'realtime_rows': row[0] | int, 'realtime_items': row[1] | int, 'realtime_newest': row[2],
                'too_early': row[3] | int, 'too_early_first': row[4], 'too_early_last': row[5],
                'change_rows': row[6] | int, 'bad_ops': row[7] | int, 'bad_op': row[8], 'too_late': row[9] | int,
                'too_late_first': row[10], 'missing_deletes': row[11] | int,
                'change_dates': (row[12] or '').split(',') | reject('equalto', '') | list}) -}}
{% endmacro %}

{#- The refusals of a run's decision, each naming the channel and the values. -#}
{% macro refuse_channel_inputs(settings, run, limits) %}
    {%- if run.too_early > 0 -%}
        {{ tideline._channel_refusal(settings.name, run.too_early ~ " real-time items are at or before mutable_time " ~ limits.realtime
            ~ " (item times " ~ run.too_early_first ~ " to " ~ run.too_early_last ~ "); the model's select brings items after it only, "
            ~ "items at or before it come through the change relations") }}
    {%- endif -%}
    {%- if run.bad_ops > 0 -%}
        {{ tideline._channel_refusal(settings.name, run.bad_ops ~ " change rows have an op other than 'insert' or 'delete' (e.g. "
            ~ run.bad_op ~ ")") }}
    {%- endif -%}
    {%- if run.too_late > 0 -%}
        {{ tideline._channel_refusal(settings.name, run.too_late ~ " change rows are "
            ~ ("for items after mutable_time " ~ limits.changes ~ " (the first at " ~ run.too_late_first ~ "): items after it are stable; "
               ~ "move mutable_time only earlier, and change only items at or before it" if limits.changes is not none
               else "for a channel without mutable_time (the first at " ~ run.too_late_first ~ "): give it a mutable_time to change its history")
            ~ "; nothing was applied") }}
    {%- endif -%}
{% endmacro %}

{#- The items a move makes stable, as they are after this run's changes: the committed mutable
    items in (new, old], less the keys the run changes, plus the run's new versions there. -#}
{% macro _channel_moving_items_sql(settings, items, state, move, has_changes) %}
    {%- set in_range -%}
        item_date >= date'{{ move.to[:10] }}' and item_time > {{ tideline.ts(move.to) }}
        {%- if move.from is not none %}
        and item_date <= date'{{ move.from[:10] }}' and item_time <= {{ tideline.ts(move.from) }}
        {%- endif %}
    {%- endset -%}
    {%- set payload = settings.payload | map('first') | join(', ') -%}
    {%- set parts = [] -%}
    {%- if state.runs > 0 -%}
        {%- set live -%}
            select live.item_time, live.item_id, {{ payload }}, live.item_date
            from ({{ tideline.channel_mutable_items_sql(items, settings.name, in_range) }}) as live
            {%- if has_changes %}
            left anti join changed as c
                on live.item_date = c.item_date and live.item_time = c.item_time and live.item_id = c.item_id
            {%- endif %}
        {%- endset -%}
        {%- do parts.append(live) -%}
    {%- endif -%}
    {%- if has_changes -%}
        {%- do parts.append('select item_time, item_id, ' ~ payload ~ ", item_date from changed where op = 'insert' and " ~ in_range) -%}
    {%- endif -%}
    {%- if not parts -%}
        {%- do parts.append('select item_time, item_id, ' ~ payload ~ ', item_date from ' ~ items ~ ' where false') if state.runs > 0 else none -%}
    {%- endif -%}
    {{- parts | join('\n    union all\n    ') if parts else tideline._no_items_sql(settings) -}}
{%- endmacro %}

{#- No items, typed as the channel's (for a first build, before its table exists). -#}
{% macro _no_items_sql(settings) %}
    select cast(null as timestamp) as item_time, cast(null as string) as item_id,
        {%- for c in settings.payload %} cast(null as {{ c[1] }}) as {{ c[0] }},{% endfor %} cast(null as date) as item_date
    where false
{%- endmacro %}

{#- A move's checks, in one query over the items it makes stable: per check, the items that
    fail it and their time range. Returns the failing checks [[name, count, first, last]]. -#}
{% macro channel_move_checks(settings, items, state, frontier, move) %}
    {%- if not settings.checks -%}{{ return([]) }}{%- endif -%}
    {% set sql %}
        with
        {%- if frontier %}
        {{ tideline._channel_changes_ctes(settings, items, state, frontier) }},
        {%- endif %}

        moving as (
            {{ tideline._channel_moving_items_sql(settings, items, state, move, frontier is not none) }}
        )

        {%- for name, condition in settings.checks.items() %}
        select
            '{{ name }}' as check_name,
            count(*) as failing,
            cast(min(item_time) as string) as first_failing,
            cast(max(item_time) as string) as last_failing
        from moving
        where not coalesce(({{ condition }}), false)
        {{- '\n        union all' if not loop.last }}
        {%- endfor %}
    {% endset %}
    {{- return(tideline.query_rows(sql) | selectattr(1) | list) -}}
{% endmacro %}

{#- Everything a run writes, as one select: real-time items (stable), the changed keys'
    versions (mutable), and the copies a move makes (stable), with the commit columns. -#}
{% macro channel_write_sql(settings, items, state, frontier, model_sql, move) %}
    {%- set now = tideline.now() -%}
    {%- set payload = settings.payload | map('first') | join(', ') -%}
    {%- set commit -%}
        {{ tideline.ts(now) }} as _tl_batch, '{{ tideline.run_id() }}' as _tl_run
    {%- endset -%}
    with
    {%- if frontier %}
    {{ tideline._channel_changes_ctes(settings, items, state, frontier) }},
    {%- endif %}

    realtime as (
        {{ tideline._channel_realtime_sql(settings, state, model_sql) }}
    )

    -- real-time items: stable as they arrive
    select item_time, item_id, {{ payload }}, false as _tl_deleted, true as _tl_stable, {{ commit }}, to_date(item_time) as item_date
    from ({{ tideline._channel_realtime_new_sql(settings, items, state) }}) as r
    {%- if frontier %}

    -- the changed keys: their new version (mutable)
    union all
    select item_time, item_id, {{ payload }}, op = 'delete' as _tl_deleted, false as _tl_stable, {{ commit }}, item_date
    from changed
    {%- endif %}
    {%- if move %}

    -- the items the move makes stable: their stable copy
    union all
    select item_time, item_id, {{ payload }}, false as _tl_deleted, true as _tl_stable, {{ commit }}, item_date
    from ({{ tideline._channel_moving_items_sql(settings, items, state, move, frontier is not none) }}) as moving
    {%- endif %}
{%- endmacro %}

{#- The empty items table, with the channel's columns. -#}
{% macro create_channel_items(settings, items) %}
    {% call statement('create_items', fetch_result=false) %}
        create table {{ items }} (
            item_time timestamp,
            item_id string,
            {%- for c in settings.payload %}
            {{ c[0] }} {{ c[1] }},
            {%- endfor %}
            _tl_deleted boolean,
            _tl_stable boolean,
            _tl_batch timestamp,
            _tl_run string,
            item_date date
        )
        using parquet
        partitioned by (item_date)
    {% endcall %}
{% endmacro %}

{#- The boundary this run leaves, and the move it makes (none, or {'from', 'to'}); refuses a
    forward move, the removal of mutable_time, and a first mutable_time on a channel with
    stable items at or before it. -#}
{% macro channel_boundary(settings, items, state) %}
    {%- set wanted = settings.mutable_time -%}
    {%- set current = state.mutable_time -%}
    {%- if state.runs == 0 or (current is none and wanted is none) -%}
        {{ return({'boundary': wanted, 'move': none}) }}
    {%- endif -%}
    {%- if wanted is none -%}
        {{ tideline._channel_refusal(settings.name, "mutable_time " ~ current ~ " cannot be removed; to make every item stable, move it earlier than the earliest item") }}
    {%- endif -%}
    {%- if current is none -%}
        {#- an existing channel given a mutable_time: only if no stable item is at or before it -#}
        {%- set found = tideline.query_rows("select count(*), cast(max(item_time) as string) from ("
            ~ tideline.channel_stable_items_sql(items, settings.name, "item_date <= date'" ~ wanted[:10] ~ "' and item_time <= " ~ tideline.ts(wanted)) ~ ") as s")[0] -%}
        {%- if found[0] | int > 0 -%}
            {{ tideline._channel_refusal(settings.name, "mutable_time = " ~ wanted ~ " would make " ~ found[0] ~ " stable items (up to "
                ~ found[1] ~ ") mutable again, after downstream models have read them; give it a mutable_time before its earliest item") }}
        {%- endif -%}
        {{ return({'boundary': wanted, 'move': none}) }}
    {%- endif -%}
    {%- if wanted > current -%}
        {{ tideline._channel_refusal(settings.name, "mutable_time can only move earlier: " ~ current ~ " to " ~ wanted
            ~ " is a move forward, which would make stable items mutable again") }}
    {%- endif -%}
    {{- return({'boundary': wanted, 'move': {'from': current, 'to': wanted} if wanted < current else none}) -}}
{% endmacro %}

{#- A channel with retention_days (never with mutable_time): drop the item days before it. -#}
{% macro channel_retention(settings, items) %}
    {%- if settings.retention_days is none -%}{{ return(0) }}{%- endif -%}
    {%- set cutoff = (modules.datetime.datetime.strptime(tideline.now()[:10], '%Y-%m-%d') - modules.datetime.timedelta(days=settings.retention_days)).strftime('%Y-%m-%d') -%}
    {%- set old = [] -%}
    {%- for row in tideline.query_rows('show partitions ' ~ items) -%}
        {%- set day = row[0].split('=')[1] -%}
        {%- if day < cutoff -%}{%- do old.append("partition (item_date = date'" ~ day ~ "')") -%}{%- endif -%}
    {%- endfor -%}
    {%- if old -%}{%- do tideline.exec('alter table ' ~ items ~ ' drop if exists ' ~ old | join(', ')) -%}{%- endif -%}
    {{- return(old | length) -}}
{% endmacro %}

{#- A channel run's SQL (see macros/channel/channel.sql for the model): the real-time rows it
    reads, the change rows it applies and in which order, its one decision query, a move's
    checks, and the one select it writes. -#}

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

{#- The real-time items this run adds: one per key (the first to arrive, then the last by
    payload), and none whose key is a stable item already (a reloaded row: immutable, counted as
    a duplicate), so a rebuild that reads every copy at once keeps the same one. -#}
{% macro _channel_realtime_new_sql(settings, items, state) %}
    select r.*
    from (
        select *, row_number() over (partition by item_time, item_id order by tl_arrival, {{ tideline._payload_json(settings) }} desc) as tl_copy
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


{#- A channel run's SQL (see macros/channel/channel.sql for the model): the real-time rows it
    reads, the change rows it applies (read in change_rows.sql) and in which order, for its one
    decision query (decide.sql) and the one select it writes (write_sql.sql). -#}

{#- The CTEs of a run's changes: `judged_ops` (every change row read, with the boundary in force
    when it was committed, `in_force`, and what is wrong with it, `bad`: 'op' for an op other than
    insert or delete, 'id' for a delete without the id of its item, 'after' for an item after
    that boundary, else null), `ops` (the good rows,
    ordered per key, each with whether the item existed just before it) and `changed` (per key
    the version the run writes: the last op's item, or a deletion of an item that existed). A
    bad row is never applied: under on_bad_rows='fail' the run is refused, under 'quarantine' it
    is set aside (decide.sql). `existing` reads the committed mutable versions of the changed
    keys only (their item dates). `limits`: the materialization's (history, changes). -#}
{% macro _channel_changes_ctes(settings, items, state, frontier, limits) %}
    raw_ops as (
        {{ tideline._channel_ops_sql(settings, state, frontier) }}
    ),

    -- each change row with the boundary in force when it was committed (boundary_history.sql),
    -- and with change_arrival_column the one in force when it was loaded
    in_force_ops as (
        select *, {{ tideline.channel_boundary_at_sql(limits.history, limits.changes, 'changed_at') }} as in_force
            {%- if settings.change_arrival %},
            {{ tideline.channel_boundary_at_sql(limits.history, limits.changes, 'arrived_at') }} as in_force_on_arrival
            {%- endif %}
        from raw_ops
    ),

    judged_ops as (
        select
            *,
            case
                when op not in ('insert', 'delete') or op is null then 'op'
                when item_id is null then 'id'
                when in_force is null or item_time > in_force then 'after'
                {%- if settings.change_arrival %}
                when item_time > in_force_on_arrival then 'stable'
                {%- endif %}
            end as bad
        from in_force_ops
    ),

    {{ tideline._channel_superseded_ctes(settings, items, state) }},

    ordered_ops as (
        select
            *,
            to_date(item_time) as item_date,
            row_number() over (
                partition by item_time, item_id
                order by {{ tideline._change_order_sql('changed_at', 'writer', "case when op = 'delete' then 0 else 1 end", tideline._payload_json(settings)) }}
            ) as seq,
            count(*) over (partition by item_time, item_id) as ops_on_key
        from applied_ops
        where not superseded
    ),

    existing as (
        {%- if state.runs == 0 %}
        select cast(null as date) as item_date, cast(null as timestamp) as item_time, cast(null as string) as item_id
        where false
        {%- else %}
        select item_date, item_time, item_id
        from ({{ tideline.channel_mutable_items_sql(items, settings.name,
            'item_date in (select distinct to_date(item_time) from judged_ops where bad is null)') }}) as live
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
        where seq = ops_on_key
            {%- if not settings.change_order %} and (op = 'insert' or existed_before_run){% endif %}
    )
{%- endmacro %}

{#- The real-time rows this run reads: the model's select after the newest arrival read before
    (the arrival column, or the item time), up to now. -#}
{% macro _channel_realtime_sql(settings, state, model_sql) %}
    select {{ tideline._item_key(settings, 'r', {'kind': 'realtime', 'writer': '', 'at': settings.arrival}) }}, {{ tideline._item_payload(settings, 'r') }}, r.{{ settings.arrival }} as tl_arrival
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

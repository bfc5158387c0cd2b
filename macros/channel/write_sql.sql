{#- Mutable time: the one select a channel run writes. -#}

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
        {%- set inserted -%}
            select item_time, item_id, {{ payload }}, item_date from changed where op = 'insert' and {{ in_range }}
        {%- endset -%}
        {%- do parts.append(inserted) -%}
    {%- endif -%}
    {{- parts | join('\n    union all\n    ') if parts else tideline._no_items_sql(settings) -}}
{%- endmacro %}

{#- No items, typed as the channel's (for a first build, before its table exists). -#}
{% macro _no_items_sql(settings) %}
    select cast(null as timestamp) as item_time, cast(null as string) as item_id,
        {%- for c in settings.payload %} cast(null as {{ c[1] }}) as {{ c[0] }},{% endfor %} cast(null as date) as item_date
    where false
{%- endmacro %}

{#- Everything a run writes, as one select: real-time items (stable), the changed keys'
    versions (mutable), and the copies a move makes (stable), with the commit columns (and, in
    a table that keeps it, each version's change order: items_table.sql). -#}
{% macro channel_write_sql(settings, items, state, frontier, model_sql, move, limits) %}
    {%- set now = tideline.now() -%}
    {%- set payload = settings.payload | map('first') | join(', ') -%}
    {%- set commit -%}
        {{ tideline.ts(now) }} as _tl_batch, '{{ tideline.run_id() }}' as _tl_run
    {%- endset -%}
    with
    {%- if frontier %}
    {{ tideline._channel_changes_ctes(settings, items, state, frontier, limits) }},
    {%- endif %}

    realtime as (
        {{ tideline._channel_realtime_sql(settings, state, model_sql) }}
    )

    -- real-time items: stable as they arrive
    select item_time, item_id, {{ payload }}, false as _tl_deleted, true as _tl_stable, {{ commit }},{{ tideline._channel_order_columns(settings) }} to_date(item_time) as item_date
    from ({{ tideline._channel_realtime_new_sql(settings, items, state) }}) as r
    {%- if frontier %}

    -- the changed keys: their new version (mutable)
    union all
    select item_time, item_id, {{ payload }}, op = 'delete' as _tl_deleted, false as _tl_stable, {{ commit }},{{ tideline._channel_order_columns(settings, 'changed_at', 'writer') }} item_date
    from changed
    {%- endif %}
    {%- if move %}

    -- the items the move makes stable: their stable copy
    union all
    select item_time, item_id, {{ payload }}, false as _tl_deleted, true as _tl_stable, {{ commit }},{{ tideline._channel_order_columns(settings) }} item_date
    from ({{ tideline._channel_moving_items_sql(settings, items, state, move, frontier is not none) }}) as moving
    {%- endif %}
{%- endmacro %}

{#- The change order columns of a version (_tl_changed_at, _tl_writer: null for a stable row),
    each followed by a comma, in a table that keeps them; nothing in one that does not. -#}
{% macro _channel_order_columns(settings, changed_at=none, writer=none) %}
    {%- if not settings.change_order -%}{{ return('') }}{%- endif -%}
    {{- return(' {} as _tl_changed_at, {} as _tl_writer,'.format(changed_at or 'cast(null as timestamp)', writer or 'cast(null as int)')) -}}
{% endmacro %}

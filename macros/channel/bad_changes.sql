{#- Mutable time: change rows a run cannot apply (issue 36, item 6): an op other than insert or
    delete, a delete without the id of its item (item_ids.sql), or an item after the
    mutable_time in force when the row was committed. Each is located by its writer, its item's
    key and its commit time. Per on_bad_rows, the run is refused before anything is written,
    naming the first ('fail', the default), or the other rows are applied and each bad one is
    set aside, once, in <channel>__tl_quarantine with the reason, and counted in the run line
    and the run row's rows_rejected ('quarantine'). So one writer's bad row need not stop every
    writer, and no row is lost without a count. -#}

{#- on_bad_rows of a channel: fail (the default) or quarantine. -#}
{% macro channel_on_bad_rows(model_name) %}
    {{- return(tideline.choice_setting('channel', model_name, 'on_bad_rows', [
        {'value': 'fail', 'means': 'a run with a change row it cannot apply is refused before anything is written, naming the first by its writer, key and commit time'},
        {'value': 'quarantine', 'means': 'the other change rows are applied, and each bad one is set aside once in <channel>__tl_quarantine with the reason and counted'}])) -}}
{% endmacro %}

{#- A change row's location as the decide query reports it (judged_ops' columns; with
    change_arrival_column its load time and the boundary in force then too). -#}
{% macro _change_location(settings) %}
    {%- set fields = ["'writer', writer", "'item_time', cast(item_time as string)", "'item_id', item_id",
                      "'changed_at', cast(changed_at as string)", "'op', op", "'in_force', cast(in_force as string)"] -%}
    {%- if settings.change_arrival -%}
        {%- do fields.extend(["'arrived_at', cast(arrived_at as string)", "'in_force_on_arrival', cast(in_force_on_arrival as string)"]) -%}
    {%- endif -%}
    {{- return('named_struct({})'.format(fields | join(', '))) -}}
{% endmacro %}

{#- That location as text: the writer (the change relation), the item's key, the commit time, the op
    (to_json leaves out a null id or op). -#}
{% macro _change_located(settings, location) %}
    {%- set loaded = ', loaded {}'.format(location.arrived_at) if location.get('arrived_at') else '' -%}
    {{- return("writer {}, item {} {}, committed {}{}, op {}".format(settings.changes[location.writer | int].name, location.item_time,
        location.get('item_id') or '(no id)', location.changed_at, loaded, tideline.shown(location.get('op')))) -}}
{% endmacro %}

{#- Under on_bad_rows='quarantine', the run's bad change rows (judged_ops, the CTE that decides
    which rows are bad, changes.sql), as they are in their relations, set aside in the
    quarantine, each once, with its writer as the feed and the reason. One statement; nothing is
    sent when the run found none. -#}
{% macro quarantine_bad_changes(settings, items, state, frontier, limits, view, run) %}
    {%- if settings.on_bad_rows != 'quarantine' or run.rejected == 0 -%}{{ return(none) }}{%- endif -%}
    {% set found_sql %}
        with {{ tideline._channel_changes_ctes(settings, items, state, frontier, limits) }}
        select
            case writer
                {%- for c in settings.changes %}
                when {{ loop.index0 }} then {{ tideline.literal(c.name) }}
                {%- endfor %}
            end as feed,
            case bad
                when 'op' then 'an op other than insert or delete'
                when 'id' then 'a delete without the id of its item'
                when 'after' then 'an item after the mutable_time in force when it was committed'
                when 'stable' then 'an item a move made stable before the row was loaded'
            end as reason,
            found_row
        from judged_ops
        where bad is not null
    {% endset %}
    {%- do tideline.quarantine_rows(settings.name, view, found_sql) -%}
{% endmacro %}

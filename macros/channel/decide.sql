{#- Mutable time: a run's decision, in one query, and what it refuses before writing. -#}

{#- The run's decision, as one query: what it reads and what it must refuse before writing.
    One row: real-time rows read, their newest time, those at or before mutable_time (min and
    max), real-time duplicates; change rows, those after the mutable_time in force when they were
    committed (limits.history, else limits.changes) or not insert/delete (a count, the first and
    its boundary), with change_arrival_column those for items made stable before they were
    loaded, those loaded late and those superseded (late_changes.sql), deletes of items that did
    not exist, and the item dates the run changes. -#}
{% macro channel_decide_sql(settings, items, state, frontier, model_sql, limits) %}
    {%- set boundary = limits.realtime -%}
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

        {{ tideline._channel_changes_ctes(settings, items, state, frontier, limits) }},

        change_counts as (
            select
                count(*) as change_rows,
                count_if(bad is not null) as rejected,
                count_if(bad = 'op') as bad_ops,
                to_json(min_by({{ tideline._change_location(settings) }}, named_struct('c', changed_at, 'w', writer, 't', item_time, 'i', item_id))
                    filter (where bad = 'op')) as first_bad_op,
                count_if(bad = 'id') as no_ids,
                to_json(min_by({{ tideline._change_location(settings) }}, named_struct('c', changed_at, 'w', writer, 't', item_time, 'i', item_id))
                    filter (where bad = 'id')) as first_no_id,
                count_if(bad = 'after') as too_late,
                to_json(min_by({{ tideline._change_location(settings) }}, named_struct('c', changed_at, 'w', writer, 't', item_time, 'i', item_id))
                    filter (where bad = 'after')) as first_too_late,
                count_if(bad = 'stable') as made_stable,
                to_json(min_by({{ tideline._change_location(settings) }}, named_struct('c', changed_at, 'w', writer, 't', item_time, 'i', item_id))
                    filter (where bad = 'stable')) as first_made_stable,
                {{ tideline._late_changes_count_sql(settings, state) }} as late_changes,
                (select count_if(superseded) from applied_ops) as superseded
            from judged_ops
        ),

        change_effects as (
            select
                count_if(op = 'delete' and not existed) as missing_deletes,
                concat_ws(',', sort_array(collect_set(cast(item_date as string)))) as change_dates
            from ops
        )
        {%- endif %}

        select r.*,
            {%- if frontier %} c.*, e.*{% else %} 0 as change_rows, 0 as rejected, 0 as bad_ops, null as first_bad_op, 0 as no_ids, null as first_no_id, 0 as too_late, null as first_too_late, 0 as made_stable, null as first_made_stable, 0 as late_changes, 0 as superseded, 0 as missing_deletes, '' as change_dates{% endif %}
        from realtime_counts as r
        {%- if frontier %} cross join change_counts as c cross join change_effects as e{% endif %}
    {% endset %}
    {{- return(sql) -}}
{% endmacro %}

{#- The run's decision (channel_decide_sql's one row), as numbers, times and a list of dates. -#}
{% macro channel_decide(settings, items, state, frontier, model_sql, limits) %}
    {%- set row = tideline.query_rows(tideline.channel_decide_sql(settings, items, state, frontier, model_sql, limits))[0] -%}
    {{- return({'realtime_rows': row.realtime_rows | int, 'realtime_items': row.realtime_items | int, 'realtime_newest': row.newest,
                'too_early': row.too_early | int, 'too_early_first': row.too_early_first, 'too_early_last': row.too_early_last,
                'change_rows': row.change_rows | int, 'rejected': row.rejected | int,
                'bad_ops': row.bad_ops | int, 'first_bad_op': fromjson(row.first_bad_op or 'null'),
                'no_ids': row.no_ids | int, 'first_no_id': fromjson(row.first_no_id or 'null'),
                'too_late': row.too_late | int, 'first_too_late': fromjson(row.first_too_late or 'null'),
                'made_stable': row.made_stable | int, 'first_made_stable': fromjson(row.first_made_stable or 'null'),
                'late_changes': row.late_changes | int, 'superseded': row.superseded | int,
                'missing_deletes': row.missing_deletes | int,
                'change_dates': (row.change_dates or '').split(',') | reject('equalto', '') | list}) -}}
{% endmacro %}

{#- The refusals of a run's decision, each naming the channel and the values. -#}
{% macro refuse_channel_inputs(settings, run, limits) %}
    {%- if run.too_early > 0 -%}
        {{ tideline._channel_refusal(settings.name, "{} real-time items are at or before mutable_time {} (item times {} to {}); the model's select brings items after it only, items at or before it come through the change relations".format(
            run.too_early, limits.realtime, run.too_early_first, run.too_early_last)) }}
    {%- endif -%}
    {%- if settings.on_bad_rows == 'quarantine' -%}{{ return(none) }}{%- endif -%}
    {%- set fix = "; nothing was applied. With on_bad_rows='quarantine' the other change rows are applied and such rows set aside in {}__tl_quarantine".format(settings.name) -%}
    {%- if run.bad_ops > 0 -%}
        {{ tideline._channel_refusal(settings.name, "{} change rows have an op other than 'insert' or 'delete' (the first: {}){}".format(
            run.bad_ops, tideline._change_located(settings, run.first_bad_op), fix)) }}
    {%- endif -%}
    {%- if run.no_ids > 0 -%}
        {{ tideline._channel_refusal(settings.name, "{} change rows delete an item without its id (the first: {}): a delete names its item by the id the channel shows for it{}{}".format(
            run.no_ids, tideline._change_located(settings, run.first_no_id),
            '' if settings.item_id else ', in the column configured as item_id (the channel has none)', fix)) }}
    {%- endif -%}
    {%- if run.too_late > 0 and run.first_too_late.in_force is not none -%}
        {{ tideline._channel_refusal(settings.name, "{} change rows are for items after mutable_time {} (the first: {}): items after it are stable; move mutable_time only earlier, and change only items at or before it{}".format(
            run.too_late, tideline._millis_text(run.first_too_late.in_force), tideline._change_located(settings, run.first_too_late), fix)) }}
    {%- elif run.too_late > 0 -%}
        {{ tideline._channel_refusal(settings.name, "{} change rows are for a channel without mutable_time (the first: {}): give it a mutable_time to change its history{}".format(
            run.too_late, tideline._change_located(settings, run.first_too_late), fix)) }}
    {%- endif -%}
    {%- if run.made_stable > 0 -%}
        {{ tideline._channel_refusal(settings.name, "{} change rows were loaded after a move made their items stable (the first: {}, loaded under mutable_time {}): a stable item never changes again{}".format(
            run.made_stable, tideline._change_located(settings, run.first_made_stable), tideline._millis_text(run.first_made_stable.in_force_on_arrival), fix)) }}
    {%- endif -%}
{% endmacro %}

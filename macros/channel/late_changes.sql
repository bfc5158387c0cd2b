{#- Mutable time: change rows loaded late (issue 36, item 4).

    By default a run reads the change rows committed (change_time) after the last run's frontier,
    so a row loaded later with a change time at or before that frontier is never read: the
    recount behind the watermark finds it and refuses or sets it aside (behind_watermark.sql).
    With change_arrival_column (the change relations' load time), a run reads the rows loaded
    since the last run instead, each once, whatever their change time, and applies each where a
    rebuild, which reads every row at once in commit order, applies it:
      - a row for an item after the mutable_time in force when it was committed is bad ('after'),
        and one for an item a move made stable between its commit and its load is bad too
        ('stable'): refused or set aside per on_bad_rows, with its location;
      - a good row whose key's newest version was written by a later op (in the order of
        changes.sql: change time, writer, deletes first, payload) is superseded: the rebuild
        applies it before that op, which overwrites it, so it changes nothing and is counted
        (the run row's late_rows_skipped); any other is applied in its place in that order.
    The items table keeps each version's change time and writer (_tl_changed_at, _tl_writer),
    deletions of items that did not exist included, and a compaction keeps each key's newest
    version even when it is a deletion (compaction.sql), so the comparison holds for any later
    run. -#}

{#- The CTEs `latest_versions` (the newest committed mutable version of each key the run's good
    rows touch, deletions included, with its change order) and `applied_ops` (the good rows of
    judged_ops, each with `superseded`). A table without the change order (an earlier version
    of tideline's), or a first build, supersedes nothing. -#}
{% macro _channel_superseded_ctes(settings, items, state) %}
    {%- if not settings.change_order or state.runs == 0 -%}
    applied_ops as (
        select *, false as superseded
        from judged_ops
        where bad is null
    )
    {%- else -%}
    latest_versions as (
        select item_date, item_time, item_id,
            {{ tideline._change_order_sql('_tl_changed_at', '_tl_writer', 'case when _tl_deleted then 0 else 1 end', tideline._payload_json(settings)) }} as stored_order
        from ({{ tideline.channel_mutable_items_sql(items, settings.name,
            'item_date in (select distinct to_date(item_time) from judged_ops where bad is null)', deletions=true) }}) as versions
    ),

    applied_ops as (
        select
            j.*,
            coalesce(l.stored_order > {{ tideline._change_order_sql('j.changed_at', 'j.writer', "case when j.op = 'delete' then 0 else 1 end", tideline._payload_json(settings, 'j')) }}, false) as superseded
        from judged_ops as j
        left join latest_versions as l
            on to_date(j.item_time) = l.item_date and j.item_time = l.item_time and j.item_id = l.item_id
        where j.bad is null
    )
    {%- endif -%}
{%- endmacro %}

{#- A change op's place in the order ops are applied in, as a struct Spark compares field by
    field: the one definition of that order, for the window of changes.sql's ordered_ops and the
    comparison with the stored newest version (latest_versions). -#}
{% macro _change_order_sql(changed_at, writer, op_rank, payload_json) %}
    {{- return("named_struct('c', {}, 'w', {}, 'd', {}, 'p', {})".format(changed_at, writer, op_rank, payload_json)) -}}
{% endmacro %}

{#- With change_arrival_column: the change rows a run read that were committed at or before the
    frontier of the run before it (loaded late), as a count over applied and bad rows alike
    (judged_ops); none without it. -#}
{% macro _late_changes_count_sql(settings, state) %}
    {%- if not settings.change_arrival or state.frontier is none -%}{{ return('0') }}{%- endif -%}
    {{- return('count_if(changed_at <= {})'.format(tideline.ts(state.frontier))) -}}
{% endmacro %}

{#- change_arrival_column on a channel whose items table was built by an earlier version of
    tideline, without the change order a late row is compared with: refused before anything is
    written, with the fix. -#}
{% macro refuse_late_changes_without_order(settings, items) %}
    {%- if settings.change_arrival and not settings.change_order -%}
        {{ tideline._channel_refusal(settings.name, "change_arrival_column = {} needs {} to keep each version's change time, which a table built by an earlier version of tideline does not; nothing was written. Rebuild it with dbt run --full-refresh --select {}".format(
            settings.change_arrival, items, settings.name)) }}
    {%- endif -%}
{% endmacro %}

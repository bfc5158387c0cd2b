{#- Rows committed behind the watermark: a source row that arrives after a run read its feed up
    to a watermark, carrying a commit time at or before it, is after no later frontier, so no
    run reads it. A loader that commits in commit-time order never writes one (read_delay
    covers a known lag); one that does loses rows silently unless they are counted.

    Each run of a derivation or a continual task counts, per feed, the source rows with a commit
    time in (W - late_row_lookback, W], W the feed's watermark after the run, and records the
    count (recount_rows, from recount_from) in the feed's state row. The next run recounts that
    same range in its frontier query: rows there now that were not then arrived behind the
    watermark (rows_behind_watermark). One scan of late_row_lookback of the commit column per
    feed and run, in the query that already reads the source; rows further behind than the
    lookback, or a range that also lost rows, are not seen. -#}

{#- A feed's part of the frontier query (commit_frontier): a row 'recount' (the recorded range
    counted again; null when nothing is recorded) and a row 'recent' (the range of the new
    watermark), from one scan. '' for tideline's own _tl_batch (its runs commit in order) or
    when the lookback is 0; a writer's clock (a channel's change relations) is recounted: a
    write that lands behind it is what the recount finds. -#}
{% macro _recount_sql(feed, state, lookback) %}
    {%- if not lookback or feed.commit_column == '_tl_batch' -%}{{ return('') }}{%- endif -%}
    {%- set c = feed.commit_column -%}
    {%- set recorded = state.get('recorded', {}).get(feed.name) -%}
    {%- set reached -%}
        greatest({{ tideline.ts(state.watermarks.get(feed.name)) }}, (select f from frontier) - interval {{ feed.delay }} seconds)
    {%- endset -%}
    {% set sql %}
        union all
        select stack(2, 'recount', '{{ feed.name }}', cast(again as string), 'recent', '{{ feed.name }}', cast(recent as string))
        from (
            select
                {%- if recorded %}
                count_if({{ c }} > {{ tideline.ts(recorded.recount_from) }} and {{ c }} <= {{ tideline.ts(recorded.watermark) }}) as again,
                {%- else %}
                cast(null as bigint) as again,
                {%- endif %}
                count_if({{ c }} > {{ reached }} - interval {{ lookback }} seconds and {{ c }} <= {{ reached }}) as recent
            from {{ feed.source.rendered }}
            where {{ c }} > least({{ reached }} - interval {{ lookback }} seconds, {{ tideline.ts(recorded.recount_from if recorded else none) }})
                and {{ c }} <= greatest({{ reached }}, {{ tideline.ts(recorded.watermark if recorded else none) }})
        ) as recount
    {% endset %}
    {{- return(sql) -}}
{% endmacro %}

{#- A feed's state columns of the recount: the range of its new watermark and the rows there
    (recount_from, recount_rows; null when it was not counted) and the rows found behind its
    old one (rows_behind_watermark). -#}
{% macro feed_recount_columns(feed, watermark, frontier, lookback) %}
    {%- set counted = feed.name in frontier.recent -%}
    {{- return({'recount_from': tideline.shift_time(watermark, -lookback) if counted else none,
                'recount_rows': frontier.recent[feed.name] if counted else none,
                'rows_behind_watermark': frontier.behind.get(feed.name, {}).get('rows', 0)}) -}}
{% endmacro %}

{#- What the frontier query's recount found behind each feed's recorded watermark ({feed: {rows,
    recount_from, watermark, then, now, read_at}}, feeds with none left out). -#}
{% macro behind_watermark_found(state, recount) %}
    {%- set found = {} -%}
    {%- for feed, now in recount.items() if now is not none and feed in state.get('recorded', {}) -%}
        {%- set recorded = state.recorded[feed] -%}
        {%- if now > recorded.recount_rows -%}
            {%- do found.update({feed: {'rows': now - recorded.recount_rows, 'recount_from': recorded.recount_from,
                                        'watermark': recorded.watermark, 'then': recorded.recount_rows, 'now': now,
                                        'read_at': recorded.read_at}}) -%}
        {%- endif -%}
    {%- endfor -%}
    {{- return(found) -}}
{% endmacro %}

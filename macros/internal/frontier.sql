{#- The frontier: how far a run that reads sources by commit time may go, so that any split of
    the same arrivals into runs processes them in the same order. Shared by the derivations
    (macros/derivation/) and the continual tasks (macros/continual_task/).

      F = greatest(F_prev, least(now, min over feeds whose source has rows of
                                       (newest commit time + the feed's delay)))

    A source's newest commit time bounds what it can still receive (commits arrive in
    commit-time order: tideline's _tl_batch always does, a loader's load_tstamp does), so a row
    that arrives later is after F. An empty source does not hold the others back. A feed whose
    commit column is its writer's clock at the time it writes (clock: true: a channel's change
    relations, a derivation's transform declared so) reaches now: whatever it writes later
    carries a later time, so an idle writer does not hold the others back either, and a read
    delay is released by the clock.

    `feeds`: [{name, source: {rendered}, commit_column, delay (seconds), clock (optional),
    counted (optional, default true: rows without a commit time are counted)}]; `state`: {frontier
    (F_prev or none), watermarks: {feed name: newest commit time it processed}}. One query;
    returns {'frontier', 'documents': {feed: rows up to F}, 'steps': [distinct commit times up
    to F, oldest first] (with_steps only), 'unplaced': {feed: rows whose commit time is null},
    'recent' and 'behind': each feed's recount behind its watermark, over `lookback` seconds
    (behind_watermark.sql; state.recorded holds the last run's), with the rows found there
    located (behind_watermark_rows.sql)}.

    Feeds that read the same relation the same way (the same commit column, delay, watermark and
    recorded recount: two transforms of one source) are read once, and their answer given to
    each (distinct_feed_reads).

    A row without a commit time is after no frontier, so no run ever reads it: each run counts
    them (the run line warns, the state records them as rows_without_load_time), for every feed
    but those with counted false and tideline's own tables (_tl_batch is never null), in the same scan
    that finds the newest commit time: `c > watermark or c is null` still skips the files whose
    statistics hold neither (parquet's, Delta's and Iceberg's null counts), so the count costs
    no more reads than the watermark's filter, not the history. -#}
{% macro commit_frontier(feeds, state, with_steps=false, lookback=0) %}
    {%- set read = tideline.distinct_feed_reads(feeds, state) -%}
    {% set sql %}
        with newest as (
            {%- for t in read.feeds %}
            {%- set counted = t.get('counted', true) and t.commit_column != '_tl_batch' %}
            {%- if t.get('clock') and not counted %}
            select {{ loop.index0 }} as i, '{{ t.name }}' as feed, {{ tideline.ts(tideline.now()) }} as reaches, 0 as unplaced
            {%- else %}
            select {{ loop.index0 }} as i, '{{ t.name }}' as feed,
                {% if t.get('clock') %}{{ tideline.ts(tideline.now()) }}{% else %}greatest({{ tideline.ts(state.watermarks.get(t.name)) }}, max({{ t.commit_column }})) + interval {{ t.delay }} seconds{% endif %} as reaches,
                {{ 'count_if({} is null)'.format(t.commit_column) if counted else '0' }} as unplaced
            from {{ t.source.rendered }}
            {%- if state.watermarks.get(t.name) %}
            where {{ t.commit_column }} > {{ tideline.ts(state.watermarks[t.name]) }}{% if counted %} or {{ t.commit_column }} is null{% endif %}
            {%- endif %}
            {%- endif %}
            {{- '\n            union all' if not loop.last }}
            {%- endfor %}
        ),

        frontier as (
            select greatest({{ tideline.ts(state.frontier) }}, least({{ tideline.ts(tideline.now()) }}, min(reaches))) as f
            from newest
        )

        select 'frontier' as kind, 'frontier' as feed, cast(f as string) as value from frontier
        {%- for t in read.feeds %}
        {%- set new_rows %}
        from {{ t.source.rendered }}
        where {{ t.commit_column }} + interval {{ t.delay }} seconds <= (select f from frontier)
            {%- if state.watermarks.get(t.name) %} and {{ t.commit_column }} > {{ tideline.ts(state.watermarks[t.name]) }}{% endif %}
        {%- endset %}
        union all
        select 'documents', '{{ t.name }}', cast(count(*) as string)
        {{ new_rows }}
        {%- if with_steps %}
        union
        select distinct 'step', 'step', cast({{ t.commit_column }} as string)
        {{ new_rows }}
        {%- endif %}
        {%- endfor %}
        {%- for t in read.feeds %}
        {{ tideline._recount_sql(t, state, lookback) }}
        {%- endfor %}
        union all
        select 'unplaced', feed, cast(unplaced as string) from newest where unplaced > 0
    {% endset %}
    {%- set result = {'frontier': none, 'documents': {}, 'steps': [], 'unplaced': {}, 'recent': {}} -%}
    {%- set recount = {} -%}
    {%- for row in tideline.query_rows(sql) -%}
        {%- for feed in read.alike.get(row.feed, [row.feed]) -%}
            {%- if row.kind == 'frontier' -%}{%- do result.update({'frontier': row['value']}) -%}
            {%- elif row.kind == 'documents' -%}{%- do result.documents.update({feed: row['value'] | int}) -%}
            {%- elif row.kind == 'unplaced' -%}{%- do result.unplaced.update({feed: row['value'] | int}) -%}
            {%- elif row.kind == 'recent' -%}{%- do result.recent.update({feed: row['value'] | int}) -%}
            {%- elif row.kind == 'recount' -%}{%- do recount.update({feed: row['value'] | int if row['value'] is not none else none}) -%}
            {%- elif feed == row.feed -%}{%- do result.steps.append(row['value']) -%}{%- endif -%}
        {%- endfor -%}
    {%- endfor -%}
    {%- do result.update({'steps': result.steps | sort, 'behind': tideline.located_behind_watermark(feeds, tideline.behind_watermark_found(state, recount))}) -%}
    {{- return(result) -}}
{% endmacro %}

{#- The feeds the frontier query reads: one of each set of feeds that read the same relation the
    same way (source, commit column, delay, clock, counted, watermark, recorded recount), and
    {'feeds': [those], 'alike': {the one read's name: [the names of every feed of its set]}}. -#}
{% macro distinct_feed_reads(feeds, state) %}
    {%- set read = {'feeds': [], 'alike': {}} -%}
    {%- set first_of = {} -%}
    {%- for t in feeds -%}
        {%- set recorded = state.get('recorded', {}).get(t.name) or {} -%}
        {%- set how = [t.source.rendered, t.commit_column, t.delay, t.get('clock', false), t.get('counted', true),
                       state.watermarks.get(t.name), recorded.get('recount_from'), recorded.get('watermark')] | join('|') -%}
        {%- if how in first_of -%}
            {%- do read.alike[first_of[how]].append(t.name) -%}
        {%- else -%}
            {%- do first_of.update({how: t.name}) -%}
            {%- do read.feeds.append(t) -%}
            {%- do read.alike.update({t.name: [t.name]}) -%}
        {%- endif -%}
    {%- endfor -%}
    {{- return(read) -}}
{% endmacro %}

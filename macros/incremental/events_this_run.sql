{#- The source events of a run's window (events_this_run) and the ids whose copies it ranks. -#}

{#- The source events of this run's window, one row per event_id, with the source's columns.

    Duplicates are resolved here, deterministically, and the first copy in first_copy_order()
    wins, among the window's copies and those loaded before it within
    tideline__dedupe_lookback_days (partition-pruned on load_date). A copy loaded before the
    window ranks first (first_copy_order() starts with load_tstamp), so an event_id already
    loaded is not kept again.

    Most event_ids have one copy. So the copies are not ranked all: one aggregation of the
    event_ids alone (repeated_ids: the ids with more than one copy in that range) finds the few
    that need it, and is broadcast to both reads of the source (hinted: without the hint the
    second read, of every copy in the range, was shuffled whole for a sort-merge semi join and
    the write took 2.6 times as long). An event_id not in it is kept as it is read, without a
    shuffle of its row; the copies of the repeated ones, and only those, are ranked. The cost
    is one grouping of ids, not a shuffle of every row by event_id and an anti join of them.
    Rows without an event_id are left out (and counted as rejected). The two markers are
    replaced by the run's limits. The source's columns are listed (one describe) so that Spark
    reads only the columns a query uses. -#}
{% macro events_this_run() %}
    {%- set events = source('tideline', 'events') -%}
    {%- set columns = tideline.source_columns(events) if execute else ['*'] -%}
    {%- set markers = tideline._run_window_markers() -%}
    (
        select /*+ broadcast(repeated) */ {{ tideline._qualified(columns, 'single') }}
        from {{ events }} as single
        left anti join {{ tideline._repeated_event_ids(events) }} as repeated
        on single.event_id = repeated.event_id
        where {{ markers[0] }} and {{ markers[1] }} and single.event_id is not null
        union all
        select {{ columns | join(', ') }}
        from (
            select /*+ broadcast(repeated) */
                {{ tideline._qualified(columns, 'copies') }},
                {{ markers[1] }} as in_window,
                row_number() over (partition by copies.event_id order by {{ tideline._qualified(tideline.first_copy_columns(), 'copies') }}) as copy_rank
            from {{ events }} as copies
            left semi join {{ tideline._repeated_event_ids(events) }} as repeated
            on copies.event_id = repeated.event_id
            where {{ markers[0] }}
        ) as ranked
        where copy_rank = 1 and in_window
    ) as events_this_run
{%- endmacro %}

{#- The event_ids with more than one copy among the window's and those loaded before it: the
    ones whose copies events_this_run() ranks. -#}
{% macro _repeated_event_ids(events) %}
    (
        select event_id
        from {{ events }}
        where {{ tideline._run_window_markers()[0] }} and event_id is not null
        group by event_id
        having count(*) > 1
    )
{%- endmacro %}

{#- `columns` prefixed with `alias`, comma-separated. -#}
{% macro _qualified(columns, alias) %}
    {%- set qualified = [] -%}
    {%- for c in columns -%}{%- do qualified.append(c if c == '*' else '{}.{}'.format(alias, c)) -%}{%- endfor -%}
    {{- qualified | join(', ') -}}
{% endmacro %}

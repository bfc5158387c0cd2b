{#- The source events of a run's window, and the decide query of tl_filtered_events. -#}

{#- The source events of this run's window, one row per event_id, with the source's columns.

    Duplicates are resolved here, deterministically: the window's copies are ranked per event_id
    in first_copy_order() and the first is kept, unless the event_id was loaded before the
    window (within tideline__dedupe_lookback_days of it, partition-pruned on load_date): one
    anti join against the event_ids alone of those earlier loads. Since first_copy_order()
    starts with load_tstamp, this is the first copy of all of them (a copy loaded before the
    window would rank first: a window copy of an event_id already loaded loses to it, whatever
    its derived_tstamp), at the cost of reading the earlier loads' ids only, not their rows.
    Rows without an event_id are left out (and counted as rejected). The two markers are
    replaced by the run's limits. The source's columns are listed (one describe) so that Spark
    reads only the columns a query uses. -#}
{% macro events_this_run() %}
    {%- set events = source('tideline', 'events') -%}
    {%- set columns = tideline.source_columns(events) if execute else ['*'] -%}
    (
        select {{ columns | join(', ') }}
        from (
            select
                {{ columns | join(', ') }},
                row_number() over (partition by event_id order by {{ tideline.first_copy_order() }}) as copy_rank
            from {{ events }}
            where /* tideline: the window and the copies loaded before it */ true and /* tideline: in the window */ true
        ) as copies
        left anti join (
            select event_id
            from {{ events }}
            where /* tideline: the window and the copies loaded before it */ true and not (/* tideline: in the window */ true)
        ) as loaded_before
        on copies.event_id = loaded_before.event_id
        where copy_rank = 1 and copies.event_id is not null
    ) as events_this_run
{%- endmacro %}

{#- The model's rows for this run, with the commit columns. -#}
{% macro _filtered_events_for_window(model_sql, lower, upper_sql, upper_date) %}
    {% set select_sql %}
        select *, {{ upper_sql }} as _tl_batch, '{{ tideline.run_id() }}' as _tl_run
        from ({{ tideline.with_run_window(model_sql, lower, upper_sql, upper_date) }}) as filtered
    {% endset %}
    {{- return(select_sql) -}}
{% endmacro %}

{#- Step 2: the run limits and the run's counts, in one query: one aggregation of the window's
    facts, by event date and in total. Returns the window's facts (window_facts) with 'dates':
    [[event_date, new_rows, late_rows], ...] and 'rows_written'. -#}
{% macro filtered_events_decide(lower) %}
    {% set sql %}
        with {{ tideline.run_window_ctes(lower) }},

        window_totals as (
            select
                grouping(event_date) = 1 as is_total,
                event_date,
                sum(new_rows) as new_rows,
                sum(late_rows) as late_rows,
                {{ tideline.window_totals_sql() | indent(16) }}
            from window_events
            group by grouping sets ((event_date), ())
        )

        select
            case when is_total then 'run' else 'date' end as kind,
            cast(event_date as string) as event_date, new_rows, late_rows,
            {{ tideline.window_columns_sql() | indent(12) }}
        from window_totals
        cross join limits
        where is_total or event_date is not null
    {% endset %}
    {%- set rows = tideline.query_rows(sql) -%}
    {%- set run = tideline.window_facts(rows | selectattr('kind', 'equalto', 'run') | first) -%}
    {%- set dates = [] -%}
    {%- for r in rows if r.kind == 'date' -%}{%- do dates.append([r.event_date, r.new_rows | int, r.late_rows | int]) -%}{%- endfor -%}
    {%- do run.update({'rows_written': dates | sum(attribute=1), 'dates': dates | sort(attribute=0)}) -%}
    {{- return(run) -}}
{% endmacro %}

{#- The run window of the source events: the window's markers in a model's SQL, and the CTEs
    that read one window (its limits, its copies by event_id, its counts), shared by
    tl_filtered_events and a daily aggregate over source_events(). -#}

{#- The markers of events_this_run(). -#}
{% macro _run_window_markers() %}
    {{- return(['/* tideline: the window and the copies loaded before it */ true', '/* tideline: in the window */ true']) -}}
{% endmacro %}

{#- `sql` with the markers of events_this_run() replaced by this run's window (`upper_sql` a
    timestamp literal, or the limits' scalar subquery inside the decide query): the window's
    rows and the rows loaded before it within the dedupe lookback, in one partition range. -#}
{% macro with_run_window(sql, lower, upper_sql, upper_date) %}
    {%- set lookback = tideline.var_int('tideline__dedupe_lookback_days', 0) -%}
    {%- set copies -%}
        load_date between date_sub(date'{{ lower[1] }}', {{ lookback }}) and date'{{ upper_date }}'
        and (
            ({{ tideline.in_run_window(lower, upper_sql, upper_date) }})
            or (load_date <= date'{{ lower[1] }}' and load_tstamp <= {{ lower[0] }})
        )
    {%- endset -%}
    {%- set in_window -%}
        load_tstamp > {{ lower[0] }}
    {%- endset -%}
    {%- set markers = tideline._run_window_markers() -%}
    {{- return(sql | replace(markers[0], copies) | replace(markers[1], in_window)) -}}
{% endmacro %}

{#- The CTEs that read one run window of the source, shared by the decide query of
    tl_filtered_events and that of a daily aggregate over source_events():
      limits        the run limits (limits_sql) and the load checks;
      copies_by_id  one row per event_id of the window's copies: its first copy in
                    first_copy_order() (min of a struct that starts with first_copy_columns():
                    the copy events_this_run() ranks first), and how many of its copies, and
                    the newest, the window holds;
      loaded_before the event_ids loaded before the window (within the dedupe lookback, as
                    events_this_run() reads them): their ids alone, whose window copies lose;
      window_events what the run counts of each event_id, in the columns the decide queries
                    sum (window_event_columns): the event's date and 1 in new_rows when the
                    window keeps it (a first copy of the window, usable and wanted, as
                    source_events() keeps it), late_rows when it was loaded after its date, the
                    first load time, and its share of the run's counts (window_totals_sql). One
                    row of nulls more, so that the totals exist for an empty window too.
    The decide queries aggregate window_events once, by event date and in total (grouping sets):
    one grouping of the window by event_id and one aggregation serve the dates and the counts,
    where ranking the copies and counting dates and totals apart made twice the Spark jobs. -#}
{% macro run_window_ctes(lower) %}
    {%- set upper_sql = tideline.window_upper_sql(lower) -%}
    {%- set order = tideline.first_copy_columns() -%}
    {%- set others = tideline.required_source_columns().keys() | reject('in', order + ['event_id']) | list -%}
    {%- set markers = tideline._run_window_markers() -%}
        limits as (
            {{ tideline.limits_sql(lower) }}
        ),

        copies_by_id as (
            select
                event_id,
                min(struct({{ (order + others) | join(', ') }})) as first_copy,
                count(*) as window_copies,
                max(load_tstamp) as newest_load
            from {{ source('tideline', 'events') }}
            where {{ tideline.with_run_window('{} and {}'.format(markers[0], markers[1]), lower, upper_sql, tideline.now()[:10]) }}
            group by event_id
        ),

        loaded_before as (
            select distinct event_id
            from {{ source('tideline', 'events') }}
            where {{ tideline.with_run_window('{} and not ({})'.format(markers[0], markers[1]), lower, upper_sql, tideline.now()[:10]) }}
        ),

        window_events as (
            select
                case when kept then to_date(derived_tstamp) end as event_date,
                case when kept then 1 else 0 end as new_rows,
                case when kept and load_date > to_date(derived_tstamp) then 1 else 0 end as late_rows,
                case when kept then load_tstamp end as first_load,
                window_copies as rows_read,
                case when event_id is null then window_copies else 0 end as rows_without_id,
                newest_load,
                case when first_in_window then 1 else 0 end as events,
                case when first_in_window and derived_tstamp is null then 1 else 0 end as without_time
            from (
                select
                    *,
                    first_in_window
                        and {{ tideline.usable_event_predicate() }}
                        and {{ tideline.filtered_events_predicate() }} as kept
                from (
                    select
                        copies_by_id.event_id, window_copies, newest_load, first_copy.*,
                        copies_by_id.event_id is not null and loaded_before.event_id is null as first_in_window
                    from copies_by_id
                    left join loaded_before on copies_by_id.event_id = loaded_before.event_id
                ) as first_copies
            ) as judged
            union all
            select {% for c in tideline.window_event_columns() %}null as {{ c }}{{ ', ' if not loop.last }}{% endfor %}
        )
{%- endmacro %}

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
      copies_by_id  one row per event_id with a copy in the window: its first copy among the
                    window's copies and those loaded before it within the dedupe lookback (as
                    events_this_run() reads them), the min of a struct that starts with
                    first_copy_columns() (the copy events_this_run() ranks first: a copy loaded
                    before the window has the earlier load_tstamp, so the window's copies of an
                    id already loaded lose), with what the run needs of it judged row by row
                    (in the window, usable and wanted, its event date); and how many of the id's
                    copies, and the newest, the window holds;
      window_events what the run counts of each event_id, in the columns the decide queries
                    sum (window_event_columns): the event's date and 1 in new_rows when the
                    window keeps it (a first copy of the window, usable and wanted, as
                    source_events() keeps it), late_rows when it was loaded after its date, the
                    first load time, and its share of the run's counts (window_totals_sql). One
                    row of nulls more, so that the totals exist for an empty window too.
    One scan of the source's range and one grouping by event_id serve the ids loaded before and
    the window's copies: the window's copies grouped apart and joined with the earlier loads'
    ids read the range twice and shuffled it three times. The decide queries aggregate
    window_events once, by event date and in total (grouping sets). -#}
{% macro run_window_ctes(lower) %}
    {%- set upper_sql = tideline.window_upper_sql(lower) -%}
    {%- set markers = tideline._run_window_markers() -%}
    {%- set in_window = tideline.with_run_window(markers[1], lower, upper_sql, tideline.now()[:10]) -%}
        limits as (
            {{ tideline.limits_sql(lower) }}
        ),

        copies_by_id as (
            select
                event_id,
                min(struct(
                    {{ tideline.first_copy_columns() | join(', ') }},
                    {{ in_window }} as in_window,
                    {{ tideline.usable_event_predicate() }}
                        and {{ tideline.filtered_events_predicate() }} as wanted,
                    derived_tstamp is null as without_time,
                    load_date
                )) as first_copy,
                count_if({{ in_window }}) as window_copies,
                max(case when {{ in_window }} then load_tstamp end) as newest_load
            from {{ source('tideline', 'events') }}
            where {{ tideline.with_run_window(markers[0], lower, upper_sql, tideline.now()[:10]) }}
            group by event_id
        ),

        window_events as (
            select
                case when kept then to_date(first_copy.derived_tstamp) end as event_date,
                case when kept then 1 else 0 end as new_rows,
                case when kept and first_copy.load_date > to_date(first_copy.derived_tstamp) then 1 else 0 end as late_rows,
                case when kept then first_copy.load_tstamp end as first_load,
                window_copies as rows_read,
                case when event_id is null then window_copies else 0 end as rows_without_id,
                newest_load,
                case when first_in_window then 1 else 0 end as events,
                case when first_in_window and first_copy.without_time then 1 else 0 end as without_time
            from (
                select
                    *,
                    first_in_window and first_copy.wanted as kept
                from (
                    select
                        event_id, window_copies, newest_load, first_copy,
                        event_id is not null and first_copy.in_window as first_in_window
                    from copies_by_id
                    where window_copies > 0
                ) as first_copies
            ) as judged
            union all
            select {% for c in tideline.window_event_columns() %}null as {{ c }}{{ ', ' if not loop.last }}{% endfor %}
        )
{%- endmacro %}

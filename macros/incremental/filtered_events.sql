{#- Which events of the window tl_filtered_events keeps: a derived_tstamp on or after the start
    date (late-loaded events from before it are ignored), a wanted app_id and event name (an
    empty list wants all), and a usable event_id and derived_tstamp (the others are rejected
    and counted in the manifest's rows_rejected). -#}
{% macro filtered_events_predicate() %}
    {%- set app_ids = tideline.var_string_list('tideline__app_id') -%}
    {%- set names = tideline.var_string_list('tideline__events_to_include') -%}
    derived_tstamp >= {{ tideline.ts(tideline.var_date('tideline__start_date') ~ ' 00:00:00') }}
    {%- if app_ids %} and app_id in {{ tideline.string_list(app_ids) }}{% endif %}
    {%- if names %} and event_name in {{ tideline.string_list(names) }}{% endif %}
{% endmacro %}

{% macro usable_event_predicate() %}
    event_id is not null and derived_tstamp is not null
{% endmacro %}

{#- The event dates this run adds filtered events to. -#}
{% macro touched_dates(limits) %}
    {%- set events_this_run = ref('tl_events_this_run') -%}
    {%- if not execute -%}{{ return([]) }}{%- endif -%}
    {%- set rows = tideline.query_rows("select distinct cast(to_date(derived_tstamp) as string) from " ~ events_this_run
        ~ " where " ~ tideline.usable_event_predicate() ~ " and " ~ tideline.filtered_events_predicate() ~ " order by 1") -%}
    {{- return(rows | map('first') | list) -}}
{% endmacro %}

{#- post-hook of tl_filtered_events: log what this batch added per date, then commit. -#}
{% macro commit_filtered_events() %}
    {%- if not execute -%}{{ return('select 1') }}{%- endif -%}
    {%- do tideline.checkpoint('tl_filtered_events', 'written') -%}
    {%- set limits = tideline.current_run_limits() -%}
    {%- set dates = tideline.touched_dates(limits) -%}
    {%- set batch = tideline.ts(limits.upper) -%}
    {%- do tideline.exec('insert into ' ~ tideline.state_table('tl_filtered_events_log')
        ~ ' select event_date, count(*), count_if(load_date > event_date), ' ~ batch
        ~ ' from ' ~ this ~ ' where event_date in ' ~ tideline.date_list(dates) ~ ' and _tl_batch = ' ~ batch
        ~ ' group by event_date') -%}
    {%- do tideline.checkpoint('tl_filtered_events', 'logged') -%}
    {%- set counts = tideline.query_rows("select count(*), coalesce(max(load_tstamp), " ~ tideline.ts(limits.lower) ~ ") from "
        ~ source('tideline', 'events') ~ " where " ~ tideline.in_run_window(limits)) -%}
    {%- set kept = tideline.query_rows("select count(*), count_if(not (" ~ tideline.usable_event_predicate() ~ ")), count_if("
        ~ tideline.usable_event_predicate() ~ " and " ~ tideline.filtered_events_predicate() ~ ") from " ~ ref('tl_events_this_run')) -%}
    {%- set rows_read = counts[0][0] | int -%}
    {%- set distinct_events = kept[0][0] | int -%}
    {%- set rejected = kept[0][1] | int -%}
    {%- set written = kept[0][2] | int -%}
    {#- A window without loads changes nothing: no commit, so a rerun of it leaves no trace. -#}
    {%- if rows_read > 0 -%}
        {%- do tideline.commit_run('tl_filtered_events', limits.lower, limits.upper, counts[0][1], rows_read, written,
            rows_read - distinct_events, rejected, dates | length, 0) -%}
    {%- endif -%}
    {%- do tideline.log_run('tl_filtered_events', limits.lower, limits.upper, rows_read, written, dates | length,
        duplicates_dropped=rows_read - distinct_events, rows_rejected=rejected) -%}
    {{- return('select 1') -}}
{% endmacro %}

{#- pre-hook of tl_filtered_events: on --full-refresh its history starts again. -#}
{% macro reset_filtered_events() %}
    {%- if execute and should_full_refresh() -%}
        {%- do tideline.reset_state('tl_filtered_events') -%}
        {%- do tideline.exec('truncate table ' ~ tideline.state_table('tl_filtered_events_log')) -%}
    {%- endif -%}
    {{- return('select 1') -}}
{% endmacro %}

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
    {#- Rows without a load_tstamp belong to no window and are never processed; they are counted
        (contract 4) among the window's load dates and the load_date-null partition. -#}
    {%- set in_window = tideline.in_run_window(limits) -%}
    {%- set counts = tideline.query_rows("select count_if(" ~ in_window ~ "), coalesce(max(case when " ~ in_window
        ~ " then load_tstamp end), " ~ tideline.ts(limits.lower) ~ "), count_if(load_tstamp is null) from "
        ~ source('tideline', 'events') ~ " where load_date is null or load_date between date'" ~ limits.lower_date
        ~ "' and date'" ~ limits.upper_date ~ "'") -%}
    {%- set without_load_time = counts[0][2] | int -%}
    {%- if without_load_time > 0 -%}
        {%- do exceptions.warn("tideline: " ~ without_load_time ~ " rows of " ~ source('tideline', 'events')
            ~ " have no load_tstamp (load dates " ~ limits.lower_date ~ " to " ~ limits.upper_date
            ~ " or none); no window can read them. Set their load_tstamp (and load_date) to load them.") -%}
    {%- endif -%}
    {%- set kept = tideline.query_rows("select count(*), count_if(not (" ~ tideline.usable_event_predicate() ~ ")), count_if("
        ~ tideline.usable_event_predicate() ~ " and " ~ tideline.filtered_events_predicate() ~ ") from " ~ ref('tl_events_this_run')) -%}
    {%- set rows_read = counts[0][0] | int -%}
    {%- set distinct_events = kept[0][0] | int -%}
    {%- set rejected = kept[0][1] | int -%}
    {%- set written = kept[0][2] | int -%}
    {#- A window without loads changes nothing: no commit, so a rerun of it leaves no trace. -#}
    {%- if rows_read > 0 -%}
        {%- do tideline.commit_run('tl_filtered_events', limits.lower, limits.upper, counts[0][1], rows_read, written,
            rows_read - distinct_events, rejected, dates | length, 0, without_load_time) -%}
    {%- endif -%}
    {%- do tideline.log_run('tl_filtered_events', limits.lower, limits.upper, rows_read, written, dates | length,
        duplicates_dropped=rows_read - distinct_events, rows_rejected=rejected, rows_without_load_time=without_load_time) -%}
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

{#- Rebuilding the filtered events renews their commit batches, which the daily aggregates keep
    their watermarks over: an aggregate left out of that --full-refresh would silently stop
    seeing rows. So the refresh must select every built daily aggregate too (nothing is written
    otherwise). Called by the on-run-start hook, before any model runs. -#}
{% macro refuse_partial_full_refresh() %}
    {%- set filtered_uids = graph.nodes.values() | selectattr('name', 'equalto', 'tl_filtered_events') | map(attribute='unique_id') | list -%}
    {%- if not flags.FULL_REFRESH or not (filtered_uids | select('in', selected_resources) | list) -%}{{ return(none) }}{%- endif -%}
    {%- set selected = [] -%}
    {%- for uid in selected_resources if uid in graph.nodes -%}{%- do selected.append(graph.nodes[uid].name) -%}{%- endfor -%}
    {%- set with_state = tideline.query_rows("select distinct model from " ~ tideline.state_table('tl_incremental_manifest')
        ~ " where model <> 'tl_filtered_events'") | map('first') | list -%}
    {%- set left_behind = [] -%}
    {%- for node in graph.nodes.values() if node.resource_type == 'model' and node.config.materialized == 'tideline_daily_aggregate'
            and node.name in with_state and node.name not in selected -%}
        {%- do left_behind.append(node.name) -%}
    {%- endfor -%}
    {%- if left_behind -%}
        {{ exceptions.raise_compiler_error("tideline: --full-refresh of tl_filtered_events without the daily aggregates built on it ("
            ~ left_behind | sort | join(', ') ~ ") would leave them behind; refresh them together, e.g. dbt run --full-refresh --select tl_filtered_events+") }}
    {%- endif -%}
{% endmacro %}

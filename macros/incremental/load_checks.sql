{#- The load checks a run reports (rows no window can read), and a full refresh that would
    leave daily aggregates behind refused. -#}

{#- The warnings of the decide query's load checks, with their counts. -#}
{% macro warn_unreadable_rows(run) %}
    {%- set events = source('tideline', 'events') -%}
    {%- if run.rows_without_load_time > 0 -%}
        {%- do exceptions.warn("tideline: {} rows of {} have no load_tstamp (load dates from {} or none); no window can read them. Set their load_tstamp (and load_date) to load them.".format(
            run.rows_without_load_time, events, run.lower[:10])) -%}
    {%- endif -%}
    {%- if run.rows_loaded_after_now > 0 -%}
        {%- do exceptions.warn("tideline: {} rows of {} have a load_tstamp after now ({} UTC); they are read by the first run whose now has passed them. A loader clock ahead of UTC, or a tideline__now in the past, does this.".format(
            run.rows_loaded_after_now, events, tideline.now())) -%}
    {%- endif -%}
    {%- if run.rows_in_other_load_date > 0 -%}
        {%- do exceptions.warn("tideline: {} rows of {} (load dates from {}) sit in a load_date partition other than the date of their load_tstamp; the run window prunes on load_date, so they are read in another window or not at all. Write load_date = to_date(load_tstamp) in UTC.".format(
            run.rows_in_other_load_date, events, run.lower[:10])) -%}
    {%- endif -%}
{% endmacro %}

{#- Rebuilding the filtered events renews their commit runs, which the daily aggregates keep
    their watermarks over: an aggregate left out of that --full-refresh would silently stop
    seeing rows. So the refresh must select every built daily aggregate too (nothing is written
    otherwise). Called by the on-run-start hook, before any model runs. -#}
{% macro refuse_partial_full_refresh() %}
    {%- set filtered_uids = graph.nodes.values() | selectattr('name', 'equalto', 'tl_filtered_events') | map(attribute='unique_id') | list -%}
    {%- if not flags.FULL_REFRESH or not (filtered_uids | select('in', selected_resources) | list)
            or not tideline.state_table_known() -%}
        {{ return(none) }}
    {%- endif -%}
    {%- set selected = [] -%}
    {%- for uid in selected_resources if uid in graph.nodes -%}{%- do selected.append(graph.nodes[uid].name) -%}{%- endfor -%}
    {% set with_state_sql %}
        select distinct model from {{ tideline.state_table() }} where kind = 'run' and model <> 'tl_filtered_events'
    {% endset %}
    {%- set with_state = tideline.query_rows(with_state_sql) | map(attribute='model') | list -%}
    {%- set left_behind = [] -%}
    {#- an aggregate over source_events() keeps its own window and does not depend on it -#}
    {%- for node in graph.nodes.values() if node.resource_type == 'model' and node.config.materialized == 'tideline_daily_aggregate'
            and filtered_uids[0] in node.depends_on.nodes and node.name in with_state and node.name not in selected -%}
        {%- do left_behind.append(node.name) -%}
    {%- endfor -%}
    {%- if left_behind -%}
        {{ exceptions.raise_compiler_error("tideline: --full-refresh of tl_filtered_events without the daily aggregates built on it ({}) would leave them behind; refresh them together, e.g. dbt run --full-refresh --select tl_filtered_events+".format(
            left_behind | sort | join(', '))) }}
    {%- endif -%}
{% endmacro %}

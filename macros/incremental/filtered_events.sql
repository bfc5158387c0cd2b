{#- tl_filtered_events: the events the daily aggregates are built from, partitioned by event
    date. A run (materialization tideline_filtered_events) sends at most four statements:

      1. state:  the watermark (newest committed run of tl_filtered_events);
      2. decide: one query that computes the run limits and everything the run will record
                 (rows read, duplicates, rejected, rows without load time, per event date the
                 new and the late rows);
      3. write:  one append of this window's events (a first run or --full-refresh builds a
                 new table and swaps it in instead);
      4. commit: one insert into tl_state: a row per touched date and the run row.
    A window without loads stops after step 2 and leaves no trace. A run that died before step
    4 left rows whose _tl_run no run row names, and the rerun reads the same window again.
    So the rows live in the table tl_filtered_events__tl_rows, and tl_filtered_events is a view
    of its committed rows: what every reader, tideline's or an analyst's, sees. -#}

{#- Which events of the window tl_filtered_events keeps: a derived_tstamp on or after the start
    date (late-loaded events from before it are ignored), a wanted app_id and event name (an
    empty list wants all). -#}
{% macro filtered_events_predicate() %}
    {%- set app_ids = tideline.var_string_list('tideline__app_id') -%}
    {%- set names = tideline.var_string_list('tideline__events_to_include') -%}
    derived_tstamp >= {{ tideline.ts(tideline.var_date('tideline__start_date') ~ ' 00:00:00') }}
    {%- if app_ids %} and app_id in {{ tideline.string_list(app_ids) }}{% endif %}
    {%- if names %} and event_name in {{ tideline.string_list(names) }}{% endif %}
{% endmacro %}

{#- Events without a usable event_id or derived_tstamp are rejected and counted (rows_rejected). -#}
{% macro usable_event_predicate() %}
    event_id is not null and derived_tstamp is not null
{% endmacro %}

{#- The order in which copies of one event_id compete: the first-loaded copy wins, then the
    earliest device time, then the other timestamps and the fingerprint as tie-breakers. -#}
{% macro first_copy_columns() %}
    {{- return(['load_tstamp', 'dvce_created_tstamp', 'derived_tstamp', 'collector_tstamp', 'event_fingerprint']) -}}
{% endmacro %}

{#- The same order, for an `order by`. -#}
{% macro first_copy_order() %}
    {{- tideline.first_copy_columns() | join(', ') -}}
{%- endmacro %}

{#- The source events of this run's window, one row per event_id, with the source's columns.

    Duplicates are resolved here, deterministically, in one ranked scan of the source: the
    window's copies and the copies loaded before the window (within
    tideline__dedupe_lookback_days of it, partition-pruned on load_date) are ranked per event_id
    in first_copy_order(); the first copy is kept when it is one of the window's. Since
    first_copy_order() starts with load_tstamp, a copy loaded before the window always ranks
    first: a window copy of an event_id already loaded loses to it, whatever its derived_tstamp.
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
            where /* tideline: the window and the copies loaded before it */ true
        ) as copies
        where copy_rank = 1 and event_id is not null and /* tideline: in the window */ true
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
    {%- set run = tideline.window_facts(rows | selectattr(0, 'equalto', 'run') | first, 4) -%}
    {%- set dates = [] -%}
    {%- for r in rows if r[0] == 'date' -%}{%- do dates.append([r[1], r[2] | int, r[3] | int]) -%}{%- endfor -%}
    {%- do run.update({'rows_written': dates | sum(attribute=1), 'dates': dates | sort(attribute=0)}) -%}
    {{- return(run) -}}
{% endmacro %}

{#- The whole run of tl_filtered_events (steps 1 to 4 above). `relation` is the model's view. -#}
{% macro build_filtered_events(relation, model_sql, full_refresh) %}
    {%- set model_name = relation.identifier -%}
    {%- for marker in tideline._run_window_markers() if marker not in model_sql -%}
        {{ exceptions.raise_compiler_error("tideline: " ~ model_name ~ " must read its events with `from {{ tideline.events_this_run() }}`") }}
    {%- endfor -%}
    {%- do tideline.compact_every_setting(model_name) -%}
    {%- set format = tideline.model_file_format(model_name) -%}
    {%- set rows_relation = tideline.stored_relation(relation.incorporate(path={'identifier': model_name ~ '__tl_rows'}), format) -%}
    {%- set existing = tideline.find_stored_table(rows_relation, format, full_refresh) -%}

    {#- 1. state -#}
    {%- set first_run = full_refresh or existing is none -%}
    {%- if not first_run -%}{%- do tideline.refuse_other_file_format(model_name, existing, format) -%}{%- endif -%}
    {%- set watermark = none -%}
    {%- set state_files = none -%}
    {%- if not first_run -%}
        {%- set watermark, state_files = tideline.window_watermark(model_name) -%}
        {%- set first_run = watermark is none -%}
    {%- endif -%}
    {%- set lower = tideline.lower_limit(watermark) -%}

    {#- 2. decide -#}
    {%- set run = tideline.filtered_events_decide(lower) -%}
    {%- do tideline.checkpoint(model_name, 'decided') -%}
    {%- set select_sql = tideline._filtered_events_for_window(model_sql, lower, tideline.ts(run.upper), run.upper[:10]) -%}
    {%- if run.rows_read == 0 -%}
        {#- a window without loads changes nothing: no write, no commit, no trace. Only a first
            build creates the (empty) table and its view, so that readers and tests find them. -#}
        {%- if existing is none -%}
            {%- do tideline.replace_table(rows_relation, select_sql, 'event_date', none, format) -%}
        {%- endif -%}
        {%- do tideline._create_committed_rows_view(relation, rows_relation, existing is none) -%}
        {%- if existing is none -%}{%- do tideline.drop_converted_table(rows_relation, format) -%}{%- endif -%}
        {%- do tideline.log_run(model_name, none if first_run else run.lower, run.upper, 0, 0, 0,
            rows_without_load_time=run.rows_without_load_time) -%}
        {%- do tideline.warn_unreadable_rows(run) -%}
        {{ return(none) }}
    {%- endif -%}

    {#- 3. write -#}
    {%- if first_run -%}
        {%- do tideline.replace_table(rows_relation, select_sql ~ ' distribute by event_date', 'event_date', existing, format) -%}
    {%- else -%}
        {%- set columns = tideline.cached_columns(existing) or (adapter.get_columns_in_relation(existing) | map(attribute='name') | list) -%}
        {% call statement('write', fetch_result=false) %}
            insert into {{ rows_relation }} partition (event_date)
            select {{ columns | join(', ') }}
            from ({{ select_sql }}) as new_rows
            distribute by event_date
        {% endcall %}
    {%- endif -%}
    {%- do tideline.checkpoint(model_name, 'written') -%}
    {%- do tideline._create_committed_rows_view(relation, rows_relation, existing is none) -%}

    {#- 4. commit -#}
    {%- set date_rows = [] -%}
    {%- for d in run.dates -%}
        {%- do date_rows.append({'event_date': d[0], 'new_rows': d[1], 'late_rows': d[2]}) -%}
    {%- endfor -%}
    {%- do tideline.commit_run(model_name, {
        'kind': 'run', 'batch': run.upper, 'lower_limit': run.lower, 'upper_limit': run.upper,
        'watermark': run.watermark, 'rows_read': run.rows_read, 'rows_written': run.rows_written,
        'duplicates_dropped': run.duplicates_dropped, 'rows_rejected': run.rows_rejected,
        'days_processed': run.dates | length, 'late_rows_skipped': 0,
        'rows_without_load_time': run.rows_without_load_time}, date_rows, replace=first_run, files=state_files) -%}
    {%- if first_run -%}{%- do tideline.drop_converted_table(rows_relation, format) -%}{%- endif -%}
    {%- do tideline.warn_unreadable_rows(run) -%}
    {%- do tideline.log_run(model_name, none if first_run else run.lower, run.upper, run.rows_read, run.rows_written,
        run.dates | length, duplicates_dropped=run.duplicates_dropped, rows_rejected=run.rows_rejected,
        rows_without_load_time=run.rows_without_load_time) -%}
    {{- return(run) -}}
{% endmacro %}

{#- The model's view, of the committed runs' rows: created when it is missing, and replaced when the
    rows table is new (it may be in another catalog: a file_format changed). -#}
{% macro _create_committed_rows_view(relation, rows_relation, new_table) %}
    {%- if new_table or adapter.get_relation(database=none, schema=relation.schema, identifier=relation.identifier) is none -%}
        {% call statement('view', fetch_result=false) %}
            create or replace view {{ relation }} as
            select * from {{ rows_relation }}
            where _tl_run in ({{ tideline.committed_runs_sql(relation.identifier) }})
        {% endcall %}
    {%- endif -%}
{% endmacro %}

{#- The warnings of the decide query's load checks, with their counts. -#}
{% macro warn_unreadable_rows(run) %}
    {%- set events = source('tideline', 'events') -%}
    {%- if run.rows_without_load_time > 0 -%}
        {%- do exceptions.warn("tideline: " ~ run.rows_without_load_time ~ " rows of " ~ events
            ~ " have no load_tstamp (load dates from " ~ run.lower[:10] ~ " or none); no window can read them."
            ~ " Set their load_tstamp (and load_date) to load them.") -%}
    {%- endif -%}
    {%- if run.rows_loaded_after_now > 0 -%}
        {%- do exceptions.warn("tideline: " ~ run.rows_loaded_after_now ~ " rows of " ~ events ~ " have a load_tstamp after now ("
            ~ tideline.now() ~ " UTC); they are read by the first run whose now has passed them. A loader clock ahead of"
            ~ " UTC, or a tideline__now in the past, does this.") -%}
    {%- endif -%}
    {%- if run.rows_in_other_load_date > 0 -%}
        {%- do exceptions.warn("tideline: " ~ run.rows_in_other_load_date ~ " rows of " ~ events ~ " (load dates from "
            ~ run.lower[:10] ~ ") sit in a load_date partition other than the date of their load_tstamp; the run window prunes on"
            ~ " load_date, so they are read in another window or not at all. Write load_date = to_date(load_tstamp) in UTC.") -%}
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
    {%- set with_state = tideline.query_rows("select distinct model from " ~ tideline.state_table()
        ~ " where kind = 'run' and model <> 'tl_filtered_events'") | map('first') | list -%}
    {%- set left_behind = [] -%}
    {#- an aggregate over source_events() keeps its own window and does not depend on it -#}
    {%- for node in graph.nodes.values() if node.resource_type == 'model' and node.config.materialized == 'tideline_daily_aggregate'
            and filtered_uids[0] in node.depends_on.nodes and node.name in with_state and node.name not in selected -%}
        {%- do left_behind.append(node.name) -%}
    {%- endfor -%}
    {%- if left_behind -%}
        {{ exceptions.raise_compiler_error("tideline: --full-refresh of tl_filtered_events without the daily aggregates built on it ("
            ~ left_behind | sort | join(', ') ~ ") would leave them behind; refresh them together, e.g. dbt run --full-refresh --select tl_filtered_events+") }}
    {%- endif -%}
{% endmacro %}

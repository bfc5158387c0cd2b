{#- days_to_process: which event dates a daily aggregate recomputes in this run.

    The rule, for one daily aggregate model M and one event date d:
      new(d)     = filtered events of d committed since M's watermark (batches in (w_M, W]);
      late(d)    = those of them loaded after d (load_date > event date);
      on_time(d) = new(d) - late(d);
      pending(d) = skipped(d) (what M's aggregate of d does not reflect yet) + late(d).
    d is processed when
      on_time(d) > 0                                   (d is not late: always processed), or
      pending(d) >= min_rows_to_process
        and d >= date(now) - reprocess_days            (late, but enough and recent enough),
    the two rules M's config (min_rows_to_process, reprocess_days) or else the vars
    tideline__min_rows_to_process and tideline__reprocess_days.
    Otherwise d is skipped and pending(d) becomes its new skipped(d). Processing d recomputes
    it from all its filtered events, so its skipped(d) returns to 0. Dates with skipped rows
    and no new rows are candidates too, so that a one-off run with other thresholds
    (min_rows_to_process: 1, reprocess_days: 3650) catches everything up.

    Invariant (tested): skipped(d) = the number of filtered events of d that M's aggregate of
    d does not reflect. On a first build (or --full-refresh) every committed date is processed;
    a backfill of [a, b] processes exactly those dates, up to M's own watermark. -#}

{#- One query over tl_state: a 'bounds' row (M's watermark, the newest batch M can read, the
    batch this run reads up to, the files of M's state), then one row per candidate date with
    its decision and M's state for it after this run.

    Where the new rows of a date come from depends on what M reads:
      * filtered events (filtered_events()): the date rows that tl_filtered_events committed
        in batches after M's watermark (tl_filtered_events_log). Those bounds come first
        (`reads`), from M's and tl_filtered_events' run rows;
      * the source (source_events()): the facts of this run's window of the source from
        `window_lower`, its lower limit (run_window_ctes), whose event dates are the new rows,
        and whose totals the bounds row carries too (window_columns_sql). M's date rows keep
        each date's first load time (in first_load), where the recompute of the date starts
        reading the source. A backfill reads no window (`window_lower` none). Here M's run
        rows go into the same aggregation as its date rows and the window's facts: one pass.
    The date facts are aggregated once, by event date and in total (grouping sets): the total
    row is the bounds row. -#}
{% macro days_to_process_sql(model_name, first_build, backfill, reads_source=false, window_lower=none) %}
    {%- set window = tideline.run_window_ctes(window_lower) if window_lower else none -%}
    {%- set window_upper = tideline.window_upper_sql(window_lower) if window_lower else none -%}
    {%- set min_rows = tideline.model_count_setting(model_name, 'min_rows_to_process', 1, "an integer >= 1 (the late rows a date needs to be reprocessed; default the var tideline__min_rows_to_process)") -%}
    {%- set reprocess_days = tideline.model_count_setting(model_name, 'reprocess_days', 0, "an integer >= 0 (how many days before now a late date is still reprocessed; default the var tideline__reprocess_days)") -%}
    {%- set now = tideline.now() -%}
    {%- set model_run -%}
        model = '{{ model_name }}' and kind = 'run'
    {%- endset -%}
    {%- set fe_new_row -%}
        state.model = 'tl_filtered_events' and state.batch <= reads.reads_up_to
        {%- if backfill %} and state.event_date between date'{{ backfill[0] }}' and date'{{ backfill[1] }}'
        {%- else %} and (reads.watermark is null or state.batch > reads.watermark)
        {%- endif %}
    {%- endset -%}
    {%- set window_columns = tideline.window_event_columns()[4:] -%}
    {%- set q = {'model_name': model_name, 'first_build': first_build, 'backfill': backfill, 'reads_source': reads_source,
                 'window': window, 'window_upper': window_upper, 'model_run': model_run, 'fe_new_row': fe_new_row,
                 'window_columns': window_columns, 'min_rows': min_rows, 'reprocess_days': reprocess_days, 'now': now} -%}
    with
    {%- if window %}
    {{ window }},
    {%- endif %}
    {{ tideline._dtp_state_ctes(q) }}
    {{ tideline._dtp_date_facts_cte(q) }}
    {{ tideline._dtp_decision_ctes(q) }}
    {{ tideline._dtp_decided_rows_sql(q) }}
{% endmacro %}

{#- Run the decision query: {'watermark', 'filtered_upper', 'reads_up_to', 'state_files',
    'dates': [dict per candidate date], 'window': the window's facts (window_facts) or none}. -#}
{% macro days_to_process(model_name, first_build, backfill, reads_source=false, window_lower=none) %}
    {%- set rows = tideline.query_rows(tideline.days_to_process_sql(model_name, first_build, backfill, reads_source, window_lower)) -%}
    {%- set bounds = rows | selectattr('kind', 'equalto', 'bounds') | first -%}
    {%- if bounds.rows_v2 | int > 0 -%}
        {#- state version 2 kept a date's first load time in lower_limit: moved once, then read again -#}
        {%- do tideline.move_state_rows(model_name, {'first_load': 'lower_limit'}, "kind = 'date' and lower_limit is not null") -%}
        {{- return(tideline.days_to_process(model_name, first_build, backfill, reads_source, window_lower)) -}}
    {%- endif -%}
    {%- set dates = [] -%}
    {%- for r in rows if r.kind == 'date' -%}
        {%- set date = {'event_date': r.event_date, 'new_rows': r.new_rows | int, 'late_rows': r.late_rows | int,
            'pending_rows': r.pending_rows | int, 'processed': r.processed, 'processed_rows': r.processed_rows | int,
            'skipped_rows': r.skipped_rows | int, 'last_processed_at': r.last_processed_at,
            'processed_batch': r.processed_batch} -%}
        {%- if reads_source -%}{%- do date.update({'first_load': r.first_load}) -%}{%- endif -%}
        {%- do dates.append(date) -%}
    {%- endfor -%}
    {{- return({'watermark': bounds.watermark, 'filtered_upper': bounds.filtered_upper, 'reads_up_to': bounds.reads_up_to,
                'state_files': none if bounds.state_files is none else bounds.state_files | int, 'dates': dates | sort(attribute='event_date'),
                'window': tideline.window_facts(bounds) if window_lower else none,
                'model_runs': bounds.model_runs | int if bounds.model_runs is not none else none}) -}}
{% endmacro %}

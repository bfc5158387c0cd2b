{#- days_to_process: which event dates a daily aggregate recomputes in this run.

    The rule, for one daily aggregate model M and one event date d:
      new(d)     = filtered events of d committed since M's watermark (batches in (w_M, W]);
      late(d)    = those of them loaded after d (load_date > event date);
      on_time(d) = new(d) - late(d);
      pending(d) = skipped(d) (what M's aggregate of d does not reflect yet) + late(d).
    d is processed when
      on_time(d) > 0                                   (d is not late: always processed), or
      pending(d) >= tideline__min_rows_to_process
        and d >= date(now) - tideline__reprocess_days  (late, but enough and recent enough).
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
        in batches after M's watermark (tl_filtered_events_log);
      * the source (source_events()): the CTEs of this run's window of the source from
        `window_lower`, its lower limit (run_window_ctes), whose per-date counts are the new
        rows, and whose facts the bounds row carries too (window_columns_sql). M's date rows
        keep each date's first load time (in lower_limit), where the recompute of the date
        starts reading the source. A backfill reads no window (`window_lower` none). -#}
{% macro days_to_process_sql(model_name, first_build, backfill, reads_source=false, window_lower=none) %}
    {%- set window = tideline.run_window_ctes(window_lower) if window_lower else none -%}
    {%- set window_upper = tideline.window_upper_sql(window_lower) if window_lower else none -%}
    {%- set min_rows = tideline.var_int('tideline__min_rows_to_process', 1) -%}
    {%- set reprocess_days = tideline.var_int('tideline__reprocess_days', 0) -%}
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
    with
    {%- if window %}
    {{ window }},
    {%- endif %}

    {#- reading the source, the files of M's state come from its watermark query instead #}
    state as (
        select *{{ ', _metadata.file_path as state_file' if not reads_source }}
        from {{ tideline.state_table() }}
        where model in ('{{ model_name }}' {%- if not reads_source %}, 'tl_filtered_events'{% endif %})
    ),

    bounds as (
        select
            {% if first_build %}cast(null as timestamp){% else %}max(case when {{ model_run }} then batch end){% endif %} as watermark,
            {%- if not reads_source %}
            max(case when model = 'tl_filtered_events' and kind = 'run' then batch end) as filtered_upper,
            {%- elif window %}
            cast(null as timestamp) as filtered_upper,
            {%- else %}
            max(case when {{ model_run }} then watermark end) as filtered_upper,
            {%- endif %}
            {{ 'max(cast(null as int))' if reads_source else tideline.state_files_sql(model_name, 'state_file') }} as state_files
        from state   -- an aggregate: one row, with no state too
    ),

    reads as (
        select
            watermark,
            {{ window_upper if window else 'filtered_upper' }} as filtered_upper,
            {{ 'watermark' if backfill and not reads_source else (window_upper if window else 'filtered_upper') }} as reads_up_to,
            state_files
        from bounds
    ),

    -- per date, what is new since M's watermark and M's state rows of the date
    date_facts as (
        select
            state.event_date,
            case when {{ fe_new_row if not reads_source else 'false' }} then state.new_rows end as new_rows,
            case when {{ fe_new_row if not reads_source else 'false' }} then state.late_rows end as late_rows,
            case when state.model = '{{ model_name }}' then state.committed_at end as state_order,
            struct(state.processed_rows, state.skipped_rows, state.last_processed_at) as model_state,
            case when state.model = '{{ model_name }}' then state.lower_limit end as first_load
        from state
        {%- if not reads_source %}
        cross join reads
        {%- endif %}
        where state.kind = 'date'
            {%- if first_build %} and {{ "state.model = 'tl_filtered_events'" if not reads_source else 'false' }}{% endif %}
            {%- if backfill and reads_source %} and state.event_date between date'{{ backfill[0] }}' and date'{{ backfill[1] }}'{% endif %}
        {%- if window %}
        union all
        select event_date, new_rows, late_rows, null, null, first_load
        from window_dates
        {%- endif %}
    ),

    -- one pass over the date facts: max_by takes M's newest state row of the date (it skips
    -- rows whose state_order is null: the new rows)
    per_date as (
        select
            event_date,
            coalesce(sum(new_rows), 0) as new_rows,
            coalesce(sum(late_rows), 0) as late_rows,
            max_by(model_state, state_order) as current_state,
            min(first_load) as first_load
        from date_facts
        group by event_date
    ),

    candidates as (
        select
            event_date,
            new_rows,
            late_rows,
            coalesce(current_state.processed_rows, 0) as processed_before,
            coalesce(current_state.skipped_rows, 0) as skipped_before,
            current_state.last_processed_at,
            first_load
        from per_date
        {%- if backfill and reads_source %}
        where true
        {%- else %}
        where new_rows > 0 {{- ' or coalesce(current_state.skipped_rows, 0) > 0' if not backfill }}
        {%- endif %}
    ),

    decisions as (
        select
            *,
            skipped_before + late_rows as pending_rows,
            {%- if backfill or first_build %}
            true as processed
            {%- else %}
            (new_rows - late_rows > 0)
            or (
                skipped_before + late_rows >= {{ min_rows }}
                and event_date >= date_sub(to_date({{ tideline.ts(now) }}), {{ reprocess_days }})
            ) as processed
            {%- endif %}
        from candidates
    )

    select
        'bounds' as kind,
        cast(reads.watermark as string) as watermark,
        cast(reads.filtered_upper as string) as filtered_upper,
        cast(reads.reads_up_to as string) as reads_up_to,
        null as event_date, null as new_rows, null as late_rows, null as pending_rows, null as processed,
        null as processed_rows, null as skipped_rows, null as last_processed_at,
        reads.state_files, null as first_load
        {%- if window %},
        {{ tideline.window_columns_sql() | indent(8) }}
        {%- endif %}
    from reads
    {%- if window %}
    cross join limits
    cross join window_counts
    {%- endif %}
    union all
    select
        'date', null, null, null,
        cast(event_date as string),
        new_rows,
        late_rows,
        pending_rows,
        processed,
        {%- if (backfill or first_build) and not reads_source %}
        new_rows,
        {%- else %}
        case when processed then processed_before + skipped_before + new_rows else processed_before end,
        {%- endif %}
        case when processed then 0 else pending_rows end,
        case when processed then {{ tideline.ts(now) }} else last_processed_at end,
        null,
        cast(first_load as string)
        {%- if window %},
        null, null, null, null, null, null, null, null, null, null
        {%- endif %}
    from decisions
{% endmacro %}

{#- Run the decision query: {'watermark', 'filtered_upper', 'reads_up_to', 'state_files',
    'dates': [dict per candidate date], 'window': the window's facts (window_facts) or none}. -#}
{% macro days_to_process(model_name, first_build, backfill, reads_source=false, window_lower=none) %}
    {%- set rows = tideline.query_rows(tideline.days_to_process_sql(model_name, first_build, backfill, reads_source, window_lower)) -%}
    {%- set bounds = rows | selectattr(0, 'equalto', 'bounds') | first -%}
    {%- set dates = [] -%}
    {%- for r in rows if r[0] == 'date' -%}
        {%- set date = {'event_date': r[4], 'new_rows': r[5] | int, 'late_rows': r[6] | int,
            'pending_rows': r[7] | int, 'processed': r[8], 'processed_rows': r[9] | int,
            'skipped_rows': r[10] | int, 'last_processed_at': r[11]} -%}
        {%- if reads_source -%}{%- do date.update({'lower_limit': r[13]}) -%}{%- endif -%}
        {%- do dates.append(date) -%}
    {%- endfor -%}
    {{- return({'watermark': bounds[1], 'filtered_upper': bounds[2], 'reads_up_to': bounds[3],
                'state_files': none if bounds[12] is none else bounds[12] | int, 'dates': dates | sort(attribute='event_date'),
                'window': tideline.window_facts(bounds, 14) if window_lower else none}) -}}
{% endmacro %}

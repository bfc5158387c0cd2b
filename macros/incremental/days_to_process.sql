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

{#- One query over tl_state: a 'bounds' row (M's watermark, the filtered events' newest
    committed batch, the batch this run reads up to, the files of M's state), then one row per
    candidate date with its decision and M's state for it after this run. -#}
{% macro days_to_process_sql(model_name, first_build, backfill) %}
    {%- set min_rows = tideline.var_int('tideline__min_rows_to_process', 1) -%}
    {%- set reprocess_days = tideline.var_int('tideline__reprocess_days', 0) -%}
    {%- set now = tideline.now() -%}
    {%- set fe_new_row -%}
        state.model = 'tl_filtered_events' and state.batch <= reads.reads_up_to
        {%- if backfill %} and state.event_date between date'{{ backfill[0] }}' and date'{{ backfill[1] }}'
        {%- else %} and (reads.watermark is null or state.batch > reads.watermark)
        {%- endif %}
    {%- endset -%}
    with state as (
        select *, _metadata.file_path as state_file
        from {{ tideline.state_table() }}
        where model in ('{{ model_name }}', 'tl_filtered_events')
    ),

    bounds as (
        select
            {{ 'cast(null as timestamp)' if first_build else "max(case when model = '" ~ model_name ~ "' and kind = 'run' then batch end)" }} as watermark,
            max(case when model = 'tl_filtered_events' and kind = 'run' then batch end) as filtered_upper,
            {{ tideline.state_files_sql(model_name, 'state_file') }} as state_files
        from state
    ),

    reads as (
        select
            watermark,
            filtered_upper,
            {{ 'watermark' if backfill else 'filtered_upper' }} as reads_up_to,
            state_files
        from bounds
    ),

    -- one pass over the date rows: per date, what the filtered events' committed batches added
    -- since M's watermark, and M's newest state of the date (max_by skips other models' rows)
    per_date as (
        select
            state.event_date,
            coalesce(sum(case when {{ fe_new_row }} then state.new_rows end), 0) as new_rows,
            coalesce(sum(case when {{ fe_new_row }} then state.late_rows end), 0) as late_rows,
            max_by(
                struct(state.processed_rows, state.skipped_rows, state.last_processed_at),
                case when state.model = '{{ model_name }}' then state.committed_at end
            ) as current_state
        from state
        cross join reads
        where state.kind = 'date' {{- " and state.model = 'tl_filtered_events'" if first_build }}
        group by state.event_date
    ),

    candidates as (
        select
            event_date,
            new_rows,
            late_rows,
            coalesce(current_state.processed_rows, 0) as processed_before,
            coalesce(current_state.skipped_rows, 0) as skipped_before,
            current_state.last_processed_at
        from per_date
        where new_rows > 0 {{- ' or coalesce(current_state.skipped_rows, 0) > 0' if not backfill }}
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
        cast(watermark as string) as watermark,
        cast(filtered_upper as string) as filtered_upper,
        cast(reads_up_to as string) as reads_up_to,
        null as event_date, null as new_rows, null as late_rows, null as pending_rows, null as processed,
        null as processed_rows, null as skipped_rows, null as last_processed_at,
        state_files
    from reads
    union all
    select
        'date', null, null, null,
        cast(event_date as string),
        new_rows,
        late_rows,
        pending_rows,
        processed,
        {%- if backfill or first_build %}
        new_rows,
        {%- else %}
        case when processed then processed_before + skipped_before + new_rows else processed_before end,
        {%- endif %}
        case when processed then 0 else pending_rows end,
        case when processed then {{ tideline.ts(now) }} else last_processed_at end,
        null
    from decisions
{% endmacro %}

{#- Run the decision query: {'watermark', 'filtered_upper', 'reads_up_to', 'dates': [dict per
    candidate date]}. -#}
{% macro days_to_process(model_name, first_build, backfill) %}
    {%- set rows = tideline.query_rows(tideline.days_to_process_sql(model_name, first_build, backfill)) -%}
    {%- set bounds = rows | selectattr(0, 'equalto', 'bounds') | first -%}
    {%- set dates = [] -%}
    {%- for r in rows if r[0] == 'date' -%}
        {%- do dates.append({'event_date': r[4], 'new_rows': r[5] | int, 'late_rows': r[6] | int,
            'pending_rows': r[7] | int, 'processed': r[8], 'processed_rows': r[9] | int,
            'skipped_rows': r[10] | int, 'last_processed_at': r[11]}) -%}
    {%- endfor -%}
    {{- return({'watermark': bounds[1], 'filtered_upper': bounds[2], 'reads_up_to': bounds[3],
                'state_files': bounds[12] | int, 'dates': dates | sort(attribute='event_date')}) -}}
{% endmacro %}

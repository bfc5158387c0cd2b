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
    d does not reflect. On a first build (or --full-refresh) every committed date is processed. -#}

{#- The SQL of M's per-date decisions: event_date, new_rows, late_rows, pending, processed. -#}
{% macro days_to_process_sql(model_name, lower_batch, upper_batch, first_build, backfill) %}
    {%- set min_rows = tideline.var_int('tideline__min_rows_to_process', 1) -%}
    {%- set reprocess_days = tideline.var_int('tideline__reprocess_days', 0) -%}
    {%- set now = tideline.now() -%}
    with committed_filtered as (
        {{ tideline.committed_batches_sql('tl_filtered_events') }}
    ),

    new_by_batch as (
        -- a batch's log rows are identical when a crashed run was repeated: max() dedupes them
        select batch, event_date, max(new_rows) as new_rows, max(late_rows) as late_rows
        from {{ tideline.state_table('tl_filtered_events_log') }}
        where batch in (select upper_limit from committed_filtered)
            and batch <= {{ tideline.ts(upper_batch) }}
            {%- if backfill %} and event_date between date'{{ backfill[0] }}' and date'{{ backfill[1] }}'
            {%- elif not first_build %} and batch > {{ tideline.ts(lower_batch) }}{% endif %}
        group by batch, event_date
    ),

    new_rows as (
        select event_date, sum(new_rows) as new_rows, sum(late_rows) as late_rows
        from new_by_batch
        group by event_date
    ),

    skipped as (
        {{ tideline.aggregation_state_sql(model_name) }}
    ),

    candidates as (
        select
            coalesce(n.event_date, s.event_date) as event_date,
            coalesce(n.new_rows, 0) as new_rows,
            coalesce(n.late_rows, 0) as late_rows,
            coalesce(s.skipped_rows, 0) as skipped_rows,
            coalesce(s.processed_rows, 0) as processed_rows
        from new_rows as n
        full outer join {% if first_build or backfill %}(select * from skipped where false){% else %}skipped{% endif %} as s
            on n.event_date = s.event_date
        where coalesce(n.new_rows, 0) > 0 or coalesce(s.skipped_rows, 0) > 0
    )

    select
        event_date,
        new_rows,
        late_rows,
        skipped_rows + late_rows as pending,
        processed_rows,
        {%- if backfill %}
        event_date between date'{{ backfill[0] }}' and date'{{ backfill[1] }}' as processed
        {%- elif first_build %}
        true as processed
        {%- else %}
        (new_rows - late_rows > 0)
        or (
            skipped_rows + late_rows >= {{ min_rows }}
            and event_date >= date_sub(to_date({{ tideline.ts(now) }}), {{ reprocess_days }})
        ) as processed
        {%- endif %}
    from candidates
{% endmacro %}

{#- M's current per-date state: the newest daily-manifest row of each date among M's committed
    runs (rows of a run that died before its commit are ignored). -#}
{% macro aggregation_state_sql(model_name) %}
    select event_date, processed_rows, skipped_rows, last_processed_at
    from (
        select
            *,
            row_number() over (partition by event_date order by batch desc, seq desc) as newest
        from {{ tideline.state_table('tl_daily_aggregation_manifest') }}
        where model = '{{ model_name }}'
            and batch in ({{ tideline.committed_batches_sql(model_name) }})
    ) as state
    where newest = 1
{% endmacro %}

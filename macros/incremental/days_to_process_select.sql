{#- days_to_process: the decision per date, and the rows the decision query returns. -#}

{#- The date facts by date and in total, the candidates and their decisions. -#}
{% macro _dtp_decision_ctes(q) %}
    -- one pass over the date facts, by date and in total: max_by takes M's newest state row of
    -- a date (it skips rows whose state_order is null: the new rows)
    per_date as (
        select
            grouping(event_date) = 1 as is_total,
            event_date,
            coalesce(sum(new_rows), 0) as new_rows,
            coalesce(sum(late_rows), 0) as late_rows,
            max_by(model_state, state_order) as current_state,
            min(first_load) as first_load,
            count(row_v2) as rows_v2,
            max(processed_batch) as processed_batch,
            max(run_batch) as run_batch,
            count(run_batch) as run_count,
            max(run_watermark) as run_watermark
            {%- if q.window %},
            {{ tideline.window_totals_sql() | indent(12) }}
            {%- endif %}
        from date_facts
        group by grouping sets ((event_date), ())
    ),

    candidates as (
        select
            *,
            coalesce(current_state.processed_rows, 0) as processed_before,
            coalesce(current_state.skipped_rows, 0) as skipped_before
        from per_date
        where is_total or (
            event_date is not null
            {%- if q.backfill and q.reads_source %}
            {#- every date of the range with state or new rows #}
            {%- else %}
            and (new_rows > 0 {{- ' or coalesce(current_state.skipped_rows, 0) > 0' if not q.backfill }})
            {%- endif %}
        )
    ),

    decisions as (
        select
            *,
            skipped_before + late_rows as pending_rows,
            {%- if q.backfill or q.first_build %}
            true as processed
            {%- else %}
            (new_rows - late_rows > 0)
            or (
                skipped_before + late_rows >= {{ q.min_rows }}
                and event_date >= date_sub(to_date({{ tideline.ts(q.now) }}), {{ q.reprocess_days }})
            ) as processed
            {%- endif %}
        from candidates
    )
{% endmacro %}

{#- The query's rows: the bounds row and one row per candidate date. -#}
{% macro _dtp_decided_rows_sql(q) %}
    {#- the bounds: reading filtered events, from `reads`; reading the source, from the total #}
    {%- if not q.reads_source %}
        {%- set bounds = ['reads.watermark', 'reads.filtered_upper', 'reads.reads_up_to', 'reads.state_files'] %}
    {%- else %}
        {%- set upper = q.window_upper if q.window else 'run_watermark' %}
        {%- set bounds = ['cast(null as timestamp)' if q.first_build else 'run_batch', upper, upper, 'cast(null as int)'] %}
    {%- endif %}
    select
        case when is_total then 'bounds' else 'date' end as kind,
        case when is_total then cast({{ bounds[0] }} as string) end as watermark,
        case when is_total then cast({{ bounds[1] }} as string) end as filtered_upper,
        case when is_total then cast({{ bounds[2] }} as string) end as reads_up_to,
        cast(event_date as string) as event_date,
        new_rows,
        late_rows,
        pending_rows,
        processed,
        {%- if (q.backfill or q.first_build) and not q.reads_source %}
        new_rows as processed_rows,
        {%- else %}
        case when processed then processed_before + skipped_before + new_rows else processed_before end as processed_rows,
        {%- endif %}
        case when processed then 0 else pending_rows end as skipped_rows,
        case when processed then {{ tideline.ts(q.now) }} else current_state.last_processed_at end as last_processed_at,
        case when is_total then {{ bounds[3] }} end as state_files,
        cast(first_load as string) as first_load,
        case when is_total then rows_v2 end as rows_v2,
        cast(processed_batch as string) as processed_batch,
        case when is_total then {{ 'reads.model_runs' if not q.reads_source else 'run_count' }} end as model_runs
        {%- if q.window %},
        {{ tideline.window_columns_sql() | indent(8) }}
        {%- endif %}
    from decisions
    {%- if not q.reads_source %}
    cross join reads
    {%- endif %}
    {%- if q.window %}
    cross join limits
    {%- endif %}
{% endmacro %}

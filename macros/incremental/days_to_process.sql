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
        in batches after M's watermark (tl_filtered_events_log). Those bounds come first
        (`reads`), from M's and tl_filtered_events' run rows;
      * the source (source_events()): the facts of this run's window of the source from
        `window_lower`, its lower limit (run_window_ctes), whose event dates are the new rows,
        and whose totals the bounds row carries too (window_columns_sql). M's date rows keep
        each date's first load time (in lower_limit), where the recompute of the date starts
        reading the source. A backfill reads no window (`window_lower` none). Here M's run
        rows go into the same aggregation as its date rows and the window's facts: one pass.
    The date facts are aggregated once, by event date and in total (grouping sets): the total
    row is the bounds row. -#}
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
    {%- set window_columns = tideline.window_event_columns()[4:] -%}
    with
    {%- if window %}
    {{ window }},
    {%- endif %}

    {#- reading the source, the files of M's state come from its watermark query instead #}
    state as (
        select *{{ ', ' ~ tideline.state_file_column() ~ ' as state_file' if not reads_source }}
        from {{ tideline.state_table() }}
        where model in ('{{ model_name }}' {%- if not reads_source %}, 'tl_filtered_events'{% endif %})
    ),
    {%- if not reads_source %}

    reads as (
        select
            watermark,
            filtered_upper,
            {{ 'watermark' if backfill else 'filtered_upper' }} as reads_up_to,
            state_files
        from (
            select
                {% if first_build %}cast(null as timestamp){% else %}max(case when {{ model_run }} then batch end){% endif %} as watermark,
                max(case when model = 'tl_filtered_events' and kind = 'run' then batch end) as filtered_upper,
                {{ tideline.state_files_sql(model_name, 'state_file') }} as state_files
            from state   -- an aggregate: one row, with no state too
        ) as bounds
    ),
    {%- endif %}

    -- per date, what is new since M's watermark and M's state rows of the date; reading the
    -- source, M's run rows too (event date null: they count in the total only)
    date_facts as (
        select
            state.event_date,
            case when {{ fe_new_row if not reads_source else 'false' }} then state.new_rows end as new_rows,
            case when {{ fe_new_row if not reads_source else 'false' }} then state.late_rows end as late_rows,
            case when state.model = '{{ model_name }}' and state.kind = 'date' then state.committed_at end as state_order,
            struct(state.processed_rows, state.skipped_rows, state.last_processed_at) as model_state,
            case when state.model = '{{ model_name }}' and state.kind = 'date' then state.lower_limit end as first_load,
            case when state.{{ model_run }} then state.batch end as run_batch,
            case when state.{{ model_run }} then state.watermark end as run_watermark
            {%- for c in window_columns if window %},
            null as {{ c }}
            {%- endfor %}
        from state
        {%- if not reads_source %}
        cross join reads
        {%- endif %}
        where (
            state.kind = 'date'
            {%- if first_build %} and {{ "state.model = 'tl_filtered_events'" if not reads_source else 'false' }}{% endif %}
            {%- if backfill and reads_source %} and state.event_date between date'{{ backfill[0] }}' and date'{{ backfill[1] }}'{% endif %}
        )
        {%- if reads_source and not first_build %}
            or state.{{ model_run }}
        {%- endif %}
        {%- if window %}
        union all
        select event_date, new_rows, late_rows, null, null, first_load, null, null, {{ window_columns | join(', ') }}
        from window_events
        {%- endif %}
        union all   -- one row of nulls: the total row exists with no state and no window too
        select null, null, null, null, null, null, null, null {%- for c in window_columns if window %}, null{% endfor %}
    ),

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
            max(run_batch) as run_batch,
            max(run_watermark) as run_watermark
            {%- if window %},
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
            {%- if backfill and reads_source %}
            {#- every date of the range with state or new rows #}
            {%- else %}
            and (new_rows > 0 {{- ' or coalesce(current_state.skipped_rows, 0) > 0' if not backfill }})
            {%- endif %}
        )
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

    {#- the bounds: reading filtered events, from `reads`; reading the source, from the total #}
    {%- if not reads_source %}
        {%- set bounds = ['reads.watermark', 'reads.filtered_upper', 'reads.reads_up_to', 'reads.state_files'] %}
    {%- else %}
        {%- set upper = window_upper if window else 'run_watermark' %}
        {%- set bounds = ['cast(null as timestamp)' if first_build else 'run_batch', upper, upper, 'cast(null as int)'] %}
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
        {%- if (backfill or first_build) and not reads_source %}
        new_rows as processed_rows,
        {%- else %}
        case when processed then processed_before + skipped_before + new_rows else processed_before end as processed_rows,
        {%- endif %}
        case when processed then 0 else pending_rows end as skipped_rows,
        case when processed then {{ tideline.ts(now) }} else current_state.last_processed_at end as last_processed_at,
        case when is_total then {{ bounds[3] }} end as state_files,
        cast(first_load as string) as first_load
        {%- if window %},
        {{ tideline.window_columns_sql() | indent(8) }}
        {%- endif %}
    from decisions
    {%- if not reads_source %}
    cross join reads
    {%- endif %}
    {%- if window %}
    cross join limits
    {%- endif %}
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

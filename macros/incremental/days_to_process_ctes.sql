{#- days_to_process: the decision query's parts (days_to_process_sql), each given the query's
    settings `q` (model_name, first_build, backfill, reads_source, window, window_upper,
    model_run, fe_new_row, window_columns, min_rows, reprocess_days, now). -#}

{#- M's state rows (and tl_filtered_events'), and reading filtered events, the bounds they give (`reads`). -#}
{% macro _dtp_state_ctes(q) %}
    {#- reading the source, the files of M's state come from its watermark query instead #}
    state as (
        select *{% if not q.reads_source %}, {{ tideline.state_file_column() }} as state_file{% endif %}
        from {{ tideline.state_table() }}
        where model in ('{{ q.model_name }}' {%- if not q.reads_source %}, 'tl_filtered_events'{% endif %})
    ),
    {%- if not q.reads_source %}

    reads as (
        select
            watermark,
            filtered_upper,
            {{ 'watermark' if q.backfill else 'filtered_upper' }} as reads_up_to,
            state_files,
            model_runs
        from (
            select
                {% if q.first_build %}cast(null as timestamp){% else %}max(case when {{ q.model_run }} then batch end){% endif %} as watermark,
                max(case when model = 'tl_filtered_events' and kind = 'run' then batch end) as filtered_upper,
                {{ tideline.state_files_sql(q.model_name, 'state_file') }} as state_files,
                count(case when {{ q.model_run }} then 1 end) as model_runs
            from state   -- an aggregate: one row, with no state too
        ) as bounds
    ),
    {%- endif %}
{% endmacro %}

{#- Per date, what is new since M's watermark and M's state rows of the date. -#}
{% macro _dtp_date_facts_cte(q) %}
    -- per date, what is new since M's watermark and M's state rows of the date; reading the
    -- source, M's run rows too (event date null: they count in the total only)
    date_facts as (
        select
            state.event_date,
            case when {{ q.fe_new_row if not q.reads_source else 'false' }} then state.new_rows end as new_rows,
            case when {{ q.fe_new_row if not q.reads_source else 'false' }} then state.late_rows end as late_rows,
            case when state.model = '{{ q.model_name }}' and state.kind = 'date' then state.committed_at end as state_order,
            struct(state.processed_rows, state.skipped_rows, state.last_processed_at) as model_state,
            case when state.model = '{{ q.model_name }}' and state.kind = 'date' then state.first_load end as first_load,
            case when state.model = '{{ q.model_name }}' and state.kind = 'date' and state.lower_limit is not null then 1 end as row_v2,
            case when state.model = '{{ q.model_name }}' and state.kind = 'date' and state.processed then state.batch end as processed_batch,
            case when state.{{ q.model_run }} then state.batch end as run_batch,
            case when state.{{ q.model_run }} then state.watermark end as run_watermark
            {%- for c in q.window_columns if q.window %},
            null as {{ c }}
            {%- endfor %}
        from state
        {%- if not q.reads_source %}
        cross join reads
        {%- endif %}
        where (
            state.kind = 'date'
            {%- if q.first_build %} and {{ "state.model = 'tl_filtered_events'" if not q.reads_source else 'false' }}{% endif %}
            {%- if q.backfill and q.reads_source %} and state.event_date between date'{{ q.backfill[0] }}' and date'{{ q.backfill[1] }}'{% endif %}
        )
        {%- if q.reads_source and not q.first_build %}
            or state.{{ q.model_run }}
        {%- endif %}
        {%- if q.window %}
        union all
        select event_date, new_rows, late_rows, null, null, first_load, null, null, null, null, {{ q.window_columns | join(', ') }}
        from window_events
        {%- endif %}
        union all   -- one row of nulls: the total row exists with no state and no window too
        select null, null, null, null, null, null, null, null, null, null {%- for c in q.window_columns if q.window %}, null{% endfor %}
    ),
{% endmacro %}

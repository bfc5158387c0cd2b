{#- tl_filtered_events: a run's decide query, its rows, its write and its commit (steps 2 to 4 of
    filtered_events.sql). -#}

{#- 3. write: a first run or --full-refresh replaces the rows table with the window's events;
    a later run appends them, in the table's column order. -#}
{% macro _filtered_events_write(rows_relation, select_sql, existing, first_run, format) %}
    {%- if first_run -%}
        {%- do tideline.replace_table(rows_relation, '{} distribute by event_date'.format(select_sql), 'event_date', existing, format) -%}
    {%- else -%}
        {%- set columns = tideline.column_names(existing) -%}
        {% call statement('write', fetch_result=false) %}
            insert into {{ rows_relation }} partition (event_date)
            select {{ columns | join(', ') }}
            from ({{ select_sql }}) as new_rows
            distribute by event_date
        {% endcall %}
    {%- endif -%}
{% endmacro %}

{#- 4. commit: one insert into tl_state, a row per touched event date and the run row (a first
    run replaces the model's state). -#}
{% macro _filtered_events_commit(model_name, run, first_run, state_files) %}
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
{% endmacro %}

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
    {%- set run = tideline.window_facts(rows | selectattr('kind', 'equalto', 'run') | first) -%}
    {%- set dates = [] -%}
    {%- for r in rows if r.kind == 'date' -%}{%- do dates.append([r.event_date, r.new_rows | int, r.late_rows | int]) -%}{%- endfor -%}
    {%- do run.update({'rows_written': dates | sum(attribute=1), 'dates': dates | sort(attribute=0)}) -%}
    {{- return(run) -}}
{% endmacro %}

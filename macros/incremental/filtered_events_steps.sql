{#- tl_filtered_events: a run's write and its commit (steps 3 and 4 of filtered_events.sql). -#}

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

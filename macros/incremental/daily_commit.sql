{#- Daily aggregates: a run's commit and its line in the log. -#}

{#- One insert into tl_state: a row per changed date and the run row. Reading the source, the
    run row carries the window's facts, as tl_filtered_events's would. `path`: the merge path's
    {'name': 'merge', 'rows_read': the new rows it read (none: as the recompute path counts
    them), 'state_key': where a rebuild into a new table commits (none: the model)}; none for
    the recompute path. -#}
{% macro _commit_daily_run(model_name, plan, changed, process_dates, rows_written, backfill, reads_source, path=none) %}
    {%- set path = path or {'name': 'recompute', 'rows_read': none, 'state_key': none} -%}
    {%- set late_rows_skipped = plan.dates | rejectattr('processed') | sum(attribute='late_rows') -%}
    {%- set run = {'lower': plan.watermark, 'watermark': plan.reads_up_to, 'rows_read': plan.dates | selectattr('processed') | sum(attribute='processed_rows'),
        'duplicates_dropped': 0, 'rows_rejected': 0, 'rows_without_load_time': none} -%}
    {%- if path.rows_read is not none -%}{%- do run.update({'rows_read': path.rows_read}) -%}{%- endif -%}
    {%- if plan.window -%}
        {%- do run.update(plan.window) -%}
        {%- do run.update({'lower': none if plan.first_build else plan.window.lower}) -%}
    {%- endif -%}
    {%- do tideline.commit_run(path.state_key or model_name, {
        'kind': 'backfill' if backfill else 'run', 'batch': plan.reads_up_to,
        'lower_limit': run.lower, 'upper_limit': plan.reads_up_to, 'watermark': run.watermark,
        'rows_read': run.rows_read, 'rows_written': rows_written, 'duplicates_dropped': run.duplicates_dropped,
        'rows_rejected': run.rows_rejected, 'days_processed': process_dates | length, 'late_rows_skipped': late_rows_skipped,
        'rows_without_load_time': run.rows_without_load_time, 'definition': plan.get('definition')}, changed, replace=plan.first_build, files=plan.state_files) -%}
    {%- if plan.window -%}{%- do tideline.warn_unreadable_rows(plan.window) -%}{%- endif -%}
    {%- set name = "{} (backfill {})".format(model_name, backfill | join(' to ')) if backfill else model_name -%}
    {%- do tideline.log_run(name, run.lower, plan.reads_up_to, run.rows_read, rows_written, process_dates | length, late_rows_skipped=late_rows_skipped,
        duplicates_dropped=run.duplicates_dropped, rows_rejected=run.rows_rejected, rows_without_load_time=run.rows_without_load_time or 0, path=path.name) -%}
{% endmacro %}

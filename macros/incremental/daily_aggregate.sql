{#- Daily aggregates: an analyst's `select ... from {{ tideline.filtered_events() }} group by
    event_date, ...`, materialized as `tideline_daily_aggregate`. tideline restricts the select
    to the dates days_to_process picked, recomputes those whole days, writes them by partition
    overwrite, clears a date that now has no rows, and records per date what the aggregate
    reflects (tl_daily_aggregation_manifest). Each model keeps its own watermark over the
    filtered events' commit batches, so a model that failed, or is new, catches up by itself. -#}

{#- The FROM of a daily aggregate, one of two:

    filtered_events(): tl_filtered_events, the copy of the filtered events. The materialization
      narrows it to the dates it processes (committed rows only); compiled on its own it reads
      them all.

    source_events(): the same filtered events (the same events_this_run() and predicates), read
      from the source itself: the aggregate keeps its own run window over load_tstamp, finds in
      its decide query the dates the window touched, and recomputes them from the source's load
      partitions, from the first load of those dates (less the dedupe lookback) on. One write a
      run instead of two (no tl_filtered_events append), and no wait for tl_filtered_events.
      Compiled on its own it reads every filtered event of the source. tl_filtered_events
      itself is this select, copied window by window. -#}
{% macro filtered_events() %}
(
    select * from {{ ref('tl_filtered_events') }}
    where /* tideline: days to process */ true
) as filtered_events
{%- endmacro %}

{% macro source_events() %}
(
    select *, to_date(derived_tstamp) as event_date
    from {{ tideline.events_this_run() }}
    where
        {{ tideline.usable_event_predicate() }}
        and {{ tideline.filtered_events_predicate() }}
        and /* tideline: source days to process */ true
) as filtered_events
{%- endmacro %}

{#- Which of the two a daily aggregate reads: [its marker, whether it reads the source]. -#}
{% macro _daily_aggregate_input(model_name, model_sql) %}
    {%- for marker in ['/* tideline: days to process */ true', '/* tideline: source days to process */ true'] -%}
        {%- if marker in model_sql -%}{{- return([marker, loop.index == 2]) -}}{%- endif -%}
    {%- endfor -%}
    {{ exceptions.raise_compiler_error("tideline: daily aggregate " ~ model_name ~ " must read its events with `from {{ tideline.filtered_events() }}` or `from {{ tideline.source_events() }}`") }}
{% endmacro %}

{#- `model_sql` over source_events() with the loads to read in place of its window markers:
    every copy loaded from `first_load_date` less the dedupe lookback up to `reads_up_to` is
    ranked, and a first copy counts when it was loaded after the first window's lower limit
    (as tl_filtered_events would have kept it). -#}
{% macro _source_loads_to_read(model_sql, first_load_date, reads_up_to) %}
    {%- set lookback = tideline.var_int('tideline__dedupe_lookback_days', 0) -%}
    {%- set markers = tideline._run_window_markers() -%}
    {% set loads %}
        load_date between date_sub(date'{{ first_load_date }}', {{ lookback }}) and date'{{ reads_up_to[:10] }}'
        and load_tstamp <= {{ tideline.ts(reads_up_to) }}
    {% endset %}
    {% set after_start %}
        load_tstamp > {{ tideline.lower_limit(none)[0] }}
    {% endset %}
    {{- return(model_sql | replace(markers[0], loads | trim) | replace(markers[1], after_start | trim)) -}}
{% endmacro %}

{% macro _daily_backfill_dates() %}
    {%- set value = tideline.tl_var('tideline__backfill_dates') -%}
    {%- if value is none -%}{{ return(none) }}{%- endif -%}
    {%- set ok = value is iterable and value is not string and value is not mapping and value | length == 2 -%}
    {%- set days = [] -%}
    {%- if ok -%}
        {%- for v in value -%}
            {%- set m = modules.re.match('^(\d{4})-(\d{2})-(\d{2})$', v | string) -%}
            {%- if m and tideline._is_calendar_date(m.group(1) | int, m.group(2) | int, m.group(3) | int) -%}
                {%- do days.append(v | string) -%}
            {%- endif -%}
        {%- endfor -%}
    {%- endif -%}
    {%- if days | length != 2 or days[0] > days[1] or days[1] >= tideline.now()[:10] -%}
        {{ tideline._var_error('tideline__backfill_dates', value, "[first, last]: two past dates YYYY-MM-DD, first <= last < today") }}
    {%- endif -%}
    {{- return(days) -}}
{% endmacro %}

{#- A first build (or --full-refresh) checks the select's date column before writing: it must
    be there and be a date, since it is the partition column (a timestamp truncated to the hour
    would make every hour a partition, and days_to_process works in days). One `describe
    query`: Spark plans the select without running it. -#}
{% macro check_date_column(model_name, select_sql, date_column) %}
    {%- set types = {} -%}
    {%- for row in tideline.query_rows('describe query ' ~ select_sql) -%}{%- do types.update({row[0] | lower: row[1] | lower}) -%}{%- endfor -%}
    {%- if types.get(date_column | lower) != 'date' -%}
        {{ exceptions.raise_compiler_error("tideline: daily aggregate " ~ model_name ~ ": its date column " ~ date_column ~ " "
            ~ ("is " ~ types[date_column | lower] if date_column | lower in types else "is not in its select (columns: " ~ types.keys() | join(', ') ~ ")")
            ~ "; it must be a date, one partition per day (e.g. to_date(derived_tstamp) as " ~ date_column
            ~ ", or set config date_column to the select's date column)") }}
    {%- endif -%}
{% endmacro %}

{#- The model's rows over the filtered events that `filtered_rows` selects, with the commit
    columns (`reads_up_to` none: an empty first build, whose batch is null). -#}
{% macro _daily_rows_sql(model_sql, marker, filtered_rows, reads_up_to) %}
    {% set day_sql %}
        select *,
            {{ 'cast(null as timestamp)' if reads_up_to is none else tideline.ts(reads_up_to) }} as _tl_batch,
            '{{ tideline.run_id() }}' as _tl_run
        from ({{ model_sql | replace(marker, filtered_rows) }}) as day_rows
    {% endset %}
    {{- return(day_sql) -}}
{% endmacro %}

{#- Build one daily aggregate: at most four statements (over source_events(), five: its
    watermark first, then a decide query that also reads its window of the source).
      1. decide: the days_to_process query over tl_state (nothing new: stop here, no trace);
      2. write:  one insert overwrite of the processed dates, recomputed whole from their
                 committed filtered events (a first build or --full-refresh builds a new table
                 and swaps it in);
      3. check:  which processed dates got rows from this run (a date that now has none still
                 holds its old rows: dynamic partition overwrite leaves it) and rows written;
                 the emptied dates are dropped in one more statement when there are any;
      4. commit: one insert into tl_state: a row per changed date and the run row.
    Returns {'rows_written': n} or none when there was nothing to do. -#}
{% macro build_daily_aggregate(relation, model_sql, date_column, existing, full_refresh) %}
    {%- set model_name = relation.identifier -%}
    {%- set marker, reads_source = tideline._daily_aggregate_input(model_name, model_sql) -%}
    {%- do tideline.compact_every_setting(model_name) -%}
    {%- set backfill = tideline._daily_backfill_dates() -%}
    {%- if backfill and (existing is none or full_refresh) -%}
        {{ exceptions.raise_compiler_error("tideline: cannot backfill " ~ model_name ~ ": "
            ~ ("it was never built; run it without tideline__backfill_dates first" if existing is none
               else "a --full-refresh rebuilds every date; run the backfill without --full-refresh")) }}
    {%- endif -%}
    {%- set first_build = full_refresh or existing is none -%}
    {%- set format = tideline.model_file_format(model_name) -%}
    {%- if not first_build -%}{%- do tideline.refuse_other_file_format(model_name, existing, format) -%}{%- endif -%}

    {#- 1. decide (reading the source, the model's watermark first: its window's lower limit) -#}
    {%- set state = {'watermark': none, 'files': none} -%}
    {%- if reads_source and not first_build -%}
        {%- set watermark, files = tideline.window_watermark(model_name) -%}
        {%- do state.update({'watermark': watermark, 'files': files}) -%}
    {%- endif -%}
    {%- set lower = tideline.lower_limit(state.watermark) -%}
    {%- set window_lower = lower if reads_source and not backfill else none -%}
    {%- set plan = tideline.days_to_process(model_name, first_build, backfill, reads_source, window_lower) -%}
    {%- if plan.watermark is none and (plan.filtered_upper is not none or reads_source) and not first_build -%}
        {#- the table is there but no run of it committed (its first build found no events,
            or died before its commit): this run is its first build -#}
        {%- if backfill -%}
            {{ exceptions.raise_compiler_error("tideline: cannot backfill " ~ model_name ~ ": no run of it has committed yet; run it without tideline__backfill_dates first") }}
        {%- endif -%}
        {%- set first_build = true -%}
        {%- set plan = tideline.days_to_process(model_name, first_build, backfill, reads_source, window_lower) -%}
    {%- endif -%}
    {%- do tideline.refuse_now_before_watermark(model_name, plan.watermark) -%}
    {%- do tideline.checkpoint(model_name, 'decided') -%}
    {%- set process_dates = plan.dates | selectattr('processed') | map(attribute='event_date') | list -%}
    {%- set late_rows_skipped = plan.dates | rejectattr('processed') | sum(attribute='late_rows') -%}
    {%- set changed = plan.dates | selectattr('processed') | list + (plan.dates | rejectattr('processed') | selectattr('new_rows') | list) -%}
    {%- set nothing_read = plan.window is not none and plan.window.rows_read == 0 -%}
    {%- if plan.filtered_upper is none or (not changed and (not first_build or nothing_read)) -%}
        {#- nothing new and nothing that became processable: no write, no commit, no trace.
            Only a first build creates the (empty) table, so that readers and tests find it. -#}
        {%- do log("tideline " ~ model_name ~ ": " ~ ("tl_filtered_events has no committed run yet" if plan.filtered_upper is none
            else "nothing new since " ~ plan.watermark) ~ "; nothing to do", info=true) -%}
        {%- if plan.window -%}{%- do tideline.warn_unreadable_rows(plan.window) -%}{%- endif -%}
        {%- if existing is none -%}
            {%- set empty_sql = tideline._daily_rows_sql(model_sql, marker, 'false', none) -%}
            {%- do tideline.check_date_column(model_name, empty_sql, date_column) -%}
            {%- do tideline.replace_table(relation, empty_sql, date_column, none, format) -%}
        {%- endif -%}
        {{ return(none) }}
    {%- endif -%}

    {#- 2. write -#}
    {%- if reads_source -%}
        {%- set first_loads = plan.dates | selectattr('processed') | map(attribute='lower_limit') | reject('none') | list -%}
        {%- set first_load_date = lower[1] if first_build or not first_loads else (first_loads | min)[:10] -%}
        {%- set model_sql = tideline._source_loads_to_read(model_sql, first_load_date, plan.reads_up_to) -%}
        {%- set filtered_rows -%}
            {%- if first_build %}true{% else %}to_date(derived_tstamp) in {{ tideline.date_list(process_dates) }}{% endif -%}
        {%- endset -%}
    {%- else -%}
        {%- set filtered_rows -%}
            {{- 'true' if first_build else 'event_date in ' ~ tideline.date_list(process_dates) }}
            and _tl_batch <= {{ tideline.ts(plan.reads_up_to) }}
        {%- endset -%}
    {%- endif -%}
    {%- set day_sql = tideline._daily_rows_sql(model_sql, marker, filtered_rows, plan.reads_up_to) -%}
    {%- set written = {'rows': 0} -%}
    {%- if first_build -%}
        {%- do tideline.check_date_column(model_name, day_sql, date_column) -%}
        {%- do tideline.replace_table(relation, day_sql, date_column, existing, format) -%}
        {%- do written.update({'rows': tideline.query_rows('select count(*) from ' ~ relation)[0][0] | int}) -%}
    {%- elif process_dates -%}
        {%- set columns = tideline.cached_columns(existing) or (adapter.get_columns_in_relation(existing) | map(attribute='name') | list) -%}
        {% call statement('write', fetch_result=false) %}
            insert overwrite table {{ relation }} partition ({{ date_column }})
            select {{ columns | join(', ') }}
            from ({{ day_sql }}) as new_rows
            distribute by {{ date_column }}
        {% endcall %}

        {#- 3. check -#}
        {%- set found = tideline.query_rows('select cast(' ~ date_column ~ " as string), count_if(_tl_run = '" ~ tideline.run_id()
            ~ "') from " ~ relation ~ ' where ' ~ date_column ~ ' in ' ~ tideline.date_list(process_dates) ~ ' group by 1') -%}
        {%- do tideline.delete_dates(relation, date_column, found | rejectattr(1) | map('first') | list, format) -%}
        {%- do written.update({'rows': found | sum(attribute=1)}) -%}
    {%- endif -%}
    {%- do tideline.checkpoint(model_name, 'written') -%}

    {#- 4. commit (reading the source, the run row carries the window's facts, as
        tl_filtered_events's would) -#}
    {%- set run = {'lower': plan.watermark, 'watermark': plan.reads_up_to, 'rows_read': plan.dates | selectattr('processed') | sum(attribute='processed_rows'),
        'duplicates_dropped': 0, 'rows_rejected': 0, 'rows_without_load_time': none} -%}
    {%- if plan.window -%}
        {%- do run.update(plan.window) -%}
        {%- do run.update({'lower': none if first_build else plan.window.lower}) -%}
    {%- endif -%}
    {%- do tideline.commit_run(model_name, {
        'kind': 'backfill' if backfill else 'run', 'batch': plan.reads_up_to,
        'lower_limit': run.lower, 'upper_limit': plan.reads_up_to, 'watermark': run.watermark,
        'rows_read': run.rows_read, 'rows_written': written.rows, 'duplicates_dropped': run.duplicates_dropped,
        'rows_rejected': run.rows_rejected, 'days_processed': process_dates | length, 'late_rows_skipped': late_rows_skipped,
        'rows_without_load_time': run.rows_without_load_time}, changed, replace=first_build,
        files=state.files if reads_source else plan.state_files) -%}
    {%- if plan.window -%}{%- do tideline.warn_unreadable_rows(plan.window) -%}{%- endif -%}
    {%- do tideline.log_run(model_name ~ (' (backfill ' ~ backfill | join(' to ') ~ ')' if backfill else ''),
        run.lower, plan.reads_up_to, run.rows_read, written.rows, process_dates | length, late_rows_skipped=late_rows_skipped,
        duplicates_dropped=run.duplicates_dropped, rows_rejected=run.rows_rejected, rows_without_load_time=run.rows_without_load_time or 0) -%}
    {{- return({'rows_written': written.rows}) -}}
{% endmacro %}

{#- Daily aggregates: an analyst's `select ... from {{ tideline.filtered_events() }} group by
    event_date, ...`, materialized as `tideline_daily_aggregate`. tideline restricts the select
    to the dates days_to_process picked, recomputes those whole days, writes them by partition
    overwrite, clears a date that now has no rows, and records per date what the aggregate
    reflects (tl_daily_aggregation_manifest). Each model keeps its own watermark over the
    filtered events' commit batches, so a model that failed, or is new, catches up by itself. -#}

{#- The filtered events, as the FROM of a daily aggregate. The materialization narrows it to
    the dates it processes (committed rows only); compiled on its own it reads them all. -#}
{% macro filtered_events() %}
    (select * from {{ ref('tl_filtered_events') }} where /* tideline: days to process */ true) as filtered_events
{%- endmacro %}

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

{#- Build one daily aggregate. Returns the SQL of its final statement, for statement('main'). -#}
{% macro build_daily_aggregate(relation, model_sql, date_column, exists, full_refresh) %}
    {%- set model_name = relation.identifier -%}
    {%- set marker = '/* tideline: days to process */ true' -%}
    {%- if marker not in model_sql -%}
        {{ exceptions.raise_compiler_error("tideline: daily aggregate " ~ model_name ~ " must read its events with `from {{ tideline.filtered_events() }}`") }}
    {%- endif -%}
    {%- set backfill = tideline._daily_backfill_dates() -%}
    {%- if backfill and not exists -%}
        {{ exceptions.raise_compiler_error("tideline: cannot backfill " ~ model_name ~ ": it was never built; run it without tideline__backfill_dates first") }}
    {%- endif -%}
    {%- set filtered_upper = tideline.watermark('tl_filtered_events')[1] -%}
    {%- if filtered_upper is none -%}
        {%- do log("tideline " ~ model_name ~ ": tl_filtered_events has no committed run yet; nothing to do", info=true) -%}
        {{ return('select 1') }}
    {%- endif -%}
    {%- if full_refresh -%}
        {%- do tideline.reset_state(model_name) -%}
    {%- endif -%}
    {%- set own_upper = none if full_refresh else tideline.watermark(model_name)[1] -%}
    {%- set first_build = full_refresh or own_upper is none -%}
    {%- set batch = own_upper if backfill else filtered_upper -%}
    {%- set now = tideline.now() -%}

    {#- 1. decide: one row per candidate date, kept for the statements below -#}
    {%- set decisions = 'tl_days__' ~ model_name -%}
    {%- do tideline.exec('drop view if exists ' ~ decisions) -%}
    {%- do tideline.exec('cache table ' ~ decisions ~ ' as ' ~ tideline.days_to_process_sql(model_name, own_upper, filtered_upper, first_build, backfill)) -%}
    {%- set process_dates = tideline.query_rows('select cast(event_date as string) from ' ~ decisions ~ ' where processed order by 1') | map('first') | list -%}
    {%- set totals = tideline.query_rows('select count(*), coalesce(sum(case when not processed then late_rows end), 0) from ' ~ decisions)[0] -%}
    {%- do tideline.checkpoint(model_name, 'decided') -%}
    {%- if (totals[0] | int) == 0 and not first_build -%}
        {#- nothing new and nothing pending: no write, no commit, so a rerun leaves no trace -#}
        {%- do tideline.exec('uncache table if exists ' ~ decisions) -%}
        {%- do tideline.log_run(model_name, own_upper, filtered_upper, 0, 0, 0) -%}
        {{ return('select 0 as rows_written') }}
    {%- endif -%}

    {#- 2. recompute the processed dates from their committed filtered events -#}
    {%- set filtered = ref('tl_filtered_events') -%}
    {%- set committed_rows = 'event_date in ' ~ tideline.date_list(process_dates)
        ~ ' and _tl_batch in (' ~ tideline.committed_batches_sql('tl_filtered_events') ~ ') and _tl_batch <= ' ~ tideline.ts(filtered_upper) -%}
    {%- set day_sql = model_sql | replace(marker, committed_rows) -%}
    {%- set columns = get_columns_in_query(day_sql) -%}
    {%- if date_column not in columns -%}
        {{ exceptions.raise_compiler_error("tideline: daily aggregate " ~ model_name ~ " must return its date column `" ~ date_column ~ "` (config date_column); it returns " ~ columns | join(', ')) }}
    {%- endif -%}
    {%- set ordered = [] -%}
    {%- for c in columns if c != date_column -%}{%- do ordered.append(c) -%}{%- endfor -%}
    {%- do ordered.append(date_column) -%}
    {%- set select_ordered = 'select ' ~ ordered | join(', ') ~ ' from (' ~ day_sql ~ ') as day_rows' -%}
    {%- set written = [0] -%}
    {%- if first_build -%}
        {%- do tideline.exec('drop table if exists ' ~ relation) -%}
        {%- do tideline.exec('create table ' ~ relation ~ ' using parquet partitioned by (' ~ date_column ~ ') as ' ~ select_ordered) -%}
        {%- do written.append(tideline.query_rows('select count(*) from ' ~ relation)[0][0] | int) -%}
    {%- elif process_dates -%}
        {%- set staged = 'tl_stage__' ~ model_name -%}
        {%- do tideline.exec('drop view if exists ' ~ staged) -%}
        {%- do tideline.exec('cache table ' ~ staged ~ ' as ' ~ select_ordered) -%}
        {%- do tideline.exec('insert overwrite table ' ~ relation ~ ' partition (' ~ date_column ~ ') select * from ' ~ staged) -%}
        {%- set present = tideline.query_rows('select distinct cast(' ~ date_column ~ ' as string) from ' ~ staged) | map('first') | list -%}
        {%- for d in process_dates if d not in present -%}
            {#- dynamic overwrite leaves a partition with no new rows untouched: clear it -#}
            {%- do tideline.exec('alter table ' ~ relation ~ " drop if exists partition (" ~ date_column ~ " = date'" ~ d ~ "')") -%}
        {%- endfor -%}
        {%- do written.append(tideline.query_rows('select count(*) from ' ~ staged)[0][0] | int) -%}
        {%- do tideline.exec('uncache table if exists ' ~ staged) -%}
        {%- do tideline.exec('drop view if exists ' ~ staged) -%}
    {%- endif -%}
    {%- do tideline.checkpoint(model_name, 'written') -%}

    {#- 3. record what each candidate date now reflects, then commit -#}
    {%- set seq = 'coalesce((select max(seq) from ' ~ tideline.state_table('tl_daily_aggregation_manifest') ~ " where model = '" ~ model_name ~ "'), 0) + 1" -%}
    {%- do tideline.exec('insert into ' ~ tideline.state_table('tl_daily_aggregation_manifest') ~ " partition (model = '" ~ model_name ~ "')"
        ~ ' select d.event_date,'
        ~ ' case when d.processed then coalesce(c.rows_now, 0) else d.processed_rows end,'
        ~ ' case when d.processed then 0 else d.pending end,'
        ~ ' case when d.processed then ' ~ tideline.ts(now) ~ ' else s.last_processed_at end,'
        ~ ' ' ~ tideline.ts(batch) ~ ', ' ~ seq
        ~ ' from ' ~ decisions ~ ' as d'
        ~ ' left join (select event_date, count(*) as rows_now from ' ~ filtered ~ ' where ' ~ committed_rows ~ ' group by event_date) as c on c.event_date = d.event_date'
        ~ ' left join (' ~ tideline.aggregation_state_sql(model_name) ~ ') as s on s.event_date = d.event_date') -%}
    {%- do tideline.exec('insert into ' ~ tideline.state_table('tl_days_to_process') ~ " partition (model = '" ~ model_name ~ "')"
        ~ ' select event_date, new_rows, late_rows, pending, processed, ' ~ tideline.ts(batch) ~ ', ' ~ tideline.ts(now) ~ ' from ' ~ decisions) -%}
    {%- do tideline.checkpoint(model_name, 'recorded') -%}
    {%- set rows_read = tideline.query_rows('select coalesce(sum(rows_now), 0) from (select count(*) as rows_now from ' ~ filtered ~ ' where ' ~ committed_rows ~ ')')[0][0] | int -%}
    {%- if not backfill -%}
        {%- do tideline.commit_run(model_name, own_upper, filtered_upper, filtered_upper, rows_read, written[-1], 0, 0,
            process_dates | length, totals[1] | int) -%}
    {%- endif -%}
    {%- do tideline.exec('uncache table if exists ' ~ decisions) -%}
    {%- do tideline.exec('drop view if exists ' ~ decisions) -%}
    {%- do tideline.log_run(model_name ~ (' (backfill ' ~ backfill | join(' to ') ~ ')' if backfill else ''),
        own_upper, filtered_upper, rows_read, written[-1], process_dates | length, late_rows_skipped=totals[1] | int) -%}
    {{- return('select ' ~ written[-1] ~ ' as rows_written') -}}
{% endmacro %}

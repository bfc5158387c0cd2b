{#- Daily aggregates, merge path: how the parts lie, and which view readers get.

    A date is single when its committed rows are one run's (a rebuild's, a compaction's, or the
    only part ever written for it) and no run that died left a part in it. Over single dates the
    model's view reads the parts table as it is, without merging: on Delta and Iceberg it reads
    the version the run left (`version as of`), so that the next run's part and compaction reach
    readers only when that run replaces the view. Otherwise the view merges committed parts.

    The view records `tideline.open_from`, a batch: every date whose rows all carry an older
    _tl_batch is single. A run's part carries the batch it read up to, never older than the last
    committed run's, and so does a part of a run that died; so only the dates with a row at or
    after open_from need looking at (the files' column statistics skip the rest). -#}

{#- The dates with a row at or after `open_from` (every date when it is none). -#}
{% macro merge_open_dates_sql(data, date_column, open_from) %}
    {% set sql %}
        select distinct cast({{ date_column }} as string) as part_date
        from {{ data }}
        {%- if open_from is not none %}
        where _tl_batch >= {{ tideline.ts(open_from) }}
        {%- endif %}
    {% endset %}
    {{- return(sql) -}}
{% endmacro %}

{#- Of `dates`, those that are not single: how many committed runs and how many runs that never
    committed left rows in each. The dates' runs are found first (a few pairs of date and run
    id), then joined with the committed runs, not every row of the dates (on parquet at 200,000
    events a day about 15% less; on Delta no difference: docs/benchmarks.md). -#}
{% macro merge_unsettled_dates_sql(model_name, data, date_column, dates) %}
    {% set sql %}
        select cast(parts.{{ date_column }} as string) as part_date,
            count(distinct committed.run_id) as committed_runs,
            count(distinct case when committed.run_id is null then parts._tl_run end) as dead_runs
        from (
            select distinct {{ date_column }}, _tl_run
            from {{ data }}
            where {{ date_column }} in {{ tideline.date_list(dates) }}
        ) as parts
        left join ({{ tideline.committed_runs_sql(model_name) }}) as committed
            on parts._tl_run = committed.run_id
        group by 1
        having count(distinct committed.run_id) > 1
            or count(distinct case when committed.run_id is null then parts._tl_run end) > 0
    {% endset %}
    {{- return(sql) -}}
{% endmacro %}

{#- The dates that are not single, as {'to_compact': dates with committed rows of several runs or
    a dead part beside committed rows, 'to_clear': dates holding dead parts only}. -#}
{% macro _merge_layout(model_name, data, date_column, open_from) %}
    {%- set open_dates = tideline.query_rows(tideline.merge_open_dates_sql(data, date_column, open_from)) | map(attribute='part_date') | list -%}
    {%- set rows = tideline.query_rows(tideline.merge_unsettled_dates_sql(model_name, data, date_column, open_dates)) if open_dates else [] -%}
    {%- set layout = {'to_compact': [], 'to_clear': []} -%}
    {%- for row in rows | sort(attribute='part_date') -%}
        {%- do layout['to_compact' if row.committed_runs | int > 0 else 'to_clear'].append(row.part_date) -%}
    {%- endfor -%}
    {{- return(layout) -}}
{% endmacro %}

{#- Makes every date single: the dates with several committed runs (or a dead part beside them)
    get their committed parts merged into one row per key, tagged with this committed run (one
    insert overwrite of their partitions); the dates holding dead parts only are deleted. -#}
{% macro _merge_settle(model_name, date_column, measures, data, layout, format) %}
    {%- if layout.to_compact -%}
        {%- set columns = tideline.column_names(data) -%}
        {%- set merged = tideline.merged_parts_sql(data, tideline._merge_columns(columns), measures, tideline.committed_runs_sql(model_name),
                                                    '{} in {}'.format(date_column, tideline.date_list(layout.to_compact)), tideline.run_id()) -%}
        {% call statement('compact_parts', fetch_result=false) %}
            insert overwrite table {{ data }} partition ({{ date_column }})
            select {{ columns | join(', ') }}
            from ({{ merged }}) as merged
            distribute by {{ date_column }}
        {% endcall %}
    {%- endif -%}
    {%- do tideline.delete_dates(data, date_column, layout.to_clear, format) -%}
{% endmacro %}

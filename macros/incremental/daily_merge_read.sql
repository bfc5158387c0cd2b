{#- Daily aggregates, merge path: what the model's view reads, and the one row per key a part
    keeps (see daily_merge.sql). -#}

{#- The view's select over the parts table `data`: the rows of committed runs (`runs_sql`), one
    row per key. A date whose committed rows all come from one run (a date written once, or
    compacted since its last part) holds one row per key already (every part does, see
    one_row_per_key_sql): it is read as it is stored. Only the other dates, those with parts of
    several runs (processed since their last compaction), are merged by key. So reading a
    compacted aggregate costs about what reading a plain table does; the set of single-run dates
    is one small aggregation of (date, _tl_run), and a filter on the date column reaches it. -#}
{% macro merged_read_sql(data, columns, measures, runs_sql, date_column) %}
    {%- set names = columns | map(attribute='name') | list -%}
    {%- set single_run_dates = tideline._single_run_dates_sql(data, runs_sql, date_column) -%}
    {% set several_run_parts %}
        (
            select parts.*
            from {{ data }} as parts
            left anti join {{ single_run_dates }} as single_run
            on parts.{{ date_column }} = single_run.{{ date_column }}
        ) as several_run_parts
    {% endset %}
    {% set sql %}
        select {{ tideline._qualified(names, 'parts') }}, parts._tl_batch
        from {{ data }} as parts
        left semi join {{ single_run_dates }} as single_run
        on parts.{{ date_column }} = single_run.{{ date_column }}
        where parts._tl_run in ({{ runs_sql }})
        union all
        {{ tideline.merged_parts_sql(several_run_parts, columns, measures, runs_sql) }}
    {% endset %}
    {{- return(sql) -}}
{% endmacro %}

{#- The dates of `data` whose rows of committed runs (`runs_sql`) all come from one run. -#}
{% macro _single_run_dates_sql(data, runs_sql, date_column) %}
    {% set sql %}
        (
            select {{ date_column }}
            from {{ data }}
            where _tl_run in ({{ runs_sql }})
            group by {{ date_column }}
            having min(_tl_run) = max(_tl_run)
        )
    {% endset %}
    {{- return(sql | trim) -}}
{% endmacro %}

{#- A part's rows (`rows_sql`: the model's select with the commit columns, named `columns`), one
    row per key and date, measures merged by kind: the model's select may group more finely than
    its columns (a key left out of the select), and a date written by one run is read as it is
    stored. -#}
{% macro one_row_per_key_sql(rows_sql, columns, measures) %}
    {% set part %}
        ({{ rows_sql }}) as part_rows
    {% endset %}
    {{- return(tideline.merged_parts_sql(part, tideline._merge_columns(columns), measures, "'{}'".format(tideline.run_id()), run=tideline.run_id())) -}}
{% endmacro %}

{#- Daily aggregates: the rows a run writes, and the write itself. -#}

{#- Nothing new and nothing that became processable: no write, no commit, no trace. Only a
    first build creates the (empty) table, so that readers and tests find it. -#}
{% macro _daily_nothing_to_do(relation, model_sql, marker, date_column, existing, plan, format) %}
    {%- set why = "tl_filtered_events has no committed run yet" if plan.filtered_upper is none else "nothing new since {}".format(plan.watermark) -%}
    {%- do log("tideline {}: {}; nothing to do".format(relation.identifier, why), info=true) -%}
    {%- if plan.window -%}{%- do tideline.warn_unreadable_rows(plan.window) -%}{%- endif -%}
    {%- if existing is none -%}
        {%- set empty_sql = tideline._daily_rows_sql(model_sql, marker, 'false', none) -%}
        {%- do tideline.check_date_column(relation.identifier, empty_sql, date_column) -%}
        {%- do tideline.replace_table(relation, empty_sql, date_column, none, format) -%}
    {%- endif -%}
{% endmacro %}

{#- The select of the processed dates' rows, by the aggregate's path (a strategy looked up by
    name, daily_rows_<path>, so that a project can override one): from the source's loads that
    hold them (over source_events()), or from the committed filtered events of those dates. -#}
{% macro _daily_rows_to_write(model_sql, marker, reads_source, plan, process_dates) %}
    {%- set strategies = {true: adapter.dispatch('daily_rows_source_events', 'tideline'),
                          false: adapter.dispatch('daily_rows_filtered_events', 'tideline')} -%}
    {{- return(strategies[reads_source](model_sql, marker, plan, process_dates)) -}}
{% endmacro %}

{#- The model's rows over the filtered events that `filtered_rows` selects, with the commit
    columns (`reads_up_to` none: an empty first build, whose batch is null). -#}
{% macro _daily_rows_sql(model_sql, marker, filtered_rows, reads_up_to) %}
    {% set day_sql %}
        select *,
            {{ tideline.ts(reads_up_to) }} as _tl_batch,
            '{{ tideline.run_id() }}' as _tl_run
        from ({{ model_sql | replace(marker, filtered_rows) }}) as day_rows
    {% endset %}
    {{- return(day_sql) -}}
{% endmacro %}

{#- The write: a first build replaces the table; a later run overwrites the processed dates'
    partitions, then checks which of them got rows from this run (a date that now has none still
    holds its old rows: dynamic partition overwrite leaves it) and drops the emptied ones.
    Returns the rows written. -#}
{% macro _write_daily_dates(relation, day_sql, date_column, existing, format, first_build, process_dates) %}
    {%- if first_build -%}
        {%- do tideline.check_date_column(relation.identifier, day_sql, date_column) -%}
        {%- do tideline.replace_table(relation, day_sql, date_column, existing, format) -%}
        {%- set count_sql -%}select count(*) as written from {{ relation }}{%- endset -%}
        {{- return(tideline.query_rows(count_sql)[0].written | int) -}}
    {%- endif -%}
    {%- if not process_dates -%}{{ return(0) }}{%- endif -%}
    {%- set columns = tideline.column_names(existing) -%}
    {% call statement('write', fetch_result=false) %}
        insert overwrite table {{ relation }} partition ({{ date_column }})
        select {{ columns | join(', ') }}
        from ({{ day_sql }}) as new_rows
        distribute by {{ date_column }}
    {% endcall %}
    {% set check_sql %}
        select cast({{ date_column }} as string) as written_date, count_if(_tl_run = '{{ tideline.run_id() }}') as written
        from {{ relation }}
        where {{ date_column }} in {{ tideline.date_list(process_dates) }}
        group by 1
    {% endset %}
    {%- set found = tideline.query_rows(check_sql) -%}
    {%- do tideline.delete_dates(relation, date_column, found | rejectattr('written') | map(attribute='written_date') | list, format) -%}
    {{- return(found | sum(attribute='written')) -}}
{% endmacro %}

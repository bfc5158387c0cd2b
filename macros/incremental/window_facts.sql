{#- A run window's counts: the columns of window_events, their totals and the facts read from them. -#}

{#- The columns of window_events, in order. -#}
{% macro window_event_columns() %}
    {{- return(['event_date', 'new_rows', 'late_rows', 'first_load', 'rows_read', 'rows_without_id',
                'newest_load', 'events', 'without_time']) -}}
{% endmacro %}

{#- The run's counts, aggregated over window_events rows (the total row of a decide query). -#}
{% macro window_totals_sql() %}
    coalesce(sum(rows_read), 0) as rows_read,
    coalesce(sum(rows_without_id), 0) as rows_without_id,
    max(newest_load) as newest_load,
    coalesce(sum(events), 0) as events,
    coalesce(sum(without_time), 0) as without_time
{%- endmacro %}

{#- The run's facts as the decide queries select them, from limits and the window totals
    (window_totals_sql) of their total row, under the names window_facts() reads. -#}
{% macro window_columns_sql() %}
    cast(limits.lower_limit as string) as lower_limit, cast(limits.upper_limit as string) as upper_limit,
    rows_read, rows_without_id, cast(newest_load as string) as newest_load,
    events, without_time, limits.rows_without_load_time,
    limits.rows_loaded_after_now, limits.rows_in_other_load_date
{%- endmacro %}

{#- The run's facts from a row of the columns window_columns_sql selects (query_rows). -#}
{% macro window_facts(row) %}
    {%- set rows_read, without_id = row.rows_read | int, row.rows_without_id | int -%}
    {{- return({
        'lower': row.lower_limit, 'upper': row.upper_limit, 'watermark': row.newest_load or row.lower_limit,
        'rows_read': rows_read, 'rows_rejected': without_id + row.without_time | int,
        'duplicates_dropped': rows_read - row.events | int - without_id,
        'rows_without_load_time': row.rows_without_load_time | int, 'rows_loaded_after_now': row.rows_loaded_after_now | int,
        'rows_in_other_load_date': row.rows_in_other_load_date | int}) -}}
{% endmacro %}

{#- Attributes over a period, from the daily parts: first and last values, unique lists. -#}

{#- The first (last) value, from a daily_first (daily_last) column. -#}
{% macro first_in_period(column, n=none, include_today=none, date_column='event_date') %}
    min(case when {{ tideline.in_period(n, include_today, date_column) }} then {{ column }} end).val
{%- endmacro %}

{% macro last_in_period(column, n=none, include_today=none, date_column='event_date') %}
    max(case when {{ tideline.in_period(n, include_today, date_column) }} then {{ column }} end).val
{%- endmacro %}

{#- The distinct values, sorted, from a daily_unique_list column. -#}
{% macro unique_list_in_period(column, n=none, include_today=none, date_column='event_date') %}
    array_sort(array_distinct(flatten(collect_list(case when {{ tideline.in_period(n, include_today, date_column) }} then {{ column }} end))))
{%- endmacro %}

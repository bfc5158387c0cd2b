{#- Attributes: sums and counts over the last N days of events. -#}

{% macro sum_last_n_days(expression, n, date_column='event_date', include_today=none) %}
    coalesce(sum(case when {{ tideline.in_last_n_days(n, date_column, include_today) }} then {{ expression }} end), 0)
{%- endmacro %}

{% macro count_last_n_days(expression, n, date_column='event_date', include_today=none) %}
    count(case when {{ tideline.in_last_n_days(n, date_column, include_today) }} then {{ expression }} end)
{%- endmacro %}

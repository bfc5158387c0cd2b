{#- Attributes over a period, from the daily parts: sums, extremes and means. -#}

{#- ---- Attributes over a period, from the daily parts (n none: lifetime) --------------------
    sum and count are 0 over a period without values; min, max, mean, first and last are null;
    a unique list is empty. -#}
{% macro sum_in_period(column, n=none, include_today=none, date_column='event_date') %}
    coalesce(sum(case when {{ tideline.in_period(n, include_today, date_column) }} then {{ column }} end), 0)
{%- endmacro %}

{% macro min_in_period(column, n=none, include_today=none, date_column='event_date') %}
    min(case when {{ tideline.in_period(n, include_today, date_column) }} then {{ column }} end)
{%- endmacro %}

{% macro max_in_period(column, n=none, include_today=none, date_column='event_date') %}
    max(case when {{ tideline.in_period(n, include_today, date_column) }} then {{ column }} end)
{%- endmacro %}

{#- The mean of the values, from the daily sums and counts of values. -#}
{% macro mean_in_period(sum_column, count_column, n=none, include_today=none, date_column='event_date') %}
    sum(case when {{ tideline.in_period(n, include_today, date_column) }} then {{ sum_column }} end) / nullif(sum(case when {{ tideline.in_period(n, include_today, date_column) }} then {{ count_column }} end), 0)
{%- endmacro %}

{#- Helpers for attributes tables: drop-and-recompute tables (materialized='table') over daily
    aggregates, with windows relative to tideline's "now" (tideline__now, else the run's start).
    "Last N days" is the N dates ending today: date > today - N and date <= today. -#}

{% macro today() %}
    {{- return("date'" ~ tideline.now()[:10] ~ "'") -}}
{% endmacro %}

{% macro in_last_n_days(n, date_column='event_date') %}
    {%- if n is not number or n < 1 or (n | int) != n -%}
        {{ exceptions.raise_compiler_error("tideline: in_last_n_days needs a whole number of days >= 1, got " ~ (n | tojson)) }}
    {%- endif -%}
    ({{ date_column }} > date_sub({{ tideline.today() }}, {{ n | int }}) and {{ date_column }} <= {{ tideline.today() }})
{%- endmacro %}

{#- Dates up to today: lifetime values ignore days after "now" (a replay with an earlier now). -#}
{% macro in_lifetime(date_column='event_date') %}
    ({{ date_column }} <= {{ tideline.today() }})
{%- endmacro %}

{% macro sum_last_n_days(expression, n, date_column='event_date') %}
    coalesce(sum(case when {{ tideline.in_last_n_days(n, date_column) }} then {{ expression }} end), 0)
{%- endmacro %}

{% macro count_last_n_days(expression, n, date_column='event_date') %}
    count(case when {{ tideline.in_last_n_days(n, date_column) }} then {{ expression }} end)
{%- endmacro %}

{#- Attributes: a period as a condition on the date column. -#}

{#- The dates of a period, as a condition on date_column. -#}
{% macro in_period(n=none, include_today=none, date_column='event_date') %}
    {%- set dates = tideline.period_dates(n, include_today) -%}
    {%- if dates[0] is none -%}
        {{- return("{} <= date '{}'".format(date_column, dates[1])) -}}
    {%- endif -%}
    {%- if dates[0] == dates[1] -%}
        {{- return("{} = date '{}'".format(date_column, dates[1])) -}}
    {%- endif -%}
    {{- return("{} between date '{}' and date '{}'".format(date_column, dates[0], dates[1])) -}}
{% endmacro %}

{% macro in_last_n_days(n, date_column='event_date', include_today=none) %}
    {%- if n is none or n is not number or n is boolean or n < 1 or (n | int) != n -%}
        {{ exceptions.raise_compiler_error("tideline: in_last_n_days needs a whole number of days >= 1, got {}".format(n | tojson)) }}
    {%- endif -%}
    ({{ tideline.in_period(n, include_today, date_column) }})
{%- endmacro %}

{#- Dates up to the reference day: lifetime values ignore days after it (a replay with an
    earlier now, or an earlier tideline__attributes_as_of). -#}
{% macro in_lifetime(date_column='event_date', include_today=none) %}
    ({{ tideline.in_period(none, include_today, date_column) }})
{%- endmacro %}

{#- Helpers for attributes: drop-and-recompute tables (materialized='tideline_table') over daily
    aggregates, and the per-day parts a daily aggregate keeps for them. Attribute views
    (macros/attribute_view/) generate their SQL from these; hand-written models use them too.

    Periods. A period of N days is the N whole dates ending on the reference day; with
    include_today false it ends the day before (N complete days). No N (none) is the lifetime:
    every date up to the reference day (or the day before). The reference day is the date of
    tideline__attributes_as_of, else of tideline__now (else TIDELINE_NOW, else the run's start):
    attributes "as of day D" over everything loaded, without capping the load window.
    include_today defaults to tideline__include_current_day (true). -#}

{% macro today() %}
    {{- return("date'" ~ tideline.now()[:10] ~ "'") -}}
{% endmacro %}

{#- The reference day of attribute windows, 'YYYY-MM-DD'. An as-of after now would count days
    not loaded yet: refused. -#}
{% macro attributes_reference_date() %}
    {%- set value = tideline.tl_var('tideline__attributes_as_of') -%}
    {%- if value is none or value == '' -%}{{ return(tideline.now()[:10]) }}{%- endif -%}
    {%- set parsed = tideline.parse_utc_time(value) -%}
    {%- if parsed is none -%}
        {{ tideline._var_error('tideline__attributes_as_of', value, "a UTC time written YYYY-MM-DD[ HH:MM[:SS]] that exists on the calendar") }}
    {%- endif -%}
    {%- if parsed[:19] > tideline.now() -%}
        {{ tideline._var_error('tideline__attributes_as_of', value, "a time at or before now (" ~ tideline.now() ~ " UTC): later days are not loaded yet") }}
    {%- endif -%}
    {{- return(parsed[:10]) -}}
{% endmacro %}

{#- The first and last date of a period: [first, last] as 'YYYY-MM-DD', first none for the
    lifetime. -#}
{% macro period_dates(n=none, include_today=none) %}
    {%- if n is not none and (n is not number or n is boolean or n < 1 or (n | int) != n) -%}
        {{ exceptions.raise_compiler_error("tideline: a period needs a whole number of days >= 1 (or none for the lifetime), got " ~ (n | tojson)) }}
    {%- endif -%}
    {%- set include = tideline.var_bool('tideline__include_current_day') if include_today is none else include_today -%}
    {%- if include is not boolean -%}
        {{ exceptions.raise_compiler_error("tideline: include_today must be true or false, got " ~ (include | tojson)) }}
    {%- endif -%}
    {%- set day = modules.datetime.date.fromisoformat(tideline.attributes_reference_date()) -%}
    {%- set last = day if include else day - modules.datetime.timedelta(days=1) -%}
    {%- set first = none if n is none else last - modules.datetime.timedelta(days=(n | int) - 1) -%}
    {{- return([none if first is none else first.isoformat(), last.isoformat()]) -}}
{% endmacro %}

{#- The dates of a period, as a condition on date_column. -#}
{% macro in_period(n=none, include_today=none, date_column='event_date') %}
    {%- set dates = tideline.period_dates(n, include_today) -%}
    {%- if dates[0] is none -%}
        {{- return(date_column ~ " <= date '" ~ dates[1] ~ "'") -}}
    {%- endif -%}
    {%- if dates[0] == dates[1] -%}
        {{- return(date_column ~ " = date '" ~ dates[1] ~ "'") -}}
    {%- endif -%}
    {{- return(date_column ~ " between date '" ~ dates[0] ~ "' and date '" ~ dates[1] ~ "'") -}}
{% endmacro %}

{% macro in_last_n_days(n, date_column='event_date', include_today=none) %}
    {%- if n is none or n is not number or n is boolean or n < 1 or (n | int) != n -%}
        {{ exceptions.raise_compiler_error("tideline: in_last_n_days needs a whole number of days >= 1, got " ~ (n | tojson)) }}
    {%- endif -%}
    ({{ tideline.in_period(n, include_today, date_column) }})
{%- endmacro %}

{#- Dates up to the reference day: lifetime values ignore days after it (a replay with an
    earlier now, or an earlier tideline__attributes_as_of). -#}
{% macro in_lifetime(date_column='event_date', include_today=none) %}
    ({{ tideline.in_period(none, include_today, date_column) }})
{%- endmacro %}

{% macro sum_last_n_days(expression, n, date_column='event_date', include_today=none) %}
    coalesce(sum(case when {{ tideline.in_last_n_days(n, date_column, include_today) }} then {{ expression }} end), 0)
{%- endmacro %}

{% macro count_last_n_days(expression, n, date_column='event_date', include_today=none) %}
    count(case when {{ tideline.in_last_n_days(n, date_column, include_today) }} then {{ expression }} end)
{%- endmacro %}

{#- ---- The parts a daily aggregate keeps per day (over the filtered events) ------------------

    First and last values are kept as struct(derived_tstamp, event_id, val): the order of the
    events, then the value. min() of these structs is the first event's, max() the last
    event's, within a day and again across days (ties on derived_tstamp go by event_id, the
    smallest first, the largest last). Null values are left out: the first known value. -#}
{% macro daily_first(expression, condition='true') %}
    min(case when {{ condition }} and ({{ expression }}) is not null then struct(derived_tstamp, event_id, {{ expression }} as val) end)
{%- endmacro %}

{% macro daily_last(expression, condition='true') %}
    max(case when {{ condition }} and ({{ expression }}) is not null then struct(derived_tstamp, event_id, {{ expression }} as val) end)
{%- endmacro %}

{#- The distinct non-null values of a day, sorted. -#}
{% macro daily_unique_list(expression, condition='true') %}
    array_sort(collect_set(case when {{ condition }} then {{ expression }} end))
{%- endmacro %}

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

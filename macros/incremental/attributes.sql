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
    {{- return("date'{}'".format(tideline.now()[:10])) -}}
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
        {{ tideline._var_error('tideline__attributes_as_of', value, "a time at or before now ({} UTC): later days are not loaded yet".format(tideline.now())) }}
    {%- endif -%}
    {{- return(parsed[:10]) -}}
{% endmacro %}

{#- The first and last date of a period: [first, last] as 'YYYY-MM-DD', first none for the
    lifetime. -#}
{% macro period_dates(n=none, include_today=none) %}
    {%- if n is not none and (n is not number or n is boolean or n < 1 or (n | int) != n) -%}
        {{ exceptions.raise_compiler_error("tideline: a period needs a whole number of days >= 1 (or none for the lifetime), got {}".format(n | tojson)) }}
    {%- endif -%}
    {%- set include = tideline.var_bool('tideline__include_current_day') if include_today is none else include_today -%}
    {%- if include is not boolean -%}
        {{ exceptions.raise_compiler_error("tideline: include_today must be true or false, got {}".format(include | tojson)) }}
    {%- endif -%}
    {%- set day = modules.datetime.date.fromisoformat(tideline.attributes_reference_date()) -%}
    {%- set last = day if include else day - modules.datetime.timedelta(days=1) -%}
    {%- set first = none if n is none else last - modules.datetime.timedelta(days=(n | int) - 1) -%}
    {{- return([none if first is none else first.isoformat(), last.isoformat()]) -}}
{% endmacro %}

{#- Cron schedules: a day matched against a parsed schedule's day fields (cron's rule: when
    both day-of-month and day-of-week are restricted, either may match), and a time given as text
    or as a datetime, as the tick searches of cron_ticks.sql take it. -#}

{% macro _cron_day_matches(c, day) %}
    {%- set dom_ok = day.day in c.dom -%}
    {%- set dow_ok = ((day.weekday() + 1) % 7) in c.dow -%}
    {%- if not c.dom_star and not c.dow_star -%}{{ return(dom_ok or dow_ok) }}{%- endif -%}
    {{- return(dom_ok and dow_ok) -}}
{% endmacro %}

{% macro _cron_time(value) %}
    {%- if value is string -%}
        {%- set text = value.replace('T', ' ') -%}
        {{- return(modules.datetime.datetime.strptime(text[:16], '%Y-%m-%d %H:%M') if text | length >= 16
                   else modules.datetime.datetime.strptime(text[:10], '%Y-%m-%d')) -}}
    {%- endif -%}
    {{- return(value.replace(tzinfo=none)) -}}
{% endmacro %}

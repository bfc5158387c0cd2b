{#- The ticks of a cron schedule: the next one after a time, the last one at or before it. -#}

{#- The first tick at or after `start` (forward) or at or before it (backward), as a datetime
    (none when there is none). A field that does not match moves to the next unit's start
    (forward) or the previous unit's last minute (backward): enough steps for any schedule that
    fires at least once in 8 years (29 February). -#}
{% macro _cron_search(c, start, forward) %}
    {%- set td = modules.datetime.timedelta -%}
    {%- set ns = namespace(t=start, found=none) -%}
    {%- for _ in range(2000) if ns.found is none -%}
        {%- set x = ns.t -%}
        {%- if x.month not in c.month -%}
            {%- set unit = x.replace(day=1, hour=0, minute=0) -%}
            {%- set ns.t = unit.replace(year=unit.year + (1 if unit.month == 12 else 0), month=(unit.month % 12) + 1) if forward
                           else unit - td(minutes=1) -%}
        {%- elif not tideline._cron_day_matches(c, x) -%}
            {%- set unit = x.replace(hour=0, minute=0) -%}
            {%- set ns.t = unit + td(days=1) if forward else unit - td(minutes=1) -%}
        {%- elif x.hour not in c.hour -%}
            {%- set unit = x.replace(minute=0) -%}
            {%- set ns.t = unit + td(hours=1) if forward else unit - td(minutes=1) -%}
        {%- elif x.minute not in c.minute -%}
            {%- set ns.t = x + td(minutes=1 if forward else -1) -%}
        {%- else -%}
            {%- set ns.found = x -%}
        {%- endif -%}
    {%- endfor -%}
    {{- return(ns.found) -}}
{% endmacro %}

{#- The first tick strictly after `t` (a datetime or 'YYYY-MM-DD HH:MM[:SS]' text), as a datetime. -#}
{% macro cron_next(expression, t, setting='update_cron') %}
    {%- set start = tideline._cron_time(t).replace(second=0, microsecond=0) + modules.datetime.timedelta(minutes=1) -%}
    {{- return(tideline._cron_search(tideline.parse_cron(expression, setting), start, true)) -}}
{% endmacro %}

{#- The last tick at or before `t`, as a datetime (none when there is none within the same bound). -#}
{% macro cron_last(expression, t, setting='update_cron') %}
    {%- set start = tideline._cron_time(t).replace(second=0, microsecond=0) -%}
    {{- return(tideline._cron_search(tideline.parse_cron(expression, setting), start, false)) -}}
{% endmacro %}

{#- Now, and times written by users, in UTC. -#}

{#- "Now" for every rule that needs it: tideline__now when set (tests, replays), else the
    environment variable TIDELINE_NOW (a scheduler replaying a logical date: unlike a var, it
    keeps dbt's partial parsing), else the run's start. Returned as 'YYYY-MM-DD HH:MM:SS' in UTC.
    While dbt parses, the run's start: the SQL rendered then is never run, and a model that read
    TIDELINE_NOW while parsed (an attributes table's last-N-days window) would be parsed again
    every time it changes. -#}
{% macro now() %}
    {%- set value = tideline.tl_var('tideline__now') if execute else none -%}
    {%- if execute and value in [none, ''] -%}{%- set value = env_var('TIDELINE_NOW', '') -%}{%- endif -%}
    {%- if value in [none, ''] -%}
        {{- return(run_started_at.astimezone(modules.pytz.utc).strftime('%Y-%m-%d %H:%M:%S')) -}}
    {%- endif -%}
    {%- set parsed = tideline.parse_utc_time(value) -%}
    {%- if parsed is none or '.' in parsed -%}
        {{ tideline._var_error('tideline__now' if tideline.tl_var('tideline__now') not in [none, ''] else 'TIDELINE_NOW (environment)',
            value, "a UTC time written YYYY-MM-DD[ HH:MM[:SS]] that exists on the calendar") }}
    {%- endif -%}
    {{- return(parsed) -}}
{% endmacro %}

{#- A UTC time written YYYY-MM-DD[ HH:MM[:SS[.fff]]] (or with a T), as 'YYYY-MM-DD HH:MM:SS'
    (with '.fff' when milliseconds are given); none when it is not such a time on the calendar. -#}
{% macro parse_utc_time(value) %}
    {%- set text = value | string -%}
    {%- set m = modules.re.match('^(\d{4})-(\d{2})-(\d{2})([ T](\d{2}):(\d{2})(:(\d{2})(\.(\d{1,3}))?)?)?$', text) -%}
    {%- if not m or not tideline._is_calendar_date(m.group(1) | int, m.group(2) | int, m.group(3) | int)
            or (m.group(5) or '0') | int > 23 or (m.group(6) or '0') | int > 59 or (m.group(8) or '0') | int > 59 -%}
        {{- return(none) -}}
    {%- endif -%}
    {%- set millis = '.{}'.format('{}00'.format(m.group(10))[:3]) if m.group(10) else '' -%}
    {{- return('{} {}:{}:{}{}'.format(text[:10], m.group(5) or '00', m.group(6) or '00', m.group(8) or '00', millis)) -}}
{% endmacro %}

{% macro _is_calendar_date(y, m, d) %}
    {%- if m < 1 or m > 12 or d < 1 or y < 1 -%}{{ return(false) }}{%- endif -%}
    {%- set leap = (y % 4 == 0 and y % 100 != 0) or y % 400 == 0 -%}
    {%- set days = [31, 29 if leap else 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][m - 1] -%}
    {{- return(d <= days) -}}
{% endmacro %}

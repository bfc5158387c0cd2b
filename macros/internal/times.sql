{#- Times and dates as SQL literals and as text. -#}

{#- A SQL timestamp literal from 'YYYY-MM-DD HH:MM:SS[.ffffff]' text or a datetime. -#}
{% macro ts(value) %}
    {%- if value is none -%}{{ return('cast(null as timestamp)') }}{%- endif -%}
    {%- set text = value.strftime('%Y-%m-%d %H:%M:%S.%f') if value is not string else value -%}
    {{- return("timestamp'{}'".format(text)) -}}
{% endmacro %}

{#- A SQL list of date literals, e.g. (date'2025-01-01', date'2025-01-02'); `(null)` when empty,
    so that `x in {{ date_list([]) }}` is valid SQL that matches nothing. -#}
{% macro date_list(dates) %}
    {%- if dates | length == 0 -%}{{ return('(cast(null as date))') }}{%- endif -%}
    {%- set items = [] -%}
    {%- for d in dates -%}{%- do items.append("date'{}'".format((d | string)[:10])) -%}{%- endfor -%}
    {{- return('({})'.format(items | join(', '))) -}}
{% endmacro %}

{#- A timestamp text ('YYYY-MM-DD HH:MM:SS[.ffffff]') moved by a number of seconds, as
    'YYYY-MM-DD HH:MM:SS.ffffff': texts of that one form compare as the times do. -#}
{% macro shift_time(text, seconds) %}
    {%- set t = modules.datetime.datetime.strptime(text[:26] if '.' in text else text[:19], '%Y-%m-%d %H:%M:%S.%f' if '.' in text else '%Y-%m-%d %H:%M:%S') -%}
    {{- return((t + modules.datetime.timedelta(seconds=seconds)).strftime('%Y-%m-%d %H:%M:%S.%f')) -}}
{% endmacro %}

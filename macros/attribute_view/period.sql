{#- An ISO-8601 duration as whole days (none: no period, the lifetime). Sub-day periods are
    refused: the daily aggregate keeps whole days; PTnH with n a multiple of 24 is n/24 days. -#}
{% macro period_days(where, period) %}
    {%- if period is none -%}{{ return(none) }}{%- endif -%}
    {%- set text = period | string -%}
    {%- set m = modules.re.match('^P(?:(\d+)D|(\d+)W|T(\d+)H)$', text) -%}
    {%- if m is none -%}
        {%- if modules.re.match('^P(\d+Y)?(\d+M)?(\d+W)?(\d+D)?(T(\d+H)?(\d+M)?(\d+(\.\d+)?S)?)?$', text) and text not in ['P', 'PT'] -%}
            {{ tideline._view_error(where, "period {} is not supported; accepted: PnD (days), PnW (weeks) or PTnH with n a multiple of 24 (years and months have no fixed length; hours, minutes and seconds are finer than the daily aggregate's days); none for the lifetime".format(tojson(period))) }}
        {%- endif -%}
        {{ tideline._view_error(where, "period {} is not an ISO-8601 duration; accepted: PnD (days), PnW (weeks) or PTnH with n a multiple of 24; none for the lifetime".format(tojson(period))) }}
    {%- endif -%}
    {%- set days = (m.group(1) | int) if m.group(1) else ((m.group(2) | int) * 7 if m.group(2) else (m.group(3) | int) / 24) -%}
    {%- if m.group(3) and (m.group(3) | int) % 24 != 0 -%}
        {{ tideline._view_error(where, "period {} is shorter than, or not a whole number of, days: sub-day periods are not supported (the daily aggregate keeps whole days); use PnD".format(text)) }}
    {%- endif -%}
    {%- if days < 1 -%}
        {{ tideline._view_error(where, "period {} is empty; a period is at least one day (P1D)".format(text)) }}
    {%- endif -%}
    {{- return(days | int) -}}
{% endmacro %}

{#- late_row_lookback: how far behind its watermark a derivation or a continual task recounts
    each feed's source, to find rows committed there after a run read it (behind_watermark.sql). -#}

{#- Seconds in a duration written '30s', '10m', '2h' or '1d' (none when it is not one). -#}
{% macro duration_seconds(value) %}
    {%- set m = modules.re.match('^(\d+)(s|m|h|d)$', value) if value is string else none -%}
    {{- return((m.group(1) | int) * {'s': 1, 'm': 60, 'h': 3600, 'd': 86400}[m.group(2)] if m else none) -}}
{% endmacro %}

{#- The model's late_row_lookback in seconds: its config, or the var tideline__late_row_lookback
    (default '1d'); '0s' recounts nothing. `error` is the capability's error macro (model,
    setting, value, accepted). -#}
{% macro late_row_lookback_setting(model_name, error) %}
    {%- set value = config.get('late_row_lookback', none) -%}
    {%- if value is none -%}{{ return(tideline.late_row_lookback_var()) }}{%- endif -%}
    {%- set seconds = tideline.duration_seconds(value) -%}
    {%- if seconds is none -%}{{ error(model_name, 'late_row_lookback', value, tideline._lookback_accepted()) }}{%- endif -%}
    {{- return(seconds) -}}
{% endmacro %}

{#- The var tideline__late_row_lookback in seconds, checked (validate_vars checks it at run start). -#}
{% macro late_row_lookback_var() %}
    {%- set value = tideline.tl_var('tideline__late_row_lookback') -%}
    {%- set seconds = tideline.duration_seconds(value) -%}
    {%- if seconds is none -%}{{ tideline._var_error('tideline__late_row_lookback', value, tideline._lookback_accepted()) }}{%- endif -%}
    {{- return(seconds) -}}
{% endmacro %}

{% macro _lookback_accepted() %}
    {{- return("a whole number and a unit, s, m, h or d (30m, 6h, 1d; 0s recounts nothing)") -}}
{% endmacro %}

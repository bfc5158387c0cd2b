{#- Epoch queries: their arguments checked, each refusal naming the channel, the argument,
    the value and what is accepted. -#}

{#- Refused when the query runs (at parse time ref() does not name the channel yet). -#}
{% macro _epoch_error(channel, what, value, accepted) %}
    {%- if not execute -%}{{ return(none) }}{%- endif -%}
    {{ exceptions.raise_compiler_error("tideline: channel {}: {} = {} is invalid; accepted: {}".format(
        channel.identifier, what, tideline.shown(value) if value is not string else value, accepted)) }}
{% endmacro %}

{% macro _epoch_name(channel, epoch) %}
    {%- set name = epoch | string | upper -%}
    {%- if epoch is not string or name not in ['IMMUTABLE', 'MUTABLE', 'ALL'] -%}
        {{ tideline._epoch_error(channel, 'epoch', epoch, "IMMUTABLE (the default), MUTABLE or ALL") }}
        {{- return('ALL') -}}
    {%- endif -%}
    {{- return(name) -}}
{% endmacro %}

{% macro _epoch_time(channel, what, value) %}
    {%- set parsed = tideline.parse_utc_time(value) if value is not none else none -%}
    {%- if parsed is none -%}
        {{ tideline._epoch_error(channel, what, value, "a UTC time written YYYY-MM-DD[ HH:MM[:SS[.fff]]] that exists on the calendar") }}
        {{- return('1970-01-01 00:00:00') -}}
    {%- endif -%}
    {{- return(parsed) -}}
{% endmacro %}

{% macro _epoch_count(channel, n) %}
    {%- if n is string or n is boolean or n is not number or (n | int) != n or n < 1 -%}
        {{ tideline._epoch_error(channel, 'n', n, "an integer >= 1") }}
        {{- return(1) -}}
    {%- endif -%}
    {{- return(n | int) -}}
{% endmacro %}

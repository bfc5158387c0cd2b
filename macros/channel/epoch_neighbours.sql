{#- Epoch queries: the n items right after or right before a time. -#}

{#- The n items of the epoch right after `after` (item_time > after). -#}
{% macro channel_next(channel, after, n, epoch='IMMUTABLE') %}
    {{- tideline._channel_ordered(channel, n, epoch, false, after=after) -}}
{% endmacro %}

{#- The n items of the epoch right before `before` (item_time < before). -#}
{% macro channel_previous(channel, before, n, epoch='IMMUTABLE') %}
    {{- tideline._channel_ordered(channel, n, epoch, true, before=before) -}}
{% endmacro %}

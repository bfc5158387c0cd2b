{#- Epoch queries: the first or last n items of an epoch. -#}

{#- The n items of the epoch that come first or last in (item_time, item_id) order, among
    those after `after` or before `before` (none: all). -#}
{% macro _channel_ordered(channel, n, epoch, newest, after=none, before=none) %}
    {%- set n = tideline._epoch_count(channel, n) -%}
    {%- set where = 'true' -%}
    {%- if after is not none -%}
        {%- set t = tideline._epoch_time(channel, 'after', after) -%}
        {%- set where = "item_date >= date'{}' and item_time > {}".format(t[:10], tideline.ts(t)) -%}
    {%- endif -%}
    {%- if before is not none -%}
        {%- set t = tideline._epoch_time(channel, 'before', before) -%}
        {%- set where = "item_date <= date'{}' and item_time < {}".format(t[:10], tideline.ts(t)) -%}
    {%- endif -%}
    {%- set direction = 'desc' if newest else 'asc' -%}
    (
        select * from ({{ tideline._epoch_sql(channel, epoch, where) }}) as epoch_items
        order by item_time {{ direction }}, item_id {{ direction }}
        limit {{ n }}
    ) as channel_items
{%- endmacro %}

{% macro channel_latest(channel, n, epoch='IMMUTABLE') %}
    {{- tideline._channel_ordered(channel, n, epoch, true) -}}
{% endmacro %}

{% macro channel_earliest(channel, n, epoch='IMMUTABLE') %}
    {{- tideline._channel_ordered(channel, n, epoch, false) -}}
{% endmacro %}

{#- Epoch queries: the first or last n items of an epoch. -#}

{#- The n items of the epoch that come first or last in (item_time, item_id) order, among
    those after `after` or before `before` (none: all), or after or before the item (after or
    before, item_id). -#}
{% macro _channel_ordered(channel, n, epoch, newest, after=none, before=none, item_id=none) %}
    {%- set n = tideline._epoch_count(channel, n) -%}
    {%- set item_id = tideline._epoch_item(channel, item_id) -%}
    {%- set where = 'true' -%}
    {%- if after is not none -%}
        {%- set where = tideline.epoch_key_where(tideline._epoch_time(channel, 'after', after), item_id, true) -%}
    {%- endif -%}
    {%- if before is not none -%}
        {%- set where = tideline.epoch_key_where(tideline._epoch_time(channel, 'before', before), item_id, false) -%}
    {%- endif -%}
    (
        {{ tideline.epoch_ordered_sql(tideline._epoch_sql(channel, epoch, where), n, newest) }}
    ) as channel_items
{%- endmacro %}

{#- The first n rows of the select `epoch_sql` (an epoch's items) in (item_time, item_id) order,
    or the last n (`newest`). -#}
{% macro epoch_ordered_sql(epoch_sql, n, newest) %}
    {%- set direction = 'desc' if newest else 'asc' -%}
    {%- set sql -%}
        select * from ({{ epoch_sql }}) as epoch_items
        order by item_time {{ direction }}, item_id {{ direction }}
        limit {{ n }}
    {%- endset -%}
    {{- return(sql) -}}
{% endmacro %}

{% macro channel_latest(channel, n, epoch='IMMUTABLE') %}
    {{- tideline._channel_ordered(channel, n, epoch, true) -}}
{% endmacro %}

{% macro channel_earliest(channel, n, epoch='IMMUTABLE') %}
    {{- tideline._channel_ordered(channel, n, epoch, false) -}}
{% endmacro %}

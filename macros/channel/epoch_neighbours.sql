{#- Epoch queries: the n items right after or right before a time, or an item (the Hub's next
    and previous from an item key). -#}

{#- The n items of the epoch right after `after` (item_time > after); with `item_id`, right
    after the item (after, item_id) in (item_time, item_id) order, whether or not that item is
    in the epoch (or still exists). -#}
{% macro channel_next(channel, after, n, epoch='IMMUTABLE', item_id=none) %}
    {{- tideline._channel_ordered(channel, n, epoch, false, after=after, item_id=item_id) -}}
{% endmacro %}

{#- The n items of the epoch right before `before` (item_time < before); with `item_id`, right
    before the item (before, item_id) in (item_time, item_id) order. -#}
{% macro channel_previous(channel, before, n, epoch='IMMUTABLE', item_id=none) %}
    {{- tideline._channel_ordered(channel, n, epoch, true, before=before, item_id=item_id) -}}
{% endmacro %}

{#- The items after (`after` true) or before the key (t, item_id) in (item_time, item_id)
    order: those of another time, and with item_id those of the same time and another id; the
    item dates that cannot hold them are pruned. -#}
{% macro epoch_key_where(t, item_id, after) %}
    {%- set op = '>' if after else '<' -%}
    {%- set sql -%}
        item_date {{ op }}= date'{{ t[:10] }}' and (item_time {{ op }} {{ tideline.ts(t) }}
        {%- if item_id is not none %} or (item_time = {{ tideline.ts(t) }} and item_id {{ op }} {{ tideline.literal(item_id) }}){% endif %})
    {%- endset -%}
    {{- return(sql) -}}
{% endmacro %}

{% macro _epoch_item(channel, item_id) %}
    {%- if item_id is not none and (item_id is boolean or (item_id is not string and item_id is not number)) -%}
        {{ tideline._epoch_error(channel, 'item_id', item_id, "the id of an item (a string or a number), or none for the time alone") }}
    {%- endif -%}
    {{- return(item_id) -}}
{% endmacro %}

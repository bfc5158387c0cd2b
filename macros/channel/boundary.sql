{#- Mutable time: where mutable_time stands after a run, and the moves refused. -#}

{#- The boundary this run leaves, and the move it makes (none, or {'from', 'to'}); refuses a
    forward move, the removal of mutable_time, and a first mutable_time on a channel with
    stable items at or before it. -#}
{% macro channel_boundary(settings, items, state) %}
    {%- set wanted = settings.mutable_time -%}
    {%- set current = state.mutable_time -%}
    {%- if state.runs == 0 or (current is none and wanted is none) -%}
        {{ return({'boundary': wanted, 'move': none}) }}
    {%- endif -%}
    {%- if wanted is none -%}
        {{ tideline._channel_refusal(settings.name, "mutable_time {} cannot be removed; to make every item stable, move it earlier than the earliest item".format(current)) }}
    {%- endif -%}
    {%- if current is none -%}
        {%- do tideline._refuse_stable_items_before(settings, items, wanted) -%}
        {{ return({'boundary': wanted, 'move': none}) }}
    {%- endif -%}
    {%- if wanted > current -%}
        {{ tideline._channel_refusal(settings.name, "mutable_time can only move earlier: {} to {} is a move forward, which would make stable items mutable again".format(current, wanted)) }}
    {%- endif -%}
    {{- return({'boundary': wanted, 'move': {'from': current, 'to': wanted} if wanted < current else none}) -}}
{% endmacro %}

{#- An existing channel given a mutable_time: only if no stable item is at or before it. -#}
{% macro _refuse_stable_items_before(settings, items, wanted) %}
    {%- set before -%}
        item_date <= date'{{ wanted[:10] }}' and item_time <= {{ tideline.ts(wanted) }}
    {%- endset -%}
    {% set sql %}
        select count(*) as items, cast(max(item_time) as string) as last_item
        from ({{ tideline.channel_stable_items_sql(items, settings.name, before) }}) as s
    {% endset %}
    {%- set found = tideline.query_rows(sql)[0] -%}
    {%- if found['items'] | int > 0 -%}
        {{ tideline._channel_refusal(settings.name, "mutable_time = {} would make {} stable items (up to {}) mutable again, after downstream models have read them; give it a mutable_time before its earliest item".format(
            wanted, found['items'], found.last_item)) }}
    {%- endif -%}
{% endmacro %}

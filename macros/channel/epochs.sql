{#- Epoch queries over a channel (seed 003's time, latest, earliest, next and previous queries
    with their epoch parameter), for any model or analysis:

        select * from {{ tideline.channel_items(ref('readings'), 'MUTABLE', '2025-01-01', '2025-01-02') }}
        select * from {{ tideline.channel_latest(ref('readings'), 10) }}

    The epoch says which side of mutable_time: IMMUTABLE (the default) the stable items, after
    mutable_time; MUTABLE the items at or before it (an item AT mutable_time is mutable, as
    the Hub accepts inserts "before or equal to the mutableTime"); ALL both. Every macro
    returns a subquery with the channel's columns (item_time, item_id, the payload,
    item_date, _tl_batch, _tl_run), of committed runs only, under the boundary of the newest
    committed run. Times are UTC, 'YYYY-MM-DD[ HH:MM[:SS[.fff]]]'. -#}

{#- The items of an epoch, narrowed by `where` (a condition on item_date and item_time, pushed
    into each side so that it prunes the item_date partitions). -#}
{% macro _epoch_sql(channel, epoch, where='true') %}
    {%- set name = tideline._epoch_name(channel, epoch) -%}
    {%- set items = tideline.stored_relation(tideline.channel_items_relation(channel), tideline.node_file_format(channel.identifier)) -%}
    {%- set columns = (adapter.get_columns_in_relation(channel) | map(attribute='name') | map('lower') | list) if execute else [] -%}
    {{- return(tideline.epoch_items_sql(items, channel.identifier, name, columns, where)) -}}
{% endmacro %}

{#- The items of the epoch `name` (IMMUTABLE, MUTABLE or ALL) of the channel `model_name` whose
    items table is `items`, narrowed by `where`, as a select of `columns` (none: every column):
    stable items, and mutable items at or before the newest committed run's mutable_time. -#}
{% macro epoch_items_sql(items, model_name, name, columns, where='true') %}
    {%- set boundary -%}
        (select max_by(mutable_time, batch) from {{ tideline.state_table() }} where model = '{{ model_name }}' and kind = 'run')
    {%- endset -%}
    {%- set mutable_where -%}
        ({{ where }}) and item_date <= to_date({{ boundary }}) and item_time <= {{ boundary }}
    {%- endset -%}
    {%- set sql -%}
        {%- if name in ['IMMUTABLE', 'ALL'] -%}
        select {{ columns | join(', ') or '*' }} from ({{ tideline.channel_stable_items_sql(items, model_name, where) }}) as stable_items
        {%- endif %}
        {%- if name == 'ALL' %}
        union all
        {% endif -%}
        {%- if name in ['MUTABLE', 'ALL'] -%}
        select {{ columns | join(', ') or '*' }} from ({{ tideline.channel_mutable_items_sql(items, model_name, mutable_where) }}) as mutable_items
        {%- endif -%}
    {%- endset -%}
    {{- return(sql) -}}
{% endmacro %}

{#- The items of the epoch with start <= item_time < end (either may be none: unbounded). -#}
{% macro channel_items(channel, epoch='IMMUTABLE', start=none, end=none) %}
    {%- set conditions = [] -%}
    {%- if start is not none -%}
        {%- set t = tideline._epoch_time(channel, 'start', start) -%}
        {%- do conditions.append("item_date >= date'{}' and item_time >= {}".format(t[:10], tideline.ts(t))) -%}
    {%- endif -%}
    {%- if end is not none -%}
        {%- set t = tideline._epoch_time(channel, 'end', end) -%}
        {%- do conditions.append("item_date <= date'{}' and item_time < {}".format(t[:10], tideline.ts(t))) -%}
    {%- endif -%}
    ({{ tideline._epoch_sql(channel, epoch, conditions | join(' and ') or 'true') }}) as channel_items
{%- endmacro %}

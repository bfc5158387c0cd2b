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

{#- Refused when the query runs (at parse time ref() does not name the channel yet). -#}
{% macro _epoch_error(channel, what, value, accepted) %}
    {%- if not execute -%}{{ return(none) }}{%- endif -%}
    {{ exceptions.raise_compiler_error("tideline: channel " ~ channel.identifier ~ ": " ~ what ~ " = "
        ~ (value | tojson if value is not string else value) ~ " is invalid; accepted: " ~ accepted) }}
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

{#- The items of an epoch, narrowed by `where` (a condition on item_date and item_time, pushed
    into each side so that it prunes the item_date partitions). -#}
{% macro _epoch_sql(channel, epoch, where='true') %}
    {%- set name = tideline._epoch_name(channel, epoch) -%}
    {%- set items = tideline.stored_relation(tideline.channel_items_relation(channel), tideline.node_file_format(channel.identifier)) -%}
    {%- set columns = (adapter.get_columns_in_relation(channel) | map(attribute='name') | map('lower') | list) if execute else [] -%}
    {%- set listed = columns | join(', ') if columns else '*' -%}
    {%- set boundary -%}
        (select max_by(upper_limit, batch) from {{ tideline.state_table() }} where model = '{{ channel.identifier }}' and kind = 'run')
    {%- endset -%}
    {%- set parts = [] -%}
    {%- if name in ['IMMUTABLE', 'ALL'] -%}
        {%- do parts.append('select ' ~ listed ~ ' from (' ~ tideline.channel_stable_items_sql(items, channel.identifier, where) ~ ') as stable_items') -%}
    {%- endif -%}
    {%- if name in ['MUTABLE', 'ALL'] -%}
        {%- set mutable_where = '(' ~ where ~ ') and item_date <= to_date(' ~ boundary ~ ') and item_time <= ' ~ boundary -%}
        {%- do parts.append('select ' ~ listed ~ ' from (' ~ tideline.channel_mutable_items_sql(items, channel.identifier, mutable_where) ~ ') as mutable_items') -%}
    {%- endif -%}
    {{- return(parts | join('\nunion all\n')) -}}
{% endmacro %}

{#- The items of the epoch with start <= item_time < end (either may be none: unbounded). -#}
{% macro channel_items(channel, epoch='IMMUTABLE', start=none, end=none) %}
    {%- set conditions = [] -%}
    {%- if start is not none -%}
        {%- set t = tideline._epoch_time(channel, 'start', start) -%}
        {%- do conditions.append("item_date >= date'" ~ t[:10] ~ "' and item_time >= " ~ tideline.ts(t)) -%}
    {%- endif -%}
    {%- if end is not none -%}
        {%- set t = tideline._epoch_time(channel, 'end', end) -%}
        {%- do conditions.append("item_date <= date'" ~ t[:10] ~ "' and item_time < " ~ tideline.ts(t)) -%}
    {%- endif -%}
    ({{ tideline._epoch_sql(channel, epoch, conditions | join(' and ') or 'true') }}) as channel_items
{%- endmacro %}

{#- The n items of the epoch that come first or last in (item_time, item_id) order, among
    those after `after` or before `before` (none: all). -#}
{% macro _channel_ordered(channel, n, epoch, newest, after=none, before=none) %}
    {%- set n = tideline._epoch_count(channel, n) -%}
    {%- set where = 'true' -%}
    {%- if after is not none -%}
        {%- set t = tideline._epoch_time(channel, 'after', after) -%}
        {%- set where = "item_date >= date'" ~ t[:10] ~ "' and item_time > " ~ tideline.ts(t) -%}
    {%- endif -%}
    {%- if before is not none -%}
        {%- set t = tideline._epoch_time(channel, 'before', before) -%}
        {%- set where = "item_date <= date'" ~ t[:10] ~ "' and item_time < " ~ tideline.ts(t) -%}
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

{#- The n items of the epoch right after `after` (item_time > after). -#}
{% macro channel_next(channel, after, n, epoch='IMMUTABLE') %}
    {{- tideline._channel_ordered(channel, n, epoch, false, after=after) -}}
{% endmacro %}

{#- The n items of the epoch right before `before` (item_time < before). -#}
{% macro channel_previous(channel, before, n, epoch='IMMUTABLE') %}
    {{- tideline._channel_ordered(channel, n, epoch, true, before=before) -}}
{% endmacro %}

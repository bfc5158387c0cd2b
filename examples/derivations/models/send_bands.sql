-- Flow's minimize and maximize by a key, with values of equal keys deep-merged (Flow's
-- reduction-strategies example "min-max-key"): for each sender, the lowest and the highest band of
-- 100 its transfers fell in, with how many transfers fell in that band (a sum), the first (first
-- write wins) and the last (last write wins, the default) transfer's id. A transfer in a lower
-- band replaces the lowest whole; one in the same band is merged into it, field by field.
-- The register `lowest` keeps the same as the sender's register, published after each transfer.
{{ config(
    materialized='derivation',
    unique_key='sender',
    derived_columns={'sender': 'string',
                     'lowest_band': 'struct<band:int,transfers:bigint,first_id:bigint,last_id:bigint>',
                     'highest_band': 'struct<band:int,transfers:bigint,first_id:bigint,last_id:bigint>',
                     'lowest_seen': 'struct<band:int,transfers:bigint,last_id:bigint>'},
    reduce={'lowest_band': {'strategy': 'minimize', 'key': ['/band'],
                            'fields': {'transfers': {'strategy': 'sum'}, 'first_id': {'strategy': 'firstWriteWins'}}},
            'highest_band': {'strategy': 'maximize', 'key': ['/band'],
                             'fields': {'transfers': {'strategy': 'sum'}, 'first_id': {'strategy': 'firstWriteWins'}}}},
    registers={'lowest': {'type': 'struct<band:int,transfers:bigint,last_id:bigint>', 'initial': none,
                          'reduce': {'strategy': 'minimize', 'key': '/band'}, 'fields': {'transfers': 'sum'}}},
) }}

{% call tideline.transform('fromTransfers', source=source('bank', 'transfers'), commit_column='load_tstamp', order_by='id',
                            shuffle=['sender'],
                            update={'lowest': "named_struct('band', cast(floor(amount / 100) as int), 'transfers', 1L, 'last_id', id)"}) %}
    select
        sender,
        named_struct('band', cast(floor(amount / 100) as int), 'transfers', 1L, 'first_id', id, 'last_id', id) as lowest_band,
        named_struct('band', cast(floor(amount / 100) as int), 'transfers', 1L, 'first_id', id, 'last_id', id) as highest_band,
        _register.lowest as lowest_seen
    from {{ tideline.document() }}
{% endcall %}

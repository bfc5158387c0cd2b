-- Accumulate in the table with several strategies: each transfer publishes one row for its
-- sender, reduced into the stored row column by column. largest_send is Flow's maximize by a
-- key: the whole (amount, id) of the largest transfer, compared by its amount.
{{ config(
    materialized='derivation',
    unique_key='sender',
    derived_columns={'sender': 'string', 'total': 'double', 'largest': 'double', 'first_id': 'bigint',
                     'last_recipient': 'string', 'ids': 'array<bigint>', 'largest_send': 'struct<amount:double,id:bigint>'},
    reduce={'total': 'sum', 'largest': 'max', 'first_id': 'first_write_wins', 'ids': 'append',
            'largest_send': {'strategy': 'maximize', 'key': ['/amount']}},
) }}

{% call tideline.transform('fromTransfers', source=source('bank', 'transfers'), commit_column='load_tstamp', order_by='id') %}
    select
        sender,
        amount as total,
        amount as largest,
        id as first_id,
        recipient as last_recipient,
        array(id) as ids,
        named_struct('amount', amount, 'id', id) as largest_send
    from {{ tideline.document() }}
{% endcall %}

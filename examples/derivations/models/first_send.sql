-- The seed's first send of each sender -> recipient pair: a boolean register per pair, false
-- until the first transfer; a transfer is published when the register was false before it.
{{ config(
    materialized='derivation',
    unique_key='id',
    derived_columns={'id': 'bigint', 'sender': 'string', 'recipient': 'string', 'amount': 'double'},
    registers={'seen': {'type': 'boolean', 'initial': false}},
) }}

{% call tideline.transform('fromTransfers', source=source('bank', 'transfers'), commit_column='load_tstamp', order_by='id',
                            shuffle=['sender', 'recipient'], update={'seen': 'true'}) %}
    select id, sender, recipient, amount
    from {{ tideline.document() }}
    where not _previous.seen
{% endcall %}

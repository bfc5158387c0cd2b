-- The seed's flagged transfers: two transforms over the same source share a balance register
-- per account; the recipient's credit and the sender's debit are summed into it in order, and
-- each transfer is published with the sender's balance after it. The register's reduction as
-- the seed writes it: `reduce: {strategy: sum}`.
{{ config(
    materialized='derivation',
    unique_key='id',
    derived_columns={'id': 'bigint', 'sender': 'string', 'recipient': 'string', 'amount': 'double',
                     'balance': 'double', 'overdrawn': 'boolean'},
    registers={'balance': {'type': 'double', 'initial': 0, 'reduce': {'strategy': 'sum'}}},
) }}

{{ tideline.transform('fromTransferRecipient', source=source('bank', 'transfers'), commit_column='load_tstamp', order_by='id',
                      shuffle=['recipient'], update={'balance': 'amount'}) }}

{% call tideline.transform('fromTransferSender', source=source('bank', 'transfers'), commit_column='load_tstamp', order_by='id',
                            shuffle=['sender'], update={'balance': '-amount'}) %}
    select
        id,
        sender,
        recipient,
        amount,
        _register.balance as balance,
        _register.balance < 0 as overdrawn
    from {{ tideline.document() }}
{% endcall %}

-- A derivation that reads its own documents (Flow's self-referencing derivations): every row it
-- publishes comes back to fromOwnEntries, right after the document that published it. A
-- transfer debits its sender and publishes its entry; a transfer entry over 100 comes back and
-- publishes a fee of 1 per started 100; the fee comes back, is debited from the same account, and publishes
-- the fee again with the balance after it. So the balance a later transfer sees has the earlier
-- fees taken off, and each run settles the chain in four passes.
{{ config(
    materialized='derivation',
    unique_key='entry',
    derived_columns={'entry': 'string', 'account': 'string', 'kind': 'string', 'amount': 'double', 'balance': 'double'},
    registers={'balance': {'type': 'double', 'initial': 0, 'reduce': 'sum'}},
) }}

{{ tideline.transform('fromTransferRecipient', source=source('bank', 'transfers'), commit_column='load_tstamp', order_by='id',
                      shuffle=['recipient'], update={'balance': 'amount'}) }}

{% call tideline.transform('fromTransferSender', source=source('bank', 'transfers'), commit_column='load_tstamp', order_by='id',
                            shuffle=['sender'], update={'balance': '-amount'}) %}
    select
        concat('transfer ', id) as entry,
        sender as account,
        'transfer' as kind,
        amount,
        _register.balance as balance
    from {{ tideline.document() }}
{% endcall %}

{% call tideline.transform('fromOwnEntries', source=tideline.own_documents(), shuffle=['account'],
                            update={'balance': "case when kind = 'fee' then -amount end"}) %}
    select
        case when kind = 'transfer' then concat('fee on ', entry) else entry end as entry,
        account,
        case when kind = 'transfer' then 'fee' else 'fee charged' end as kind,
        case when kind = 'transfer' then ceil(amount / 100) else amount end as amount,
        _register.balance as balance
    from {{ tideline.document() }}
    where (kind = 'transfer' and amount > 100) or kind = 'fee'
{% endcall %}

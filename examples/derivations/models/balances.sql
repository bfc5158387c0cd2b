-- The seed's balances: accumulate in the table. Each transfer publishes a debit of the
-- sender and a credit of the recipient, and `balance: sum` reduces them into the stored row. The
-- reduction is written as Flow writes its annotation, `reduce: {strategy: sum}` (tideline's
-- short form, `'balance': 'sum'`, is the same).
{{ config(
    materialized='derivation',
    unique_key='account',
    derived_columns={'account': 'string', 'balance': 'double'},
    reduce={'balance': {'strategy': 'sum'}},
) }}

{% call tideline.transform('fromTransfers', source=source('bank', 'transfers'), commit_column='load_tstamp', order_by='id') %}
    select
        sender as account,
        -amount as balance
    from {{ tideline.document() }}
    union all
    select
        recipient as account,
        amount as balance
    from {{ tideline.document() }}
{% endcall %}

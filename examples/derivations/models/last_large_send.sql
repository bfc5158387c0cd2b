-- The seed's first example: the last transfer over 100 of each sender (the key acts as a
-- GROUP BY: the newest published row of a sender replaces the stored one).
{{ config(
    materialized='derivation',
    unique_key='sender',
    derived_columns={'sender': 'string', 'id': 'bigint', 'recipient': 'string', 'amount': 'double'},
) }}

{% call tideline.transform('fromTransfers', source=source('bank', 'transfers'), commit_column='load_tstamp', order_by='id') %}
    select sender, id, recipient, amount
    from {{ tideline.document() }}
    where amount > 100
{% endcall %}

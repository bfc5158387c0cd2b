-- The seed's first example: the last transfer over 100 of each sender (the key acts as a
-- GROUP BY: the newest published row of a sender replaces the stored one). No order_by: the
-- transfers a load committed together are taken in the order of their values, first column
-- first (id: 99 before 100, as numbers; docs/derivations.md, "The order").
{{ config(
    materialized='derivation',
    unique_key='sender',
    derived_columns={'sender': 'string', 'id': 'bigint', 'recipient': 'string', 'amount': 'double'},
) }}

{% call tideline.transform('fromTransfers', source=source('bank', 'transfers'), commit_column='load_tstamp') %}
    select sender, id, recipient, amount
    from {{ tideline.document() }}
    where amount > 100
{% endcall %}

-- A derivation that reads its own documents after a read delay: a transfer's credit is held for
-- an hour, then settled. Each transfer publishes a held entry for its recipient; the entry comes
-- back to settleAnHourLater an hour after the transfer's commit time, is added to the recipient's
-- settled balance and is published again as settled, with the settled balance after it. The
-- transfers' load time is the loader's clock (clock=true), so a settlement is published an hour
-- after its transfer even in a run that loaded nothing. One that falls after a run's frontier is
-- held in the data table until the first run whose frontier reaches it.
{{ config(
    materialized='derivation',
    unique_key='entry',
    derived_columns={'entry': 'string', 'account': 'string', 'state': 'string', 'amount': 'double', 'settled': 'double'},
    registers={'settled': {'type': 'double', 'initial': 0, 'reduce': 'sum'}},
) }}

{% call tideline.transform('fromTransfers', source=source('bank', 'transfers'), commit_column='load_tstamp', order_by='id',
                            shuffle=['recipient'], clock=true) %}
    select
        concat('transfer ', id) as entry,
        recipient as account,
        'held' as state,
        amount,
        _register.settled as settled
    from {{ tideline.document() }}
{% endcall %}

{% call tideline.transform('settleAnHourLater', source=tideline.own_documents(), shuffle=['account'], read_delay='1h',
                            update={'settled': "case when state = 'held' then amount end"}) %}
    select
        entry,
        account,
        'settled' as state,
        amount,
        _register.settled as settled
    from {{ tideline.document() }}
    where state = 'held'
{% endcall %}

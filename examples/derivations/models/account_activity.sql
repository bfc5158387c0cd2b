-- Every register strategy at once: a sender's transfers folded into registers of each kind,
-- and the registers published as the sender's row after each transfer.
{{ config(
    materialized='derivation',
    unique_key='sender',
    derived_columns={'sender': 'string', 'sent': 'double', 'largest': 'double', 'smallest': 'double',
                     'first_recipient': 'string', 'last_recipient': 'string', 'recipients': 'array<string>',
                     'distinct_recipients': 'array<string>', 'transfers': 'bigint', 'last_id': 'bigint'},
    registers={
        'sent': {'type': 'double', 'initial': 0, 'reduce': 'sum'},
        'largest': {'type': 'double', 'initial': none, 'reduce': 'max'},
        'smallest': {'type': 'double', 'initial': none, 'reduce': 'min'},
        'first_recipient': {'type': 'string', 'initial': 'nobody', 'reduce': 'first_write_wins'},
        'last_recipient': {'type': 'string', 'initial': 'nobody', 'reduce': 'last_write_wins'},
        'recipients': {'type': 'array<string>', 'initial': [], 'reduce': 'append'},
        'distinct_recipients': {'type': 'array<string>', 'initial': [], 'reduce': 'set'},
        'stats': {'type': 'struct<transfers:bigint,last_id:bigint>', 'initial': {'transfers': 0},
                  'reduce': 'merge', 'fields': {'transfers': 'sum', 'last_id': 'last_write_wins'}},
    },
) }}

{% call tideline.transform('fromTransfers', source=source('bank', 'transfers'), commit_column='load_tstamp', order_by='id',
                            shuffle=['sender'],
                            update={'sent': 'amount', 'largest': 'amount', 'smallest': 'amount',
                                    'first_recipient': 'recipient', 'last_recipient': 'recipient',
                                    'recipients': 'array(recipient)', 'distinct_recipients': 'array(recipient)',
                                    'stats': "named_struct('transfers', 1L, 'last_id', id)"}) %}
    select
        sender,
        _register.sent,
        _register.largest,
        _register.smallest,
        _register.first_recipient,
        _register.last_recipient,
        _register.recipients,
        _register.distinct_recipients,
        _register.stats.transfers as transfers,
        _register.stats.last_id as last_id
    from {{ tideline.document() }}
{% endcall %}

-- Updates that read the register (issue 35, item 2): an update written over `_register` (the
-- key's registers before the document) and `_doc` (the document's columns) sees what the
-- documents before it left. A transfer debits the sender at most its balance, so a balance
-- never goes below zero; `sends_in_a_row` counts the sender's transfers since it last received
-- one (a credit resets it); a credit raises `highest` to the balance after it. The sender's
-- transfers that ask for more than the balance are remembered: the first one's id, each
-- shortfall, and the recipients paid while the balance was under 100. Each transfer is published
-- with what was debited and the sender's registers after it.
{{ config(
    materialized='derivation',
    unique_key='id',
    derived_columns={'id': 'bigint', 'sender': 'string', 'amount': 'double', 'debited': 'double', 'balance': 'double',
                     'sends_in_a_row': 'int', 'first_short_id': 'bigint', 'shortfalls': 'array<double>',
                     'paid_while_low': 'array<string>', 'sends': 'bigint', 'lowest': 'double', 'highest': 'double'},
    registers={
        'balance': {'type': 'double', 'initial': 0, 'reduce': {'strategy': 'sum'}},
        'sends_in_a_row': {'type': 'int', 'initial': 0},
        'highest': {'type': 'double', 'initial': 0, 'reduce': 'max'},
        'first_short_id': {'type': 'bigint', 'initial': none, 'reduce': 'first_write_wins'},
        'shortfalls': {'type': 'array<double>', 'initial': [], 'reduce': 'append'},
        'paid_while_low': {'type': 'array<string>', 'initial': [], 'reduce': 'set'},
        'after_send': {'type': 'struct<n:bigint,lowest:double>', 'initial': {'n': 0}, 'reduce': 'merge',
                       'fields': {'n': 'sum', 'lowest': 'min'}},
    },
) }}

{{ tideline.transform('fromTransferRecipient', source=source('bank', 'transfers'), commit_column='load_tstamp', order_by='id',
                      shuffle=['recipient'],
                      update={'balance': 'amount', 'sends_in_a_row': '0', 'highest': '_register.balance + _doc.amount'}) }}

{% call tideline.transform('fromTransferSender', source=source('bank', 'transfers'), commit_column='load_tstamp', order_by='id',
                            shuffle=['sender'],
                            update={'balance': '-least(_doc.amount, _register.balance)',
                                    'sends_in_a_row': '_register.sends_in_a_row + 1',
                                    'first_short_id': 'case when _doc.amount > _register.balance then _doc.id end',
                                    'shortfalls': 'case when _doc.amount > _register.balance then array(_doc.amount - _register.balance) end',
                                    'paid_while_low': 'case when _register.balance < 100 then array(_doc.recipient) end',
                                    'after_send': "named_struct('n', 1L, 'lowest', _register.balance - least(_doc.amount, _register.balance))"}) %}
    select
        id,
        sender,
        amount,
        _previous.balance - _register.balance as debited,
        _register.balance as balance,
        _register.sends_in_a_row as sends_in_a_row,
        _register.first_short_id as first_short_id,
        _register.shortfalls as shortfalls,
        _register.paid_while_low as paid_while_low,
        _register.after_send.n as sends,
        _register.after_send.lowest as lowest,
        _register.highest as highest
    from {{ tideline.document() }}
{% endcall %}

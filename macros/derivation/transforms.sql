{#- Derivations (seed 001, Estuary Flow): what a model writes, and how its settings are read.

    A derivation model declares its transforms with tideline.transform(), one per transform,
    in the model file; a publish lambda is the body of a {% call %} block:

        {{ config(materialized='derivation', unique_key='id',
                  derived_columns={'id': 'bigint', 'sender': 'string', 'balance': 'double', 'overdrawn': 'boolean'},
                  registers={'balance': {'type': 'double', 'initial': 0, 'reduce': 'sum'}}) }}

        {{ tideline.transform('fromTransferRecipient', source=ref('transfers'), shuffle=['recipient'],
                              order_by='id', update={'balance': 'amount'}) }}

        {% call tideline.transform('fromTransferSender', source=ref('transfers'), shuffle=['sender'],
                                    order_by='id', update={'balance': '-amount'}) %}
            select id, sender, _register.balance as balance, _register.balance < 0 as overdrawn
            from {{ tideline.document() }}
        {% endcall %}

    transform() renders a marked block into the compiled model (a SQL comment holding its
    settings as JSON, then the publish select); the materialization reads the blocks back with
    derivation_settings(). Everything is checked there, before any statement is sent. -#}

{% macro transform(name, source=none, shuffle=none, update=none, order_by=none, commit_column='_tl_batch',
                   read_delay='0s', priority=0) %}
    {%- set publish = caller() if caller is defined else '' -%}
    {%- set spec = {
        'name': name,
        'source': ({'schema': source.schema, 'identifier': source.identifier, 'rendered': source | string}
                   if source is not none and source.identifier is defined else (source | string if source is not none else none)),
        'shuffle': shuffle, 'updates': update, 'order_by': order_by, 'commit_column': commit_column,
        'read_delay': read_delay, 'priority': priority, 'has_publish': publish | trim != '',
    } -%}
    {{- '/* tideline:transform {} */\n{}\n/* tideline:end */\n'.format(spec | tojson | replace('*/', '*\\/'), publish) -}}
{% endmacro %}

{#- In a publish lambda: the documents of its transform, one row each: the source row's
    columns, _register (the registers after this document's update) and _previous (before it). -#}
{% macro document() %}
    {{- return('_tl_document') -}}
{% endmacro %}

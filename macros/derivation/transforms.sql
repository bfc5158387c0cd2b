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

    Each transform() call is a structure the materialization receives (collected by
    tideline.collect_model_definitions(), internal/model_definitions.sql); in dbt's compile it
    renders as readable SQL instead: a comment naming the transform, then its publish select.
    Everything is checked in derivation_settings(), before any statement is sent. -#}

{% macro transform(name, source=none, shuffle=none, update=none, order_by=none, commit_column='_tl_batch',
                   read_delay='0s', priority=0, clock=false) %}
    {%- set publish = caller() if caller is defined else '' -%}
    {%- set own = source is mapping and source.get('own_documents') is sameas true -%}
    {%- set spec = {
        'name': name,
        'source': (source if own
                   else {'schema': source.schema, 'identifier': source.identifier, 'rendered': source | string}
                   if source is not none and source.identifier is defined else (source | string if source is not none else none)),
        'shuffle': shuffle, 'updates': update, 'order_by': order_by, 'commit_column': commit_column,
        'read_delay': read_delay, 'priority': priority, 'clock': clock, 'publish': publish if publish | trim != '' else none,
    } -%}
    {%- set collector = tideline.model_definitions_collector() -%}
    {%- if collector is not none -%}
        {%- do collector.append(spec) -%}
    {%- else -%}
        {{- '-- tideline transform {}{}\n{}\n'.format(name, '' if spec.publish else ' (no publish lambda)', publish) -}}
    {%- endif -%}
{% endmacro %}

{#- In a publish lambda: the documents of its transform, one row each: the source row's
    columns, _register (the registers after this document's update) and _previous (before it). -#}
{% macro document() %}
    {{- return('_tl_document') -}}
{% endmacro %}

{#- As a transform's source: the documents the derivation itself publishes (Flow's self-referencing
    and cyclic derivations). Each published row comes back as a document of the transform, with
    the columns of derived_columns, right after the document that published it: at its time, one
    step deeper (docs/derivations.md, "Self-referencing and cyclic derivations"). -#}
{% macro own_documents() %}
    {{- return({'own_documents': true, 'schema': none, 'identifier': 'own_documents', 'rendered': 'tideline.own_documents()'}) -}}
{% endmacro %}

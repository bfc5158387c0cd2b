{#- Mutable time: a channel's settings of time (mutable_time, retention_days) and of content
    (checks, change relations). -#}

{#- {mutable_time, retention_days}: a past UTC time, a whole number of days, never both. -#}
{% macro _channel_time_settings(model_name) %}
    {%- set raw_time = config.get('mutable_time', none) -%}
    {%- set mutable_time = tideline.parse_utc_time(raw_time) if raw_time is not none else none -%}
    {%- if raw_time is not none and mutable_time is none -%}
        {{ tideline._channel_error(model_name, 'mutable_time', raw_time, "a UTC time written YYYY-MM-DD[ HH:MM[:SS[.fff]]] that exists on the calendar") }}
    {%- endif -%}
    {%- if mutable_time is not none and mutable_time > tideline.now() -%}
        {{ tideline._channel_error(model_name, 'mutable_time', raw_time, "a time in the past (now is {} UTC)".format(tideline.now())) }}
    {%- endif -%}
    {%- set retention = config.get('retention_days', none) -%}
    {%- if retention is not none and (retention is string or retention is boolean or retention is not number or (retention | int) != retention or retention < 1) -%}
        {{ tideline._channel_error(model_name, 'retention_days', retention, "an integer >= 1 (days of items kept), or none") }}
    {%- endif -%}
    {%- if retention is not none and raw_time is not none -%}
        {{ tideline._channel_refusal(model_name, "mutable_time and retention_days cannot be combined: a channel with mutable_time keeps its history for good (as the Hub refuses ttlDays and maxItems)") }}
    {%- endif -%}
    {{- return({'mutable_time': mutable_time, 'retention_days': retention}) -}}
{% endmacro %}

{#- checks: {name: SQL condition every item a move makes stable must meet}. -#}
{% macro _channel_checks_setting(model_name) %}
    {%- set checks = config.get('checks', {}) -%}
    {%- if checks is not mapping -%}
        {{ tideline._channel_error(model_name, 'checks', checks, "a mapping of check name to a SQL condition every item must meet, e.g. {'value_present': 'value is not null'}") }}
    {%- endif -%}
    {%- for name, condition in checks.items() if not modules.re.match('^[A-Za-z_][A-Za-z0-9_]*$', name) or condition is not string or condition | trim == '' -%}
        {{ tideline._channel_error(model_name, 'checks.{}'.format(name), condition, "names of letters, digits and underscores, each a SQL condition over the item's columns") }}
    {%- endfor -%}
    {{- return(checks) -}}
{% endmacro %}

{#- changes: the change relations, each existing and with the columns a change needs, as
    feeds of the commit frontier (frontier.sql). -#}
{% macro _channel_change_relations(model_name, names, payload) %}
    {%- set raw_changes = config.get('changes', []) -%}
    {%- if raw_changes is string or raw_changes is mapping or raw_changes is not iterable -%}
        {{ tideline._channel_error(model_name, 'changes', raw_changes, "a list of change relations: models or seeds, or 'source_name.table_name'") }}
    {%- endif -%}
    {%- if names.change_arrival_column and not raw_changes -%}
        {{ tideline._channel_error(model_name, 'change_arrival_column', names.change_arrival_column, "the load time column of the change relations, on a channel with changes") }}
    {%- endif -%}
    {%- set changes = [] -%}
    {%- for name in raw_changes -%}
        {%- set relation = tideline._input_relation(name) -%}
        {%- set found = adapter.get_relation(database=relation.database, schema=relation.schema, identifier=relation.identifier) -%}
        {%- if found is none -%}
            {{ tideline._channel_error(model_name, 'changes', name, "existing relations ({} does not exist)".format(relation)) }}
        {%- endif -%}
        {%- set columns = tideline.column_names(found) -%}
        {%- set keys = ['op', names.item_time, names.change_time] + ([names.item_id] if names.item_id else [])
                       + ([names.change_arrival_column] if names.change_arrival_column else []) -%}
        {%- set missing = (keys + payload | map('first') | list) | reject('in', columns) | list -%}
        {%- if missing -%}
            {{ tideline._channel_error(model_name, 'changes', name, "relations with the columns {} and the payload columns ({} lacks {})".format(
                keys | join(', '), found, missing | join(', '))) }}
        {%- endif -%}
        {%- do changes.append({'name': name, 'source': {'rendered': found | string}, 'commit_column': names.change_arrival_column or names.change_time, 'delay': 0, 'clock': true, 'counted': false,
                               'relation': found, 'key_columns': [names.item_id or names.item_time]}) -%}
    {%- endfor -%}
    {{- return(changes) -}}
{% endmacro %}

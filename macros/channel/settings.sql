{#- Mutable time: a channel's settings, each checked before anything is written; a refusal
    names the channel, the setting, the value and what is accepted. -#}

{% macro _channel_error(model_name, setting, value, accepted) %}
    {{ exceptions.raise_compiler_error("tideline: channel {}: {} = {} is invalid; accepted: {}".format(
        model_name, setting, tideline.shown(value) if value is not string else value, accepted)) }}
{% endmacro %}

{% macro _channel_refusal(model_name, message) %}
    {{ exceptions.raise_compiler_error("tideline: channel {}: {}".format(model_name, message)) }}
{% endmacro %}

{#- The channel's settings: {name, payload, item_time, item_id, change_time, arrival,
    mutable_time, retention_days, checks, on_bad_rows, late_row_lookback, compact_every (checked
    here, before anything is written, though only a run's end reads it), changes, change_arrival
    (the change relations' load time column, or none: read by change time)}. With
    change_arrival_column the change relations are read by their load time (late_changes.sql):
    each feed's commit column is that column. -#}
{% macro channel_settings(model_name) %}
    {%- set payload = tideline.declared_columns('channel', model_name, 'columns', config.get('columns'), "{'value': 'int', 'text': 'string'}") -%}
    {%- set names = tideline._channel_column_names(model_name, payload) -%}
    {%- set times = tideline._channel_time_settings(model_name) -%}
    {{- return({'name': model_name, 'payload': payload, 'item_time': names.item_time, 'item_id': names.item_id,
                'change_time': names.change_time, 'arrival': names.arrival_column or names.item_time,
                'mutable_time': times.mutable_time, 'retention_days': times.retention_days,
                'checks': tideline._channel_checks_setting(model_name), 'on_bad_rows': tideline.channel_on_bad_rows(model_name),
                'late_row_lookback': tideline.late_row_lookback_setting(model_name, tideline._channel_error),
                'compact_every': tideline.compact_every_setting(model_name, tideline._channel_error),
                'changes': tideline._channel_change_relations(model_name, names, payload),
                'change_arrival': names.change_arrival_column, 'change_order': true}) -}}
{% endmacro %}

{#- The columns the channel reads by name: {item_time, item_id, change_time, arrival_column, change_arrival_column}. -#}
{% macro _channel_column_names(model_name, payload) %}
    {%- set names = {} -%}
    {%- for setting, default in [['item_time', 'item_time'], ['item_id', none], ['change_time', 'changed_at'], ['arrival_column', none], ['change_arrival_column', none]] -%}
        {%- set value = config.get(setting, default) -%}
        {%- if value is not none and (value is not string or not modules.re.match('^[A-Za-z_][A-Za-z0-9_]*$', value)) -%}
            {{ tideline._channel_error(model_name, setting, value, "a column name (letters, digits, underscores)") }}
        {%- endif -%}
        {%- do names.update({setting: value | lower if value is not none else none}) -%}
    {%- endfor -%}
    {%- for c in payload if c[0] in [names.item_time, names.item_id, names.arrival_column, 'item_date', 'op', names.change_time, names.change_arrival_column] -%}
        {{ tideline._channel_error(model_name, 'columns', c[0], "payload columns other than the item time, the item id, the arrival column, item_date, op, the change time and the change arrival column") }}
    {%- endfor -%}
    {{- return(names) -}}
{% endmacro %}

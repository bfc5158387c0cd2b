{#- compact_every, the config (or var tideline__compact_every) that bounds the files of a
    model's state and data generations. -#}

{#- The model's compact_every: its config, or the var tideline__compact_every (default 24).
    `error` is the capability's error macro (model, setting, value, accepted). Also the number
    of files a model's state may hold before a commit compacts it (compact_state). -#}
{% macro compact_every_setting(model_name, error=none) %}
    {%- set error = error or tideline._model_config_error -%}
    {%- set value = config.get('compact_every', none) -%}
    {%- set value = tideline.var_int('tideline__compact_every', 1) if value is none else value -%}
    {%- if value is string or value is boolean or value is not number or (value | int) != value or value < 1 -%}
        {{ error(model_name, 'compact_every', value, "an integer >= 1 (runs between compactions)") }}
    {%- endif -%}
    {{- return(value | int) -}}
{% endmacro %}

{% macro _model_config_error(model_name, setting, value, accepted) %}
    {{ exceptions.raise_compiler_error("tideline: model {}: config {} = {} is invalid; accepted: {}".format(
        model_name, setting, value | tojson if value is not string else value, accepted)) }}
{% endmacro %}

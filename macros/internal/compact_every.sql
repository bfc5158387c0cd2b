{#- Run periods a model's config sets: compact_every, which bounds the files of a model's state
    and data generations, and settle_every, the runs between settlings of a merged daily
    aggregate's parts. -#}

{#- The model's compact_every: its config, or the var tideline__compact_every (default 24).
    `error` is the capability's error macro (model, setting, value, accepted). Also the number
    of files a model's state may hold before a commit compacts it (compact_state). -#}
{% macro compact_every_setting(model_name, error=none) %}
    {{- return(tideline._runs_setting(model_name, 'compact_every', "an integer >= 1 (runs between compactions)", error)) -}}
{% endmacro %}

{#- A merged daily aggregate's settle_every: its config, or the var tideline__settle_every
    (default 1, every run): the runs between settlings of its parts (daily_merge_layout.sql). -#}
{% macro settle_every_setting(model_name) %}
    {{- return(tideline._runs_setting(model_name, 'settle_every', "an integer >= 1 (runs between settlings of the parts)", none)) -}}
{% endmacro %}

{#- A count of runs: the model's config `name`, or the var tideline__<name>, validated. -#}
{% macro _runs_setting(model_name, name, accepted, error) %}
    {%- set error = error or tideline._model_config_error -%}
    {%- set value = config.get(name, none) -%}
    {%- set value = tideline.var_int('tideline__{}'.format(name), 1) if value is none else value -%}
    {%- if value is string or value is boolean or value is not number or (value | int) != value or value < 1 -%}
        {{ error(model_name, name, value, accepted) }}
    {%- endif -%}
    {{- return(value | int) -}}
{% endmacro %}

{% macro _model_config_error(model_name, setting, value, accepted) %}
    {{ exceptions.raise_compiler_error("tideline: model {}: config {} = {} is invalid; accepted: {}".format(
        model_name, setting, tideline.shown(value) if value is not string else value, accepted)) }}
{% endmacro %}

{#- Counts a model's config sets, each defaulting to its var: compact_every, which bounds the
    files of a model's state and data generations; settle_every, the runs between settlings of
    a merged daily aggregate's parts; a daily aggregate's lateness rules reprocess_days and
    min_rows_to_process (days_to_process.sql). -#}

{#- The model's compact_every: its config, or the var tideline__compact_every (default 24).
    `error` is the capability's error macro (model, setting, value, accepted). Also the number
    of files a model's state may hold before a commit compacts it (compact_state). -#}
{% macro compact_every_setting(model_name, error=none) %}
    {{- return(tideline.model_count_setting(model_name, 'compact_every', 1, "an integer >= 1 (runs between compactions)", error)) -}}
{% endmacro %}

{#- A merged daily aggregate's settle_every: its config, or the var tideline__settle_every
    (default 1, every run): the runs between settlings of its parts (daily_merge_layout.sql). -#}
{% macro settle_every_setting(model_name) %}
    {{- return(tideline.model_count_setting(model_name, 'settle_every', 1, "an integer >= 1 (runs between settlings of the parts)")) -}}
{% endmacro %}

{#- A count: the model's config `name`, or the var tideline__<name>, validated (a whole number
    >= minimum; `accepted` says so in the refusal, `error` the capability's error macro). -#}
{% macro model_count_setting(model_name, name, minimum, accepted, error=none) %}
    {%- set error = error or tideline._model_config_error -%}
    {%- set value = config.get(name, none) if execute else none -%}
    {%- set value = tideline.var_int('tideline__{}'.format(name), minimum) if value is none else value -%}
    {%- if value is string or value is boolean or value is not number or (value | int) != value or value < minimum -%}
        {{ error(model_name, name, value, accepted) }}
    {%- endif -%}
    {{- return(value | int) -}}
{% endmacro %}

{% macro _model_config_error(model_name, setting, value, accepted) %}
    {{ exceptions.raise_compiler_error("tideline: model {}: config {} = {} is invalid; accepted: {}".format(
        model_name, setting, tideline.shown(value) if value is not string else value, accepted)) }}
{% endmacro %}

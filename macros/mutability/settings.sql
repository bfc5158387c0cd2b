{#- Mutability: how a source changes, as materializations, so tideline does the least
    work that is still correct. The materializations (macros/materializations/mutability.sql)
    are thin; the rules live in this folder:
      immutable      built once; later runs do nothing; a changed compiled SQL is an error
      full_mutation  rebuilt when a tick of update_cron passed since the last build; atomic swap
                     (rebuildable.sql)
      append_only    primed over [min, max]; later, after a tick, only rows with `along` above
                     the largest stored value are read and appended; `settle: N` re-reads the
                     newest N stored values and replaces their rows (append_window.sql,
                     append_only.sql)
      ds_append_only append_only with along: ds
    A model can also say `materialized='mutability'` with the seed's shape:
    `mutability={'type': 'append_only', 'type_params': {'along': 'ds', 'update_cron': '0 0 * * *'}}`.
    Every model is a view over a version table `<model>__tl_v<N>`; a build (or an append_only
    prime) writes a new version and swaps the view in one statement, an append writes into the
    current version (versions.sql). The refresh time and what the next run needs live in that
    table's TBLPROPERTIES (tideline.*), so they are written, dropped and swapped together with
    the rows. This file reads the settings. -#}

{% macro mutability_types() %}
    {{- return(['immutable', 'full_mutation', 'append_only', 'ds_append_only']) -}}
{% endmacro %}

{#- The model's mutability settings, validated: {type, update_cron, along, append, and for
    append_only min, max, settle, max_along_values}. -#}
{% macro mutability_settings() %}
    {%- set model_name = model.name -%}
    {%- set materialized = config.get('materialized') -%}
    {%- if materialized == 'mutability' -%}
        {%- set spec = config.get('mutability') or {} -%}
        {%- if spec is mapping -%}
            {%- do tideline.refuse_unknown_keys(tideline._model_config_error, model_name, 'mutability', spec, ['type', 'type_params']) -%}
        {%- endif -%}
        {%- set kind = spec.get('type') if spec is mapping else spec -%}
        {%- set params = (spec.get('type_params') or {}) if spec is mapping else {} -%}
        {%- if params is not mapping -%}
            {{ tideline._model_config_error(model_name, 'mutability.type_params', params, "a mapping of update_cron, along, min, max, settle, max_along_values") }}
        {%- endif -%}
        {%- do tideline.refuse_unknown_keys(tideline._model_config_error, model_name, 'mutability.type_params', params,
                                            ['update_cron', 'along', 'min', 'max', 'settle', 'max_along_values']) -%}
    {%- else -%}
        {%- set kind = materialized -%}
        {%- set params = {'update_cron': config.get('update_cron'), 'along': config.get('along'), 'min': config.get('min'),
                          'max': config.get('max'), 'settle': config.get('settle'), 'max_along_values': config.get('max_along_values')} -%}
    {%- endif -%}
    {%- if kind not in tideline.mutability_types() -%}
        {{ exceptions.raise_compiler_error("tideline: model {}: mutability type {} is unknown; accepted: {}".format(
            model_name, kind | tojson, tideline.mutability_types() | join(', '))) }}
    {%- endif -%}
    {%- set cron = params.get('update_cron') or '0 * * * *' -%}
    {%- do tideline.parse_cron(cron, 'update_cron of model {}'.format(model_name)) -%}
    {%- set along = params.get('along') -%}
    {%- if kind == 'ds_append_only' -%}
        {%- if along is not none and along != 'ds' -%}
            {{ exceptions.raise_compiler_error("tideline: model {}: ds_append_only appends along ds, not {}; use append_only for another column".format(
                model_name, along | tojson)) }}
        {%- endif -%}
        {%- set along = 'ds' -%}
    {%- endif -%}
    {%- set settings = {'type': kind, 'update_cron': cron, 'along': along, 'append': kind in ('append_only', 'ds_append_only')} -%}
    {%- if settings.append -%}{%- do settings.update(tideline._append_settings(params, along)) -%}{%- endif -%}
    {{- return(settings) -}}
{% endmacro %}

{#- append_only's own settings, validated: {min, max, settle, max_along_values}. -#}
{% macro _append_settings(params, along) %}
    {%- if along is none or along is not string or not modules.re.match('^[A-Za-z_][A-Za-z0-9_]*$', along) -%}
        {{ exceptions.raise_compiler_error("tideline: model {}: append_only needs `along`, the column new rows are found by; got {}; accepted: a column name of the model's query, e.g. along='ds'".format(
            model.name, along | tojson)) }}
    {%- endif -%}
    {%- set low = (params.get('min') if params.get('min') is not none else '1000-01-01') | string -%}
    {%- set high = (params.get('max') if params.get('max') is not none else '9999-12-31') | string -%}
    {%- set numeric = modules.re.match('^-?[0-9]+(\.[0-9]+)?$', low) and modules.re.match('^-?[0-9]+(\.[0-9]+)?$', high) -%}
    {%- if (numeric and (low | float) > (high | float)) or (not numeric and low > high) -%}
        {{ exceptions.raise_compiler_error("tideline: model {}: min {} is after max {}; accepted: min <= max".format(model.name, low | tojson, high | tojson)) }}
    {%- endif -%}
    {{- return({'min': low, 'max': high,
        'settle': tideline._whole_number(params, 'settle', 0, 0, 'how many of the newest stored values of along to re-read'),
        'max_along_values': tideline._whole_number(params, 'max_along_values', 10000, 1,
            'how many values of along one run may write; each is a partition')}) -}}
{% endmacro %}

{#- An integer setting >= minimum, or the default when it is not set. -#}
{% macro _whole_number(params, name, default, minimum, meaning) %}
    {%- set value = params.get(name) if params.get(name) is not none else default -%}
    {%- if value is not number or value is boolean or (value | int) != value or value < minimum -%}
        {{ exceptions.raise_compiler_error("tideline: model {}: {} {} is invalid; accepted: an integer >= {} ({})".format(
            model.name, name, value | tojson, minimum, meaning)) }}
    {%- endif -%}
    {{- return(value | int) -}}
{% endmacro %}

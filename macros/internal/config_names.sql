{#- A model's config keys checked: a key within a few edits of one its materialization reads
    (`unqiue_key`, `retention_day`, `file_fromat`) is a misspelling, which dbt would keep as an
    extra config and tideline would never read. -#}

{#- The config keys each tideline materialization reads, by materialized name. -#}
{% macro tideline_config_keys(materialized) %}
    {%- set mutability = ['mutability', 'along', 'min', 'max', 'settle', 'max_along_values', 'update_cron'] -%}
    {%- set keys = {
        'tideline_filtered_events': [],
        'tideline_daily_aggregate': ['date_column', 'measures', 'settle_every', 'reprocess_days', 'min_rows_to_process',
                                     'attribute_view', 'on_definition_change'],
        'tideline_table': ['partition_by'],
        'derivation': ['derived_columns', 'unique_key', 'reduce', 'registers', 'on_definition_change', 'on_bad_rows', 'late_row_lookback',
                       'max_passes'],
        'continual_task': ['columns', 'inputs', 'references', 'snapshot', 'on_definition_change', 'on_bad_rows', 'late_row_lookback'],
        'channel': ['columns', 'item_time', 'item_id', 'change_time', 'arrival_column', 'mutable_time',
                    'retention_days', 'checks', 'changes', 'on_bad_rows', 'late_row_lookback', 'change_arrival_column'],
        'mutability': mutability, 'immutable': mutability, 'full_mutation': mutability,
        'append_only': mutability, 'ds_append_only': mutability} -%}
    {{- return(keys.get(materialized, []) + ['file_format', 'compact_every']) -}}
{% endmacro %}

{#- Refuses a config key that the model's materialization does not read and that is within
    two edits of one it reads (one edit for a key of four letters or fewer), naming the model as its
    capability's refusals do, the closest key and the materialization's keys. Other unknown keys are left alone: dbt keeps any key a
    user sets (a project-wide `+my_key`, a key of another package), and dbt's own keys are
    never within two edits of tideline's. -#}
{% macro refuse_unknown_configs(model_name) %}
    {%- if not execute -%}{{ return('') }}{%- endif -%}
    {%- set materialized = config.get('materialized') -%}
    {%- set known = tideline.tideline_config_keys(materialized) -%}
    {%- set noun = {'derivation': 'derivation', 'continual_task': 'continual task', 'channel': 'channel'}.get(materialized, 'model') -%}
    {%- for key in model.config.keys() | sort if key is string and key not in known -%}
        {%- set closest = tideline.closest_name(key, known) -%}
        {%- if tideline.edit_distance(key, closest) <= (1 if key | length <= 4 else 2) -%}
            {{ exceptions.raise_compiler_error("tideline: {} {}: config {} is not a config of materialized='{}' (did you mean {}?); its configs: {}".format(
                noun, model_name, key, materialized, closest, known | sort | join(', '))) }}
        {%- endif -%}
    {%- endfor -%}
    {{- return('') -}}
{% endmacro %}

{#- Refuses a key of a config's own mapping (`registers.balance`, `inputs.stream`,
    `mutability.type_params`) that tideline does not read: every key of such a mapping is
    tideline's, so any other is a misspelling. `error` is the capability's error macro (model,
    setting, value, accepted); the first unknown key, in name order, is refused. -#}
{% macro refuse_unknown_keys(error, model_name, setting, given, known) %}
    {%- for key in given.keys() | map('string') | sort if key not in known -%}
        {{ error(model_name, '{}.{}'.format(setting, key), given[key], "a key of {}: {} (did you mean {}?)".format(
            setting, known | sort | join(', '), tideline.closest_name(key, known))) }}
    {%- endfor -%}
    {{- return('') -}}
{% endmacro %}

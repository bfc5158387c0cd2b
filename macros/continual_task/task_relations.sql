{#- Continual tasks: the relations a task reads (its inputs and references, inputs.sql and
    references.sql) checked before anything is written. -#}

{#- The existing relation of an input or reference `name` (a model, or 'source.table'), else
    the refusal of `setting`, naming what is accepted (`what`: tables, relations). -#}
{% macro _task_relation(model_name, setting, name, what) %}
    {%- set relation = tideline._input_relation(name) -%}
    {%- set found = adapter.get_relation(database=relation.database, schema=relation.schema, identifier=relation.identifier) -%}
    {%- if found is none -%}
        {{ tideline._task_error(model_name, setting, name, "existing {} ({} does not exist)".format(what, relation)) }}
    {%- endif -%}
    {{- return(found) -}}
{% endmacro %}

{#- config references: {name: {valid_from: column, key: column or list}} (a kept history) or
    {name: {time_travel: true}} (a Delta or Iceberg table read by its versions: time_travel.sql),
    each an existing relation that is not also an input, valid_from one of its timestamp or date
    columns, the key's columns its own. -#}
{% macro _task_references(model_name, inputs) %}
    {%- set raw = config.get('references', none) -%}
    {%- if raw is none -%}{{ return([]) }}{%- endif -%}
    {%- set example = "{'stream.customer_tiers': {'valid_from': 'valid_from', 'key': 'customer_id'}}" -%}
    {%- if raw is not mapping -%}
        {{ tideline._task_error(model_name, 'references', raw, "a mapping of reference name (a model, or 'source.table') to {{valid_from: column, key: column or list}}, e.g. {}".format(example)) }}
    {%- endif -%}
    {%- set references = [] -%}
    {%- for name, spec in raw.items() -%}
        {%- set setting = 'references.{}'.format(name) -%}
        {%- if name in inputs | map(attribute='name') | list -%}
            {{ tideline._task_error(model_name, 'references', name, "relations that are not also inputs (an input's rows at a step are tideline.input())") }}
        {%- endif -%}
        {%- if spec is mapping -%}{%- do tideline.refuse_unknown_keys(tideline._task_error, model_name, setting, spec, ['valid_from', 'key', 'time_travel']) -%}{%- endif -%}
        {%- if spec is mapping and 'time_travel' in spec -%}
            {%- do references.append(tideline._time_travel_reference(model_name, name, spec)) -%}
            {%- continue -%}
        {%- endif -%}
        {%- if spec is not mapping or spec.valid_from is not string -%}
            {{ tideline._task_error(model_name, setting, spec, "{valid_from: the column of the time each version became valid, key: the columns that name a version's row (optional)}") }}
        {%- endif -%}
        {%- set found = tideline._task_relation(model_name, 'references', name, 'relations') -%}
        {%- set types = tideline._column_types(found) -%}
        {%- if types.get(spec.valid_from | lower) not in ['timestamp', 'timestamp_ntz', 'date'] -%}
            {{ tideline._task_error(model_name, '{}.valid_from'.format(setting), spec.valid_from, "a timestamp or date column of {} ({})".format(found, types.items() | map('join', ' ') | join(', '))) }}
        {%- endif -%}
        {%- set key = [spec.key] if spec.key is string else spec.get('key') -%}
        {%- if key is not none and (key is mapping or key is not iterable or not key or key | reject('string') | list) -%}
            {{ tideline._task_error(model_name, '{}.key'.format(setting), spec.key, "a column of {}, or a list of them".format(found)) }}
        {%- endif -%}
        {%- for k in key or [] if k | lower not in types -%}
            {{ tideline._task_error(model_name, '{}.key'.format(setting), k, "columns of {} ({})".format(found, types | join(', '))) }}
        {%- endfor -%}
        {%- do references.append({'name': name, 'relation': found | string, 'time_travel': false, 'valid_from': spec.valid_from | lower,
                                  'key': (key or []) | map('lower') | list}) -%}
    {%- endfor -%}
    {{- return(references) -}}
{% endmacro %}

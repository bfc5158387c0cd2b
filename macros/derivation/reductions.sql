{#- Derivations: the reduction strategies of registers and derived columns. -#}

{#- The reduction strategies, with Flow's names accepted as synonyms, written as a name or as
    Flow writes a reduction annotation, {strategy: <name>} (its `key`: _reduction_key). -#}
{% macro _strategy(model_name, setting, value, transform_name=none) %}
    {%- if value is mapping -%}
        {%- do tideline.refuse_unknown_keys(tideline._derivation_error, model_name, setting, value, ['key', 'strategy']) -%}
        {%- set value = value.get('strategy') -%}
    {%- endif -%}
    {%- set synonyms = {'minimize': 'min', 'maximize': 'max', 'firstWriteWins': 'first_write_wins',
                        'lastWriteWins': 'last_write_wins'} -%}
    {%- set strategy = synonyms.get(value, value) if value is string else value -%}
    {%- if strategy not in ['sum', 'min', 'max', 'first_write_wins', 'last_write_wins', 'append', 'set', 'merge'] -%}
        {{ tideline._derivation_error(model_name, setting, value,
            "sum, min, max, first_write_wins, last_write_wins, append, set, or merge (a struct, with a strategy per field)") }}
    {%- endif -%}
    {{- return(strategy) -}}
{% endmacro %}

{#- The fields of a struct type: [[name, type], ...]; none for another type. -#}
{% macro _struct_fields(type) %}
    {%- set t = tideline.type_name(type) -%}
    {%- if not (t.startswith('struct<') and t.endswith('>')) -%}{{ return(none) }}{%- endif -%}
    {%- set body = t[7:-1] -%}
    {%- set fields = [] -%}
    {%- set state = {'depth': 0, 'start': 0} -%}
    {%- for i in range(body | length + 1) -%}
        {%- set c = body[i] if i < body | length else ',' -%}
        {%- if c in '<(' -%}{%- do state.update({'depth': state.depth + 1}) -%}
        {%- elif c in '>)' -%}{%- do state.update({'depth': state.depth - 1}) -%}
        {%- elif c == ',' and state.depth == 0 -%}
            {%- set part = body[state.start:i] -%}
            {%- do fields.append([part.split(':', 1)[0], part.split(':', 1)[1] if ':' in part else '']) -%}
            {%- do state.update({'start': i + 1}) -%}
        {%- endif -%}
    {%- endfor -%}
    {{- return(fields) -}}
{% endmacro %}

{#- A reduction's spec: {'strategy', 'type', 'fields': [[name, spec], ...]}. A merge folds each
    field by its own reduction; so does a minimize or maximize by a key (`key`) where two values'
    keys are equal, as Flow deep-merges them (reduction_key.sql). `fields` is refused elsewhere. -#}
{% macro _reduction(model_name, setting, strategy_value, type, field_strategies=none) %}
    {%- set strategy = tideline._strategy(model_name, '{}.reduce'.format(setting), strategy_value) -%}
    {%- set spec = {'strategy': strategy, 'type': tideline.type_name(type), 'fields': none} -%}
    {%- set type_setting = '{}.type'.format(setting) -%}
    {%- if strategy in ['append', 'set'] and not spec.type.startswith('array<') -%}
        {{ tideline._derivation_error(model_name, type_setting, type, "an array type (array<...>) for {}".format(strategy)) }}
    {%- endif -%}
    {%- if strategy == 'sum' and not (spec.type in ['tinyint', 'smallint', 'int', 'bigint', 'float', 'double'] or spec.type.startswith('decimal')) -%}
        {{ tideline._derivation_error(model_name, type_setting, type, "a numeric type for sum") }}
    {%- endif -%}
    {%- if strategy_value is mapping and 'key' in strategy_value -%}
        {%- do spec.update({'key': tideline._reduction_key(model_name, '{}.reduce.key'.format(setting), strategy_value.key, strategy, spec.type)}) -%}
    {%- endif -%}
    {%- if strategy == 'merge' or spec.get('key') -%}
        {%- do spec.update({'fields': tideline._merge_fields(model_name, setting, type, field_strategies)}) -%}
    {%- elif field_strategies is not none -%}
        {{ tideline._derivation_error(model_name, '{}.fields'.format(setting), field_strategies,
            "no fields: a strategy per field is for merge, and for minimize or maximize with a key (how values of equal keys merge)") }}
    {%- endif -%}
    {{- return(spec) -}}
{% endmacro %}

{#- A merge reduction's fields, each with its own reduction (last_write_wins unless given). -#}
{% macro _merge_fields(model_name, setting, type, field_strategies) %}
    {%- set fields = tideline._struct_fields(type) -%}
    {%- if fields is none -%}
        {{ tideline._derivation_error(model_name, '{}.type'.format(setting), type, "a struct type (struct<name:type, ...>) for merge") }}
    {%- endif -%}
    {%- set given = field_strategies or {} -%}
    {%- if given is not mapping -%}
        {{ tideline._derivation_error(model_name, '{}.fields'.format(setting), given, "a mapping of struct field to strategy") }}
    {%- endif -%}
    {%- set names = fields | map('first') | list -%}
    {%- for f in given if f not in names -%}
        {{ tideline._derivation_error(model_name, '{}.fields'.format(setting), f, "a field of {}: {}".format(tideline.type_name(type), names | join(', '))) }}
    {%- endfor -%}
    {%- set specs = [] -%}
    {%- for f in fields -%}
        {%- do specs.append([f[0], tideline._reduction(model_name, '{}.fields.{}'.format(setting, f[0]), given.get(f[0], 'last_write_wins'), f[1])]) -%}
    {%- endfor -%}
    {{- return(specs) -}}
{% endmacro %}

{#- Derivations: everything a run needs, read from the model's config and its transform() calls and
    checked before any statement that writes: the first error stops the run, naming the model,
    the transform and the setting. -#}

{% macro derivation_settings(model_name) %}
    {%- set columns = config.get('derived_columns') -%}
    {%- set derived = tideline.declared_columns('derivation', model_name, 'derived_columns', columns, "{'id': 'bigint', 'balance': 'double'}") -%}
    {%- set unique_key = tideline._derived_unique_key(model_name, derived) -%}
    {%- set reductions = tideline._derived_reductions(model_name, derived, unique_key, columns) -%}
    {%- set registers = tideline._registers_setting(model_name) -%}
    {%- set transforms = tideline._transforms_of(model_name) -%}
    {#- each source's column types, described once however many transforms read it -#}
    {%- set source_types = {} -%}
    {%- for t in transforms -%}
        {%- do tideline._check_transform(model_name, t, registers | map(attribute='name') | list) -%}
        {%- do tideline._check_transform_source(model_name, t, derived, source_types) -%}
    {%- endfor -%}
    {%- set feeds = transforms | rejectattr('own') | list -%}
    {%- if not feeds -%}
        {{ tideline._derivation_error(model_name, 'source', 'tideline.own_documents()', "at least one transform over ref() or source(): the derivation's own documents start from the documents of its sources") }}
    {%- endif -%}
    {%- set agreed = tideline._transforms_agree(model_name, transforms, registers) -%}
    {#- compaction: every compact_every runs a run also rewrites the live rows and registers into a
        new generation, so what a run scans stays proportional to the live keys -#}
    {%- set compact_every = tideline.compact_every_setting(model_name, tideline._derivation_error) -%}
    {%- set own_delays = transforms | selectattr('own') | map(attribute='delay') | list -%}
    {%- set on_definition_change = tideline.on_definition_change_setting('derivation', model_name) -%}
    {#- folded one document after another: where an update reads the register, or a reduction
        deep-merges values of equal keys (reduction_key.sql) -#}
    {%- set merging = {'registers': transforms | selectattr('reading') | list | length > 0, 'reduce': false} -%}
    {%- for r in registers if tideline._merges_equal_keys(r) -%}{%- do merging.update({'registers': true}) -%}{%- endfor -%}
    {%- for spec in reductions.values() if tideline._merges_equal_keys(spec) -%}{%- do merging.update({'reduce': true}) -%}{%- endfor -%}
    {%- set settings = {'name': model_name, 'on_definition_change': on_definition_change,
                'on_bad_rows': tideline.on_bad_rows_setting('derivation', model_name), 'unique_key': unique_key, 'derived': derived, 'compact_every': compact_every,
                'reductions': reductions, 'registers': registers, 'transforms': transforms, 'feeds': feeds,
                'max_passes': tideline._max_passes_setting(model_name, transforms),
                'own_delay': own_delays | max if own_delays else 0,
                'sequential': merging.registers, 'sequential_reduce': merging.reduce,
                'key_types': agreed.key_types if registers else [], 'order_type': agreed.order_type or 'string',
                'late_row_lookback': tideline.late_row_lookback_setting(model_name, tideline._derivation_error)} -%}
    {%- set register_keys = [] -%}
    {%- for t in settings.key_types -%}{%- do register_keys.append('_tl_key_{}'.format(loop.index)) -%}{%- endfor -%}
    {%- do settings.update({'definition': tideline.derivation_definition(settings), 'register_keys': register_keys}) -%}
    {{- return(settings) -}}
{% endmacro %}

{#- unique_key: a column of derived_columns, or a list of them (lower case). -#}
{% macro _derived_unique_key(model_name, derived) %}
    {%- set unique_key = config.get('unique_key') -%}
    {%- set unique_key = [unique_key] if unique_key is string else unique_key -%}
    {%- set derived_names = derived | map('first') | list -%}
    {%- if not unique_key or unique_key is not iterable or unique_key is mapping -%}
        {{ tideline._derivation_error(model_name, 'unique_key', unique_key, "a column of derived_columns, or a list of them") }}
    {%- endif -%}
    {%- for k in unique_key if (k | lower) not in derived_names -%}
        {{ tideline._derivation_error(model_name, 'unique_key', unique_key, "columns of derived_columns ({})".format(derived_names | join(', '))) }}
    {%- endfor -%}
    {{- return(unique_key | map('lower') | list) -}}
{% endmacro %}

{#- The derived table's reductions ({column: spec}): none means the newest published row
    replaces the stored one. -#}
{% macro _derived_reductions(model_name, derived, unique_key, columns) %}
    {%- set reduce = config.get('reduce') or {} -%}
    {%- if reduce is not mapping -%}
        {{ tideline._derivation_error(model_name, 'reduce', reduce, "a mapping of derived column to strategy, e.g. {'balance': 'sum'}") }}
    {%- endif -%}
    {%- set reductions = {} -%}
    {%- for name, strategy in reduce.items() -%}
        {%- if (name | lower) not in (derived | map('first') | list) or (name | lower) in unique_key -%}
            {{ tideline._derivation_error(model_name, 'reduce', name, "a column of derived_columns that is not part of unique_key") }}
        {%- endif -%}
        {#- tideline's {reduce, fields}, or Flow's annotation {strategy} (with fields for a merge) -#}
        {%- set flow = strategy is mapping and 'strategy' in strategy -%}
        {%- if strategy is mapping and not flow -%}
            {%- do tideline.refuse_unknown_keys(tideline._derivation_error, model_name, 'reduce.{}'.format(name), strategy, ['reduce', 'fields']) -%}
        {%- endif -%}
        {%- set annotation = {} -%}
        {%- for key, value in (strategy.items() if flow else []) if key != 'fields' -%}{%- do annotation.update({key: value}) -%}{%- endfor -%}
        {%- set s = {'reduce': annotation, 'fields': strategy.get('fields')} if flow else strategy if strategy is mapping else {'reduce': strategy} -%}
        {%- do reductions.update({name | lower: tideline._reduction(model_name, 'reduce.{}'.format(name), s.get('reduce'), columns[name], s.get('fields'))}) -%}
    {%- endfor -%}
    {{- return(reductions) -}}
{% endmacro %}

{#- The registers: [{name, strategy, type, fields, initial (SQL), initial_value}], from config
    registers: name -> {type, initial, reduce (default last_write_wins)}. -#}
{% macro _registers_setting(model_name) %}
    {%- set given_registers = config.get('registers') or {} -%}
    {%- if given_registers is not mapping -%}
        {{ tideline._derivation_error(model_name, 'registers', given_registers, "a mapping of register name to {type, initial, reduce}") }}
    {%- endif -%}
    {%- set registers = [] -%}
    {%- for name, r in given_registers.items() -%}
        {%- set setting = 'registers.{}'.format(name) -%}
        {%- if not modules.re.match('^[A-Za-z_][A-Za-z0-9_]*$', name) -%}
            {{ tideline._derivation_error(model_name, 'registers', name, "register names of letters, digits and underscores") }}
        {%- endif -%}
        {%- if r is not mapping or r.get('type') is not string or r.get('type') | trim == '' -%}
            {{ tideline._derivation_error(model_name, setting, r, "{type: <Spark type>, initial: <value>, reduce: <strategy>}: a type is required") }}
        {%- endif -%}
        {%- do tideline.refuse_unknown_keys(tideline._derivation_error, model_name, setting, r, ['type', 'initial', 'reduce', 'fields']) -%}
        {%- if not tideline.is_spark_type(r.type) -%}
            {{ tideline._derivation_error(model_name, '{}.type'.format(setting), r.type, tideline.spark_type_accepted(r.type)) }}
        {%- endif -%}
        {%- if 'initial' not in r -%}
            {{ tideline._derivation_error(model_name, setting, r, "an initial value (initial: ..., null allowed), the value of a register never updated") }}
        {%- endif -%}
        {%- set spec = tideline._reduction(model_name, setting, r.get('reduce', 'last_write_wins'), r.type, r.get('fields')) -%}
        {%- do spec.update({'name': name | lower, 'initial': tideline._literal(r.initial, r.type), 'initial_value': r.initial}) -%}
        {%- do registers.append(spec) -%}
    {%- endfor -%}
    {{- return(registers) -}}
{% endmacro %}

{#- Derivations: the refusal of a bad setting, a read delay, a source's column types, and a
    config value (a register's initial value) as a SQL literal of its type. -#}

{% macro _derivation_error(model_name, setting, value, accepted, transform_name=none) %}
    {{ exceptions.raise_compiler_error("tideline: derivation {}{}: {} = {} is invalid; accepted: {}".format(
        model_name, ", transform {}".format(transform_name) if transform_name else "", setting, tideline.shown(value), accepted)) }}
{% endmacro %}

{#- A read delay in seconds, from '30s', '10m', '2h' or '1d'. -#}
{% macro _delay_seconds(model_name, transform_name, value) %}
    {%- set seconds = tideline.duration_seconds(value) -%}
    {%- if seconds is none -%}
        {{ tideline._derivation_error(model_name, 'read_delay', value, "a whole number and a unit, s, m, h or d (30s, 10m, 2h, 1d)", transform_name) }}
    {%- endif -%}
    {{- return(seconds) -}}
{% endmacro %}

{#- The column types of a relation ({name: type}), from dbt's relation cache when it has them. -#}
{% macro _column_types(relation) %}
    {%- set types = {} -%}
    {%- for c in adapter.get_columns_in_relation(relation) -%}
        {%- do types.update({c.name | lower: tideline.type_name(c.data_type)}) -%}
    {%- endfor -%}
    {{- return(types) -}}
{% endmacro %}

{#- A SQL literal of a config value (a register's initial value) of a type. -#}
{% macro _literal(value, type) %}
    {%- set t = tideline.type_name(type) -%}
    {%- if value is none -%}{{ return('cast(null as {})'.format(t)) }}{%- endif -%}
    {%- if value is mapping -%}
        {%- set parts = [] -%}
        {%- for f in tideline._struct_fields(t) or [] -%}
            {%- do parts.append("'{}', {}".format(f[0], tideline._literal(value.get(f[0]), f[1]))) -%}
        {%- endfor -%}
        {{- return('named_struct({})'.format(parts | join(', '))) -}}
    {%- endif -%}
    {%- if value is string -%}{{ return('cast({} as {})'.format(tideline.literal(value), t)) }}{%- endif -%}
    {%- if value is boolean -%}{{ return('cast({} as {})'.format('true' if value else 'false', t)) }}{%- endif -%}
    {%- if value is iterable -%}
        {%- set element = t[6:-1] if t.startswith('array<') else 'string' -%}
        {%- set items = [] -%}
        {%- for v in value -%}{%- do items.append(tideline._literal(v, element)) -%}{%- endfor -%}
        {{- return('cast(array({}) as {})'.format(items | join(', '), t)) -}}
    {%- endif -%}
    {{- return('cast({} as {})'.format(value, t)) -}}
{% endmacro %}

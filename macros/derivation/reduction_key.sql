{#- Derivations: Flow's minimize and maximize by a key (`reduce: {strategy: maximize, key:
    [/amount]}`): a struct value is compared by some of its fields, and the least (minimize) or
    greatest (maximize) one is kept whole. Where the key fields of two values are equal, Flow
    deep-merges them; here the values are then compared whole, field by field in the type's
    order (so the result never depends on the order the values came in, and a run over many
    commits equals one per commit). Nulls compare lowest, as Spark orders them. -#}

{#- The key of a minimize or maximize: a field or JSON pointer ('/amount', '/a/b'), or a list of
    them, each naming a field of the struct type `type` (nested through struct fields); as
    [field path, ...] ('a.b'). -#}
{% macro _reduction_key(model_name, setting, key, strategy, type) %}
    {%- if strategy not in ['min', 'max'] -%}
        {{ tideline._derivation_error(model_name, setting, key, "no key: a key is for minimize and maximize (min, max) only") }}
    {%- endif -%}
    {%- if tideline._struct_fields(type) is none -%}
        {{ tideline._derivation_error(model_name, setting, key, "no key for a value of type {}: a key names fields of a struct value (struct<...>) to compare it by".format(type)) }}
    {%- endif -%}
    {%- set pointers = [key] if key is string else key -%}
    {%- if pointers is mapping or pointers is not iterable or not pointers or pointers | reject('string') | list -%}
        {{ tideline._derivation_error(model_name, setting, key, "a field of the value or a JSON pointer to one ('/amount'), or a non-empty list of them") }}
    {%- endif -%}
    {%- set paths = [] -%}
    {%- for pointer in pointers -%}
        {%- set parts = pointer.strip('/').split('/') -%}
        {%- set state = {'type': type} -%}
        {%- for part in parts -%}
            {%- set fields = tideline._struct_fields(state.type) -%}
            {%- set types = dict(fields or []) -%}
            {%- if (part | lower) not in types -%}
                {{ tideline._derivation_error(model_name, setting, pointer, "fields of the struct value ({}), as names or JSON pointers ('/field/subfield')".format(type)) }}
            {%- endif -%}
            {%- do state.update({'type': tideline.type_name(types[part | lower])}) -%}
        {%- endfor -%}
        {%- do paths.append(parts | map('lower') | join('.')) -%}
    {%- endfor -%}
    {{- return(paths) -}}
{% endmacro %}

{#- A value `x` as minimize and maximize by a key compare it: {k: its key fields, d: itself}, or
    null for a null value (which min, max, least and greatest skip). -#}
{% macro _keyed_value(x, key) %}
    {%- set fields = [] -%}
    {%- for path in key -%}{%- do fields.append("'k{}', ({}).{}".format(loop.index, x, path)) -%}{%- endfor -%}
    {%- set keyed -%}
        case when ({{ x }}) is null then null else named_struct('k', named_struct({{ fields | join(', ') }}), 'd', {{ x }}) end
    {%- endset -%}
    {{- return(keyed) -}}
{% endmacro %}

{#- Derivations: Flow's minimize and maximize by a key (`reduce: {strategy: maximize, key:
    [/amount]}`): a struct value is compared by some of its fields, and the least (minimize) or
    greatest (maximize) one is kept whole. Where the keys of the value kept and a new value are
    equal, the two are deep-merged as Flow does: each field folded by its own reduction (the
    spec's `fields`, last_write_wins unless given), the new value after the kept one. That
    depends on the order the values came in, so such a reduction is folded one value after
    another (step_arithmetic.sql), never by window functions. Nulls compare lowest, as Spark
    orders them; two null key fields are equal. -#}

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

{#- Whether values of equal keys are deep-merged anywhere in a reduction (a minimize or maximize
    by a key, or a merge with one among its fields): such a reduction is folded one value after
    another. -#}
{% macro _merges_equal_keys(spec) %}
    {%- if spec.get('key') -%}{{ return(true) }}{%- endif -%}
    {%- for f in spec.fields or [] if tideline._merges_equal_keys(f[1]) -%}{{ return(true) }}{%- endfor -%}
    {{- return(false) -}}
{% endmacro %}

{#- Whether the key fields of two values `a` and `b` (SQL) are equal, nulls equal to nulls. -#}
{% macro _equal_keys(a, b, key) %}
    {%- set sql -%}
        {% for path in key %}({{ a }}).{{ path }} <=> ({{ b }}).{{ path }}{{ ' and ' if not loop.last }}{% endfor %}
    {%- endset -%}
    {{- return(sql) -}}
{% endmacro %}

{#- Derivations: a reduction as SQL, folded over a key's documents and as a reader sees it. -#}

{#- The value after folding `update` (a column, null where a document does not update it)
    into `stored` (the value before this run's documents, null for never written) over the
    window `w` (a key's documents in order, up to the current one). Each reduction strategy is
    its own macro, looked up by name: `fold_<strategy>` through adapter.dispatch (sum, min, max:
    fold_arithmetic.sql; last_write_wins, first_write_wins: fold_writes.sql; append, set, merge:
    fold_collections.sql), so a project can override one. -#}
{% macro _fold(spec, stored, update, initial, w, what) %}
    {%- set strategies = {
        'sum': adapter.dispatch('fold_sum', 'tideline'),
        'min': adapter.dispatch('fold_min', 'tideline'),
        'max': adapter.dispatch('fold_max', 'tideline'),
        'last_write_wins': adapter.dispatch('fold_last_write_wins', 'tideline'),
        'first_write_wins': adapter.dispatch('fold_first_write_wins', 'tideline'),
        'append': adapter.dispatch('fold_append', 'tideline'),
        'set': adapter.dispatch('fold_set', 'tideline'),
        'merge': adapter.dispatch('fold_merge', 'tideline')} -%}
    {{- return(strategies[spec.strategy](spec, stored, update, initial, w, what)) -}}
{% endmacro %}

{#- What a reader of a register sees: a last/first_write_wins value never written is its
    initial value (the others fold the initial value in). -#}
{% macro _exposed(spec, raw, initial) %}
    {%- if spec.strategy == 'merge' -%}
        {%- set parts = [] -%}
        {%- for f in spec.fields -%}
            {%- set field_initial = tideline._literal(spec.initial_value.get(f[0]) if spec.initial_value is mapping else none, f[1].type) -%}
            {%- do parts.append("'{}', {}".format(f[0], tideline._exposed(f[1], '({}).{}'.format(raw, f[0]), field_initial))) -%}
        {%- endfor -%}
        {{- return('named_struct({})'.format(parts | join(', '))) -}}
    {%- endif -%}
    {{- return('coalesce({}, {})'.format(raw, initial)) -}}
{% endmacro %}

{#- The type a sum of values of type t is computed in before its cast back to t (so an overflow
    is found, not wrapped): decimal(38,0) for integers, decimal(38,s) for decimal(p,s), else double. -#}
{% macro _sum_type(t) %}
    {%- set digits = modules.re.findall('\d+', t) -%}
    {{- return('decimal(38,0)' if t in ['tinyint', 'smallint', 'int', 'bigint']
        else ('decimal(38,{})'.format(digits[1] if digits | length > 1 else '0') if t.startswith('decimal') else 'double')) -}}
{% endmacro %}

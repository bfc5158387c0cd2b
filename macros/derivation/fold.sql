{#- Derivations: a reduction as SQL, folded over a key's documents and as a reader sees it. -#}

{#- The value after folding `update` (a column, null where a document does not update it)
    into `stored` (the value before this run's documents, null for never written) over the
    window `w` (a key's documents in order, up to the current one). -#}
{% macro _fold(spec, stored, update, initial, w, what) %}
    {%- set s = spec.strategy -%}
    {%- set t = spec.type -%}
    {%- if s == 'sum' -%}
        {%- set digits = modules.re.findall('\d+', t) -%}
        {%- set wide = 'decimal(38,0)' if t in ['tinyint', 'smallint', 'int', 'bigint']
            else ('decimal(38,{})'.format(digits[1] if digits | length > 1 else '0') if t.startswith('decimal') else 'double') -%}
        {%- set total -%}
            case when coalesce({{ stored }}, {{ initial }}) is null and sum(cast({{ update }} as {{ wide }})) over {{ w }} is null then null
                else cast(coalesce({{ stored }}, {{ initial }}, 0) as {{ wide }}) + coalesce(sum(cast({{ update }} as {{ wide }})) over {{ w }}, 0) end
        {%- endset -%}
        {{- return(tideline.checked_cast(total, t, 'tideline: {}: the sum overflows {}: '.format(what, t))) -}}
    {%- elif s in ['min', 'max'] -%}
        {%- set folded -%}
            {{ 'least' if s == 'min' else 'greatest' }}(coalesce({{ stored }}, {{ initial }}), {{ s }}({{ update }}) over {{ w }})
        {%- endset -%}
    {%- elif s == 'last_write_wins' -%}
        {%- set folded -%}coalesce(last({{ update }}, true) over {{ w }}, {{ stored }}){%- endset -%}
    {%- elif s == 'first_write_wins' -%}
        {%- set folded -%}coalesce({{ stored }}, first({{ update }}, true) over {{ w }}){%- endset -%}
    {%- elif s in ['append', 'set'] -%}
        {#- never written, no initial value and no update yet: still null (it reads as its initial value) -#}
        {%- set folded -%}
            {{ 'array_distinct(' if s == 'set' }}case when coalesce({{ stored }}, {{ initial }}) is null and count({{ update }}) over {{ w }} = 0 then null
                else concat(coalesce({{ stored }}, {{ initial }}, cast(array() as {{ t }})), flatten(collect_list({{ update }}) over {{ w }})) end{{ ')' if s == 'set' }}
        {%- endset -%}
    {%- else -%}
        {#- merge: a fold per field of the struct -#}
        {%- set parts = [] -%}
        {%- for f in spec.fields -%}
            {%- set field_initial = tideline._literal((spec.initial_value or {}).get(f[0]) if spec.initial_value is mapping else none, f[1].type) -%}
            {%- set field = tideline._fold(f[1], '({}).{}'.format(stored, f[0]), '({}).{}'.format(update, f[0]), field_initial, w, '{}.{}'.format(what, f[0])) -%}
            {%- do parts.append("'{}', {}".format(f[0], field)) -%}
        {%- endfor -%}
        {%- set folded -%}named_struct({{ parts | join(', ') }}){%- endset -%}
    {%- endif -%}
    {{- return(folded) -}}
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

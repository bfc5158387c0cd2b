{#- Mutability, append_only: the rule of a run, as pure macros (no query, no setting read), so
    that the fast tier can check it against its reference over many random histories
    (python_tests/test_rule_append_only.py). append_window.sql reads what they need;
    append_only.sql runs them. -#}

{#- Whether a run must look up the newest stored values (newest_along_values) rather than take
    them from the properties: settle asks for more than they keep (settle was raised, or few
    values are stored yet), or they come from a table written before tideline kept `along_type`,
    whose newest values were sorted as text ('9' after '10'). -#}
{% macro append_needs_lookup(settings, props, prime) %}
    {%- if prime or props.get('along_max') is none or settings.settle == 0 -%}{{ return(false) }}{%- endif -%}
    {%- set kept = fromjson(props.get('along_recent') or '[]') -%}
    {{- return(kept | length < settings.settle or props.get('along_type') is none) -}}
{% endmacro %}

{#- The bounds of `along` a run reads: {prime, low, high, op, props}. A prime (no version
    table yet, --full-refresh, or a table without tideline's properties) reads [min, max];
    before anything was stored, [min, max] too; then, with settle 0, values above the largest
    stored (`along_max`), and with settle N, values from the N-th newest stored value on
    (`recent`: the newest stored values, newest first) up to max. -#}
{% macro append_bounds(settings, props, prime, recent) %}
    {%- if prime -%}
        {{ return({'prime': true, 'low': settings.min, 'high': settings.max, 'op': '>=', 'props': props}) }}
    {%- endif -%}
    {%- if props.get('along_max') is none -%}
        {{ return({'prime': false, 'low': settings.min, 'high': settings.max, 'op': '>=', 'props': props}) }}
    {%- endif -%}
    {%- set low = props.along_max -%}
    {%- if settings.settle > 0 and recent -%}
        {%- set low = recent[:settings.settle] | last -%}
    {%- endif -%}
    {{- return({'prime': false, 'low': low, 'high': settings.max, 'op': '>=' if settings.settle > 0 else '>', 'props': props}) -}}
{% endmacro %}

{#- The properties the version table keeps after a run at `now` that staged rows with the facts
    `seen` ({along_max, along_type}: the largest staged value and the column's SQL type) and
    whose newest staged values are `fresh` (newest first, as text): the largest value stored,
    the column's type, and the newest max(settle, 1) values stored, newest first (the staged
    ones merged with those stored before, unless the run primed a new table). -#}
{% macro append_properties(settings, window, seen, fresh, now) %}
    {%- set keep = [settings.settle, 1] | max -%}
    {%- set stored = fromjson(window.props.get('along_recent') or '[]') if not window.prime else [] -%}
    {%- set recent = tideline.newest_first(fresh + stored, seen.along_type) -%}
    {%- set props = {'mutability': settings.type, 'update_cron': settings.update_cron, 'along': settings.along, 'refreshed_at': now,
                     'along_max': seen.along_max if seen.along_max is not none else window.props.get('along_max'),
                     'along_type': seen.along_type if seen.along_max is not none else window.props.get('along_type'),
                     'along_recent': (recent[:keep] | tojson)} -%}
    {%- for name in ['along_max', 'along_type'] if props[name] is none -%}{%- do props.pop(name) -%}{%- endfor -%}
    {{- return(props) -}}
{% endmacro %}

{#- Distinct values of `along` given as text, newest first, in the order of the column's SQL
    type `along_type` (Spark's typeof): whole numbers by value ('10' before '9'), other numbers
    by their float value, any other type by its text (dates and times written ISO-style sort
    as text does). -#}
{% macro newest_first(values, along_type) %}
    {%- set whole = modules.re.match('^(tinyint|smallint|int|bigint)$', along_type or '') is not none -%}
    {%- set fractional = modules.re.match('^(float|double|decimal)', along_type or '') is not none -%}
    {%- set keyed = [] -%}
    {%- for value in values | unique -%}
        {%- do keyed.append({'text': value, 'key': value | int if whole else value | float if fractional else value}) -%}
    {%- endfor -%}
    {{- return(keyed | sort(attribute='key', reverse=true) | map(attribute='text') | list) -}}
{% endmacro %}

{#- Derivations: the derived table's reductions (config reduce): the CTEs `reduced` and
    `derived_rows` (each published key's row after this run's rows, from its stored row), over
    `published` and `stored_rows` (select_row_ctes.sql). -#}

{#- Folded by window functions, or one published row after another where a reduction deep-merges
    values of equal keys (settings.sequential_reduce: reduction_key.sql). -#}
{% macro _derivation_reduced_ctes(settings) %}
    {%- set fold = tideline._derivation_sequenced_rows_ctes if settings.sequential_reduce else tideline._derivation_windowed_rows_ctes -%}
    {{- return(fold(settings)) -}}
{% endmacro %}

{#- Each column folded over the key's published rows in order with window functions (fold.sql);
    a column without a reduction keeps its newest value. -#}
{% macro _derivation_windowed_rows_ctes(settings) %}
    {%- set ukeys = settings.unique_key -%}
    {%- set derived = settings.derived %}
    reduced as (
        select
            {%- for c in derived %}
            {%- if c[0] in ukeys %}
            p.{{ c[0] }},
            {%- elif c[0] in settings.reductions %}
            {{ tideline._fold(settings.reductions[c[0]], 'sr.{}'.format(c[0]), 'p.{}'.format(c[0]), 'null', 'w', 'derivation {}, column {}'.format(settings.name, c[0])) }} as {{ c[0] }},
            {%- else %}
            coalesce(last(p.{{ c[0] }}, true) over w, sr.{{ c[0] }}) as {{ c[0] }},
            {%- endif %}
            {%- endfor %}
            row_number() over w_order as _tl_n,
            count(*) over w_key as _tl_count
        from published as p
        left join stored_rows as sr on {% for k in ukeys %}p.{{ k }} <=> sr.{{ k }}{{ ' and ' if not loop.last }}{% endfor %}
        {{ tideline._key_windows('p', ukeys, 'p._tl_pos, p._tl_prow') }}
    ),

    derived_rows as (
        select {{ derived | map('first') | join(', ') }} from reduced where _tl_n = _tl_count
    )
{%- endmacro %}

{#- Each key's published rows in order as one array, folded with Spark's aggregate from the
    stored row, one row at a time (step_writes.sql, _step); a column without a reduction keeps its
    newest value. The cost stays with the run's rows: one sorted array per published key. -#}
{% macro _derivation_sequenced_rows_ctes(settings) %}
    {%- set ukeys = settings.unique_key -%}
    {%- set values = settings.derived | rejectattr('0', 'in', ukeys) | list -%}
    {%- set row_type -%}
        struct<{% for c in values %}{{ c[0] }}:{{ c[1] }}{{ ',' if not loop.last }}{% endfor %}>
    {%- endset %}
    reduced as (
        select
            {%- for k in ukeys %}
            p.{{ k }},
            {%- endfor %}
            aggregate(
                array_sort(
                    collect_list(named_struct(
                        'o', named_struct('pos', p._tl_pos, 'prow', p._tl_prow),
                        'v', named_struct({% for c in values %}'{{ c[0] }}', p.{{ c[0] }}{{ ', ' if not loop.last }}{% endfor %}))),
                    (_tl_a, _tl_b) -> case when _tl_a.o < _tl_b.o then -1 when _tl_a.o > _tl_b.o then 1 else 0 end),
                cast(first(named_struct({% for c in values %}'{{ c[0] }}', sr.{{ c[0] }}{{ ', ' if not loop.last }}{% endfor %})) as {{ row_type }}),
                (_tl_row, _tl_p) -> cast(named_struct(
                    {%- for c in values %}
                    '{{ c[0] }}',
                    {%- if c[0] in settings.reductions %}
                    {{ tideline._step(settings.reductions[c[0]], '_tl_row.{}'.format(c[0]), '_tl_p.v.{}'.format(c[0]), 'null', 'derivation {}, column {}'.format(settings.name, c[0])) }}
                    {%- else %}
                    coalesce(_tl_p.v.{{ c[0] }}, _tl_row.{{ c[0] }})
                    {%- endif %}{{ ',' if not loop.last }}
                    {%- endfor %}
                ) as {{ row_type }})
            ) as _tl_row
        from published as p
        left join stored_rows as sr on {% for k in ukeys %}p.{{ k }} <=> sr.{{ k }}{{ ' and ' if not loop.last }}{% endfor %}
        group by {% for k in ukeys %}p.{{ k }}{{ ', ' if not loop.last }}{% endfor %}
    ),

    derived_rows as (
        select
            {%- for c in settings.derived %}
            {{ c[0] if c[0] in ukeys else '_tl_row.{}'.format(c[0]) }} as {{ c[0] }}{{ ',' if not loop.last }}
            {%- endfor %}
        from reduced
    )
{%- endmacro %}

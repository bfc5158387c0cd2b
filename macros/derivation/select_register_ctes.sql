{#- Derivations: the run's select, one CTE group per helper (derivation_select_sql). -#}

{#- Each transform's new source rows (src_<i>), each with its position in the run's order
    (derivation.sql, THE ORDER; rows committed together by their values: document_order.sql);
    a transform over the derivation's own documents reads `own`, a pass's table, and the documents
    held for this run (own_documents.sql). -#}
{% macro _derivation_sources_ctes(settings, state, frontier, own=none, plan={}, data=none) %}
    {%- for t in settings.transforms %}
    {%- if t.own %}
    {{ tideline._own_documents_cte(settings, t, loop.index0, own, frontier, tideline.held_documents_read_sql(settings, t, state, frontier, plan, data)) }}
    {%- else %}
    {%- set watermark = state.watermarks.get(t.name) %}
    {%- set at = 's.{} + interval {} seconds'.format(t.commit_column, t.delay) %}
    src_{{ loop.index0 }} as (
        select
            s.*,
            named_struct(
                'time', {% if state.frontier %}greatest({{ at }}, {{ tideline.ts(state.frontier) }}){% else %}{{ at }}{% endif %},
                'depth', 0,
                'at', {{ at }},
                'ord', cast({% if t.order_by %}s.{{ t.order_by }}{% else %}null{% endif %} as {{ settings.order_type }}),
                'priority', {{ -(t.priority | int) }},
                'transform', '{{ t.name }}',
                'row', dense_rank() over (partition by s.{{ t.commit_column }} order by {{ tideline._document_value_order(t, 's') | join(', ') }}),
                'dup', row_number() over (partition by s._tl_row order by s._tl_row)
            ) as _tl_pos
        from (
            select *, to_json(struct(*)) as _tl_row
            from {{ t.source.rendered }}
            where {{ t.commit_column }} <= {{ tideline.ts(tideline.shift_time(frontier.frontier, -t.delay)) }}
                {%- if watermark %} and {{ t.commit_column }} > {{ tideline.ts(watermark) }}{% endif %}
        ) as s
    ),
    {%- endif %}
    {%- endfor %}
{%- endmacro %}

{#- The registers: each document's key and updates, the stored registers, the fold, what a
    publish lambda sees, and the registers the run writes. -#}
{% macro _derivation_register_ctes(settings, plan, data, keys, committed, publishers) %}
    {%- set registers = settings.registers %}
    {%- if registers %}

    {{ tideline._derivation_docs_cte(settings) }}

    -- the stored registers of the keys this run touches (newest committed version)
    stored as (
        {{ tideline._newest_stored(data, 'register', keys, 'docs', keys + ['_register as _tl_stored'], committed, plan.read_gen) }}
    ),

    {{ tideline._derivation_folded_ctes(settings, keys) }}

    {{ tideline._derivation_registered_cte(settings, keys) }}

    register_rows as (
        select
            {{ keys | join(', ') }},
            named_struct({% for r in registers %}'{{ r.name }}', _tl_after_{{ r.name }}{{ ', ' if not loop.last }}{% endfor %}) as _register
        from folded
        where _tl_n = _tl_count and _tl_updated
    ){{ ',' if publishers }}
    {%- endif %}
{%- endmacro %}

{#- docs: each document's register key and updates (null: no update of that register, or an
    update that reads the register, computed in the fold: register_folds.sql), and for each
    transform with such updates its row as a struct (_tl_d_<i>, null on other transforms' rows). -#}
{% macro _derivation_docs_cte(settings) %}
    {%- set registers = settings.registers %}
    -- each document's register key and updates (null: no update of that register)
    docs as (
        {%- for t in settings.transforms %}
        select
            {%- for c in t.shuffle %}
            cast({{ c }} as {{ settings.key_types[loop.index0] }}) as _tl_key_{{ loop.index }},
            {%- endfor %}
            {%- for r in registers %}
            {% if r.name in t.updates and r.name not in t.reading %}{{ tideline._update_value(settings, t, r) }}{% else %}cast(null as {{ r.type }}){% endif %} as _tl_u_{{ r.name }},
            {%- endfor %}
            {%- for reader in settings.transforms if reader.reading %}
            {{ tideline._document_struct(reader, 's' if reader is sameas t else none) }} as _tl_d_{{ settings.transforms.index(reader) }},
            {%- endfor %}
            _tl_pos
        from src_{{ loop.index0 }} as s
        {{- '\n        union all' if not loop.last }}
        {%- endfor %}
    ),
{%- endmacro %}

{#- registered: what a publish lambda sees, the registers after (_register) and before (_previous). -#}
{% macro _derivation_registered_cte(settings, keys) %}
    {%- set registers = settings.registers %}
    -- what a publish lambda sees: the registers after (_register) and before (_previous)
    registered as (
        select
            _tl_pos,
            named_struct(
                {%- for r in registers %}
                '{{ r.name }}', {{ tideline._exposed(r, '_tl_after_{}'.format(r.name), r.initial) }}{{ ',' if not loop.last }}
                {%- endfor %}
            ) as _register,
            named_struct(
                {%- for r in registers %}
                '{{ r.name }}', case when _tl_n = 1 then {{ tideline._exposed(r, '_tl_stored.{}'.format(r.name), r.initial) }}
                    else lag({{ tideline._exposed(r, '_tl_after_{}'.format(r.name), r.initial) }}) over w_order end{{ ',' if not loop.last }}
                {%- endfor %}
            ) as _previous
        from folded
        window w_order as (partition by {{ keys | join(', ') }} order by _tl_pos)
    ),
{%- endmacro %}

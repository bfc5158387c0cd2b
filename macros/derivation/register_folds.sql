{#- Derivations: the registers after each document (the CTE `folded`: per document its key,
    _tl_pos, _tl_stored, _tl_after_<register>, _tl_n, _tl_count and _tl_updated), computed one of
    two ways. Where no update reads the register, every strategy is an associative fold,
    computed set-wise with window functions (fold.sql); where one does (register_reads.sql),
    each key's documents are folded one after another (step_writes.sql, _step). -#}

{% macro _derivation_folded_ctes(settings, keys) %}
    {%- set fold = tideline._derivation_sequenced_ctes if settings.sequential else tideline._derivation_windowed_cte -%}
    {{- return(fold(settings, keys)) -}}
{% endmacro %}

{#- The window-function fold: each register after each document from the stored one. -#}
{% macro _derivation_windowed_cte(settings, keys) %}
    {%- set registers = settings.registers %}
    -- each register after each document: a fold over the key's documents in order
    folded as (
        select
            d.*,
            st._tl_stored,
            {%- for r in registers %}
            {{ tideline._fold(r, 'st._tl_stored.{}'.format(r.name), 'd._tl_u_{}'.format(r.name), r.initial, 'w', 'derivation {}, register {}'.format(settings.name, r.name)) }} as _tl_after_{{ r.name }},
            {%- endfor %}
            row_number() over w_order as _tl_n,
            count(*) over w_key as _tl_count,
            max({% for r in registers %}d._tl_u_{{ r.name }} is not null{{ ' or ' if not loop.last }}{% endfor %}) over w_key as _tl_updated
        from docs as d
        left join stored as st on {% for k in keys %}d.{{ k }} <=> st.{{ k }}{{ ' and ' if not loop.last }}{% endfor %}
        {{ tideline._key_windows('d', keys, 'd._tl_pos') }}
    ),
{%- endmacro %}

{#- The sequential fold: each key's new documents in the run's order as one array, folded with
    Spark's aggregate from the stored registers; the trail keeps the registers after every
    document (its first element: the stored ones), joined back to the documents by position.
    The cost stays with the run's documents: one array per touched key. -#}
{% macro _derivation_sequenced_ctes(settings, keys) %}
    {%- set registers = settings.registers %}
    {%- set trail_type = 'struct<r:{},u:boolean>'.format(tideline.register_struct_type(settings)) %}
    -- each touched key's documents, in the run's order, as one array
    doc_lists as (
        select
            {{ keys | join(', ') }},
            collect_list(named_struct(
                'pos', _tl_pos,
                'u', named_struct({% for r in registers %}'{{ r.name }}', _tl_u_{{ r.name }}{{ ', ' if not loop.last }}{% endfor %})
                {%- for t in settings.transforms if t.reading %},
                'd_{{ settings.transforms.index(t) }}', _tl_d_{{ settings.transforms.index(t) }}
                {%- endfor %}
            )) over (partition by {{ keys | join(', ') }} order by _tl_pos rows between unbounded preceding and unbounded following) as _tl_docs,
            row_number() over (partition by {{ keys | join(', ') }} order by _tl_pos) as _tl_first
        from docs
    ),

    -- the registers after each document: one step per document, from the stored registers
    trails as (
        select
            {%- for k in keys %}
            l.{{ k }},
            {%- endfor %}
            st._tl_stored,
            l._tl_docs,
            aggregate(
                l._tl_docs,
                cast(array(named_struct('r', st._tl_stored, 'u', false)) as array<{{ trail_type }}>),
                (_tl_trail, _tl_doc) -> concat(_tl_trail, array({{ tideline._derivation_step(settings, trail_type) }}))
            ) as _tl_trail
        from doc_lists as l
        left join stored as st on {% for k in keys %}l.{{ k }} <=> st.{{ k }}{{ ' and ' if not loop.last }}{% endfor %}
        where l._tl_first = 1
    ),

    folded as (
        select
            {{ keys | join(', ') }},
            _tl_stored,
            _tl_doc.pos as _tl_pos,
            {%- for r in registers %}
            element_at(_tl_trail, _tl_i + 2).r.{{ r.name }} as _tl_after_{{ r.name }},
            {%- endfor %}
            _tl_i + 1 as _tl_n,
            size(_tl_docs) as _tl_count,
            exists(_tl_trail, _tl_step -> _tl_step.u) as _tl_updated
        from trails
        lateral view posexplode(_tl_docs) documents as _tl_i, _tl_doc
    ),
{%- endmacro %}

{#- One step of the fold, inside aggregate's lambda (_tl_trail, _tl_doc): the registers after
    _tl_doc and whether it updated any. An update that reads the register sees `_register`, the
    registers before the document as a reader sees them, and `_doc`, its own transform's row. -#}
{% macro _derivation_step(settings, trail_type) %}
    {%- set registers = settings.registers -%}
    {%- set exposed = [] -%}
    {%- set updates = [] -%}
    {%- set after = [] -%}
    {%- for r in registers -%}
        {%- do exposed.append("'{}', {}".format(r.name, tideline._exposed(r, '_tl_before.{}'.format(r.name), r.initial))) -%}
        {%- set update -%}
            {%- set readers = [] -%}
            {%- for t in settings.transforms if r.name in t.reading -%}{%- do readers.append(t) -%}{%- endfor -%}
            {%- if readers -%}
                case _tl_doc.pos.transform
                {%- for t in readers %}
                    when '{{ t.name }}' then {{ tideline._reading_update(settings, t, r, '_tl_doc.d_{}'.format(settings.transforms.index(t))) }}
                {%- endfor %}
                    else _tl_doc.u.{{ r.name }} end
            {%- else -%}
                _tl_doc.u.{{ r.name }}
            {%- endif -%}
        {%- endset -%}
        {%- do updates.append("'{}', {}".format(r.name, update)) -%}
        {%- do after.append("'{}', {}".format(r.name, tideline._step(r, '_tl_before.{}'.format(r.name), '_tl_update.{}'.format(r.name), r.initial,
            'derivation {}, register {}'.format(settings.name, r.name)))) -%}
    {%- endfor -%}
    {%- set step -%}
        cast(named_struct(
            'r', named_struct({{ after | join(', ') }}),
            'u', {% for r in registers %}_tl_update.{{ r.name }} is not null{{ ' or ' if not loop.last }}{% endfor %}
        ) as {{ trail_type }})
    {%- endset -%}
    {%- set with_update = tideline._let('named_struct({})'.format(updates | join(', ')), '_tl_update', step) -%}
    {%- set with_register = tideline._let('named_struct({})'.format(exposed | join(', ')), '_register', with_update) -%}
    {{- return(tideline._let('element_at(_tl_trail, -1).r', '_tl_before', with_register)) -}}
{% endmacro %}

{#- Derivations: the published rows of a run's select (derivation_select_sql). -#}

{#- Each publish lambda over its documents (_tl_document_<i>, published_<i>). -#}
{% macro _derivation_publish_ctes(settings, publishers) %}
    {%- set registers = settings.registers %}
    {%- for t in publishers %}
    {%- set i = settings.transforms.index(t) %}

    _tl_document_{{ i }} as (
        {%- if registers %}
        select s.*, r._register, r._previous
        from src_{{ i }} as s
        inner join registered as r on s._tl_pos = r._tl_pos
        {%- else %}
        select * from src_{{ i }}
        {%- endif %}
    ),

    published_{{ i }} as (
        {{ tideline._with_position(t.publish, '_tl_document_{}'.format(i)) }}
    ),
    {%- endfor %}
{%- endmacro %}

{#- The published rows, cast to the derived columns, then reduced (config reduce) or the newest
    per key (derived_rows). -#}
{% macro _derivation_rows_ctes(settings, plan, data, committed, publishers, publish_columns) %}
    {%- set ukeys = settings.unique_key -%}
    {%- set derived = settings.derived -%}
    {%- if publishers %}

    {{ tideline._derivation_published_cte(settings, publishers, publish_columns) }}
    {%- if settings.reductions %}

    -- accumulate in the table: the stored rows of the keys published to, and a fold per column
    stored_rows as (
        {{ tideline._newest_stored(data, 'row', ukeys, 'published', derived | map('first') | list, committed, plan.read_gen) }}
    ),

    {{ tideline._derivation_reduced_ctes(settings) }}
    {%- else %}

    -- the newest published row of each key replaces the stored one
    derived_rows as (
        select {{ derived | map('first') | join(', ') }}
        from (
            select
                *,
                row_number() over (partition by {{ ukeys | join(', ') }} order by _tl_pos desc, _tl_prow desc) as _tl_last
            from published
        ) as last_published
        where _tl_last = 1
    )
    {%- endif %}
    {%- endif %}
{%- endmacro %}

{#- What the run writes: the derived rows, the registers, the documents held for a later run
    (held_documents.sql), and a compacting run's copies. -#}
{% macro _derivation_output_sql(settings, plan, data, keys, committed, publishers, frontier, own) %}
    {%- set derived = settings.derived -%}
    {%- set registers = settings.registers -%}
    {%- set held = tideline.held_document_columns(settings) -%}
    {%- if publishers %}
    select
        {{ derived | map('first') | join(', ') }},
        {%- for c in tideline.null_columns(tideline.register_columns(settings) + held) %}
        {{ c }},
        {%- endfor %}
        {{ tideline.ts(plan.batch) }} as _tl_batch,
        '{{ tideline.run_id() }}' as _tl_run,
        {{ tideline._derived_row_part(settings) }} as tl_part,
        '{{ plan.write_gen }}' as tl_gen
    from derived_rows
    {%- endif %}
    {%- if registers %}
    {{ 'union all' if publishers }}
    select
        {%- for c in derived %}
        cast(null as {{ c[1] }}) as {{ c[0] }},
        {%- endfor %}
        {{ keys | join(', ') }},
        _register,
        {%- for c in tideline.null_columns(held) %}
        {{ c }},
        {%- endfor %}
        {{ tideline.ts(plan.batch) }},
        '{{ tideline.run_id() }}',
        'register',
        '{{ plan.write_gen }}'
    from register_rows
    {%- endif %}
    {%- if held and own %}
    union all
    {{ tideline.held_documents_written_sql(settings, plan, frontier, own) }}
    {%- endif %}
    {%- if plan.compact %}
    union all
    {{ tideline._compaction_copies(settings, data, plan, committed) }}
    {%- if held %}
    union all
    {{ tideline.held_documents_copied_sql(settings, data, plan, frontier, committed) }}
    {%- endif %}
    {%- endif %}
{%- endmacro %}

{#- published: every publish lambda's rows, cast to the derived columns (a column a lambda does
    not return is null), each with its position and the row as JSON (the tie-break). -#}
{% macro _derivation_published_cte(settings, publishers, publish_columns) %}
    {%- set derived = settings.derived -%}
    published as (
        {%- for t in publishers %}
        {%- set i = settings.transforms.index(t) %}
        {%- set returned = publish_columns[t.name] | map('first') | list %}
        select
            {%- for c in derived %}
            {%- set message = 'tideline: derivation {}, transform {}: published column {} is not a {}: '.format(settings.name, t.name, c[0], c[1]) %}
            {% if c[0] in returned %}{{ tideline.checked_cast(c[0], c[1], message) }}{% else %}cast(null as {{ c[1] }}){% endif %} as {{ c[0] }},
            {%- endfor %}
            _tl_pos,
            to_json(named_struct({% for c in derived if c[0] in returned %}'{{ c[0] }}', {{ c[0] }}{{ ', ' if not loop.last }}{% endfor %})) as _tl_prow
        from published_{{ i }}
        {{- '\n        union all' if not loop.last }}
        {%- endfor %}
    ),
{%- endmacro %}

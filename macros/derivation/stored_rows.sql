{#- Derivations: the stored rows and registers a run reads, and a compacting run's copies. -#}

{#- The newest committed version, in the data table's part `part` ('row' or 'register') and
    generation `generation`, of each key (`keys`) that `touched` (a CTE of the run's select)
    holds, or of every key (touched none: a compaction's copy): what a run reads of the stored
    state, only for the keys it touches. `generation_sql`: the generation as a SQL expression
    instead (a reader's: the live one, tideline.derivation_registers). -#}
{% macro _newest_stored(data, part, keys, touched, columns, committed, generation, generation_sql=none) %}
    {% set sql %}
        select {{ columns | join(', ') }}
        from (
            select
                d.*,
                row_number() over (partition by {{ keys | join(', ') }} order by d._tl_batch desc) as _tl_newest
            from {{ data }} as d
            {%- if touched %}
            left semi join (select distinct {{ keys | join(', ') }} from {{ touched }}) as touched
                on {% for k in keys %}d.{{ k }} <=> touched.{{ k }}{{ ' and ' if not loop.last }}{% endfor %}
            {%- endif %}
            where d.tl_part = '{{ part }}' and d.tl_gen = {{ generation_sql or "'{}'".format(generation) }} and d._tl_run in ({{ committed }})
        ) as versions
        where _tl_newest = 1
    {% endset %}
    {{- return(sql) -}}
{% endmacro %}

{#- The windows of a fold over each key's documents (`alias`.`keys`) in the order `order`: w up
    to the current document, w_order for numbering, w_key the whole key. All three share the
    partition and the order, so Spark computes them in one window operator over one sort (a
    w_key without the order was an operator and a sort of its own). -#}
{% macro _key_windows(alias, keys, order) %}
    {%- set partition -%}
        partition by {% for k in keys %}{{ alias }}.{{ k }}{{ ', ' if not loop.last }}{% endfor %}
    {%- endset -%}
    {% set sql %}
        window
            w as ({{ partition }} order by {{ order }} rows between unbounded preceding and current row),
            w_order as ({{ partition }} order by {{ order }}),
            w_key as ({{ partition }} order by {{ order }} rows between unbounded preceding and unbounded following)
    {% endset %}
    {{- return(sql) -}}
{% endmacro %}

{#- A compacting run's copy of the live generation into the next one: the newest committed
    version of every row and register, with its own batch (readers still take this run's new
    versions over them) and this run's id (a run that dies before its commit copied nothing
    anyone reads). -#}
{% macro _compaction_copies(settings, data, plan, committed) %}
    {%- set keys = settings.register_keys -%}
    {%- set derived = settings.derived | map('first') | list -%}
    {% set sql %}
    select
        {%- for c in settings.derived %}
        {{ c[0] }},
        {%- endfor %}
        {%- for c in tideline.null_columns(tideline.register_columns(settings) + tideline.held_document_columns(settings)) %}
        {{ c }},
        {%- endfor %}
        _tl_batch, '{{ tideline.run_id() }}', 'row', '{{ plan.write_gen }}'
    from ({{ tideline._newest_stored(data, 'row', settings.unique_key, none, derived + ['_tl_batch'], committed, plan.read_gen) }}) as live_rows
    {%- if settings.registers %}
    union all
    select
        {%- for c in settings.derived %}
        cast(null as {{ c[1] }}),
        {%- endfor %}
        {{ keys | join(', ') }}, _register,
        {%- for c in tideline.null_columns(tideline.held_document_columns(settings)) %}
        {{ c }},
        {%- endfor %}
        _tl_batch, '{{ tideline.run_id() }}', 'register', '{{ plan.write_gen }}'
    from ({{ tideline._newest_stored(data, 'register', keys, none, keys + ['_register', '_tl_batch'], committed, plan.read_gen) }}) as live_registers
    {%- endif %}
    {% endset %}
    {{- return(sql) -}}
{% endmacro %}

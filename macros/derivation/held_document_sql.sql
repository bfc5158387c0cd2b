{#- Derivations: the SQL of held documents (held_documents.sql): read back by the run whose
    frontier reaches them, written by the run that publishes them, copied by a compaction. -#}

{#- The held documents transform `t` reads in this run, as rows of a pass (the derived columns,
    the row as JSON, the position of the document that published them): those stored by
    committed runs in the generation the run reads whose time + t's read delay is in
    (F_prev, F]. None when there are none to read (_own_documents_cte). -#}
{% macro held_documents_read_sql(settings, t, state, frontier, plan, data) %}
    {%- if not t.delay or state.frontier is none or data is none or plan.get('rebuild') -%}{{- return(none) -}}{%- endif -%}
    {% set sql %}
        select {% for name in t.types %}`{{ name }}`, {% endfor %}_tl_prow as _tl_row, _tl_trigger
        from {{ data }}
        where {{ tideline._stored_held_documents(plan.read_gen, tideline.committed_runs_sql(settings.name)) }}
            and {{ tideline._released_test(t, state, frontier) }}
    {% endset %}
    {{- return(sql) -}}
{% endmacro %}

{#- The run's insert, tl_part 'held': every document the run published (`own`, the last pass)
    that a delayed transform reads after the run's frontier. -#}
{% macro held_documents_written_sql(settings, plan, frontier, own) %}
    {% set sql %}
    select
        {%- for c in settings.derived %}
        {{ c[0] }},
        {%- endfor %}
        {%- for c in tideline.null_columns(tideline.register_columns(settings)) %}
        {{ c }},
        {%- endfor %}
        cast(_tl_pos as {{ tideline.document_position_type(settings) }}),
        _tl_prow,
        {{ tideline.ts(plan.batch) }},
        '{{ tideline.run_id() }}',
        'held',
        '{{ plan.write_gen }}'
    from {{ own }}
    where _tl_pos.time + interval {{ settings.own_delay }} seconds > {{ tideline.ts(frontier.frontier) }}
    {% endset %}
    {{- return(sql) -}}
{% endmacro %}

{#- A compacting run's copy of the held documents a later run still reads (their time + the
    longest delay after the run's frontier), with this run's id. -#}
{% macro held_documents_copied_sql(settings, data, plan, frontier, committed) %}
    {% set sql %}
    select
        {%- for c in settings.derived %}
        {{ c[0] }},
        {%- endfor %}
        {%- for c in tideline.register_columns(settings) %}
        {{ c[0] }},
        {%- endfor %}
        _tl_trigger, _tl_prow, _tl_batch, '{{ tideline.run_id() }}', 'held', '{{ plan.write_gen }}'
    from {{ data }}
    where {{ tideline._stored_held_documents(plan.read_gen, committed) }}
        and _tl_trigger.time + interval {{ settings.own_delay }} seconds > {{ tideline.ts(frontier.frontier) }}
    {% endset %}
    {{- return(sql) -}}
{% endmacro %}

{#- The held documents stored in the data table in generation `generation` by the runs of
    `committed` (SQL of the committed run ids): what a run reads, counts or copies of them. -#}
{% macro _stored_held_documents(generation, committed) %}
    {% set sql %}
        tl_part = 'held' and tl_gen = '{{ generation }}' and _tl_run in ({{ committed }})
    {% endset %}
    {{- return(sql | trim) -}}
{% endmacro %}

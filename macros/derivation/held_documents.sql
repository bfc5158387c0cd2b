{#- Derivations: the derivation's own documents held by a read delay (a transform over
    tideline.own_documents() with read_delay). A document published from one at time t is read
    by such a transform at t + delay. When that is after the run's frontier F, the run stores it
    in the data table (tl_part 'held', with the position of the document that published it and
    its row as JSON) in the same insert as its rows, and the first run whose frontier reaches
    t + delay reads it, in its place in the order (docs/derivations.md, item 7). -#}

{#- A document's position in the run's order (derivation.sql, THE ORDER) as a type: what a held
    document keeps of the document that published it. -#}
{% macro document_position_type(settings) %}
    {{- return('struct<time:timestamp,depth:int,at:timestamp,ord:{},priority:int,transform:string,row:int,dup:int>'.format(settings.order_type)) -}}
{% endmacro %}

{#- The data table's columns for held documents: none when no transform over the derivation's
    own documents has a read delay (settings.own_delay, the longest, in seconds). -#}
{% macro held_document_columns(settings) %}
    {%- if not settings.own_delay -%}{{- return([]) -}}{%- endif -%}
    {{- return([['_tl_trigger', tideline.document_position_type(settings)], ['_tl_prow', 'string']]) -}}
{% endmacro %}

{#- The time of the document that published a held one + the transform's read delay is in
    (F_prev, F]: a held document this run reads. -#}
{% macro _released_test(t, state, frontier) %}
    {% set sql %}
        (_tl_trigger.time + interval {{ t.delay }} seconds > {{ tideline.ts(state.frontier) }}
         and _tl_trigger.time + interval {{ t.delay }} seconds <= {{ tideline.ts(frontier.frontier) }})
    {% endset %}
    {{- return(sql) -}}
{% endmacro %}

{#- How many held documents (stored by earlier, committed runs of generation `generation`) this
    run reads: {transform name: count}, empty when there are none to read (no delayed transform
    over the derivation's own documents, a first build or a rebuild). One query. -#}
{% macro released_own_documents(settings, state, frontier, data, generation) %}
    {%- set delayed = settings.transforms | selectattr('own') | selectattr('delay') | list -%}
    {%- if not delayed or state.frontier is none or data is none or frontier.frontier is none
          or tideline.shift_time(frontier.frontier, 0) <= tideline.shift_time(state.frontier, 0) -%}{{- return({}) -}}{%- endif -%}
    {% set sql %}
        select
            {%- for t in delayed %}
            count_if({{ tideline._released_test(t, state, frontier) }}) as released_{{ loop.index0 }}{{ ',' if not loop.last }}
            {%- endfor %}
        from {{ data }}
        where {{ tideline._stored_held_documents(generation, tideline.committed_runs_sql(settings.name)) }}
    {% endset %}
    {%- set row = tideline.query_rows(sql)[0] -%}
    {%- set released = {} -%}
    {%- for t in delayed -%}{%- do released.update({t.name: row['released_{}'.format(loop.index0)] | int}) -%}{%- endfor -%}
    {{- return(released) -}}
{% endmacro %}

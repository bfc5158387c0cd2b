{#- Mutable time: the boundaries a channel has had, and the one in force for a change row
    (issue 36, items 2 and 3).

    A change row is judged under the mutable_time in force when it was committed: a change
    committed before a move under the old boundary, one committed after it under the new, and
    a first build's under the mutable_time it starts with, exactly as a later run judges the
    rows it reads. A run reads the change rows committed after the last run, so it judges them
    under the boundary the last run left; a rebuild reads every change row ever committed, so
    it needs the history: each run row's (batch, mutable_time), and the move rows an earlier
    rebuild carried over (channel_state reads both). -#}

{#- The history as the boundary's changes: [{batch, mutable_time}, ...] in commit order, from
    the run and move rows' [{batch, mutable_time}, ...] sorted by batch (those with a
    mutable_time), keeping each whose boundary differs from the one before it. -#}
{% macro channel_boundary_history(entries) %}
    {%- set history = [] -%}
    {%- for e in entries -%}
        {%- if not history or history[-1].mutable_time != tideline._millis_text(e.mutable_time) -%}
            {%- do history.append({'batch': e.batch, 'mutable_time': tideline._millis_text(e.mutable_time)}) -%}
        {%- endif -%}
    {%- endfor -%}
    {{- return(history) -}}
{% endmacro %}

{#- The boundary in force for a change row committed at `changed_at` (a SQL expression): the
    mutable_time of the newest boundary of `history` set by a run before that time, else the
    first one (a change committed before the channel's first run is judged under the boundary
    it was created with); `fallback` (a time, or none: no boundary) when the history is empty. -#}
{% macro channel_boundary_at_sql(history, fallback, changed_at) %}
    {%- if not history -%}
        {{- return(tideline.ts(fallback) if fallback is not none else 'cast(null as timestamp)') -}}
    {%- endif -%}
    {%- if history | length == 1 -%}{{ return(tideline.ts(history[0].mutable_time)) }}{%- endif -%}
    {% set sql -%}
        case
            {%- for e in (history[1:] | reverse) %}
            when {{ changed_at }} > {{ tideline.ts(e.batch) }} then {{ tideline.ts(e.mutable_time) }}
            {%- endfor %}
            else {{ tideline.ts(history[0].mutable_time) }}
        end
    {%- endset %}
    {{- return(sql) -}}
{% endmacro %}

{#- The move rows a rebuild commits with its run row (commit_run's extra rows): one per boundary
    of the history, so that a later rebuild judges the same change rows the same way. -#}
{% macro channel_move_rows(history) %}
    {%- set rows = [] -%}
    {%- for e in history -%}
        {%- do rows.append({'kind': 'move', 'batch': e.batch, 'mutable_time': e.mutable_time}) -%}
    {%- endfor -%}
    {{- return(rows) -}}
{% endmacro %}

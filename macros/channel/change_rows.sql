{#- Mutable time: the change rows a channel run reads, from each change relation (writer): by
    change time, or, with change_arrival_column, by load time (late_changes.sql). -#}

{#- The change rows this run applies (after the previous frontier, up to this one: by change
    time, or by load time with change_arrival_column), one relation after the other, each row
    keyed and numbered in the order they are applied: by change time, then the writer's place in
    config changes, then deletes before inserts, then the payload (so that ties are broken the
    same way in every run). found_row is the row as it is in its relation, as JSON, for the
    quarantine (bad_changes.sql); Spark reads it only there. -#}
{% macro _channel_ops_sql(settings, state, frontier) %}
    {%- for c in settings.changes %}
    {%- if settings.change_arrival %}
    select * from (
        {{ tideline._channel_change_rows_sql(settings, c, loop.index0, tideline._change_rows_loaded_sql(settings, c, state, frontier)) }}
    ) as loaded
    {%- if state.frontier %}
    where arrived_at > {{ tideline.ts(state.frontier) }}
    {%- endif %}
    {%- else %}
    {{ tideline._channel_change_rows_sql(settings, c, loop.index0, c.source.rendered) }}
    where c.{{ c.commit_column }} <= {{ tideline.ts(frontier) }}
        {%- if state.frontier %} and c.{{ c.commit_column }} > {{ tideline.ts(state.frontier) }}{% endif %}
    {%- endif %}
    {{- '\n    union all' if not loop.last }}
    {%- endfor %}
{%- endmacro %}

{#- The change rows of the relation `rows` (writer `c`, its place `writer` in config changes) as
    a run reads them, before any filter: each keyed (item_ids.sql), with its payload, op, change
    time, load time (change_arrival_column) and writer. -#}
{% macro _channel_change_rows_sql(settings, c, writer, rows) %}
    select
        {{ tideline._item_key(settings, 'c', {'kind': 'change', 'writer': c.name, 'at': settings.change_time, 'order': settings.change_arrival}) }},
        {{ tideline._item_payload(settings, 'c') }},
        lower(c.op) as op,
        c.{{ settings.change_time }} as changed_at,
        {%- if settings.change_arrival %}
        c.{{ settings.change_arrival }} as arrived_at,
        {%- endif %}
        {{ writer }} as writer,
        to_json(struct(c.*)) as found_row
    from {{ rows }} as c
{%- endmacro %}

{#- With change_arrival_column, the rows of writer `c` a run numbers its writes over: every row
    loaded up to the frontier whose change time is that of a row loaded since the previous
    frontier. A write without an id numbers its occurrence among identical writes of its commit
    time by load time (item_ids.sql), so the twins loaded by an earlier run keep their numbers
    and a twin loaded late gets the next one, as a rebuild, which reads them all, numbers them;
    the run then keeps the rows loaded since the previous frontier. -#}
{% macro _change_rows_loaded_sql(settings, c, state, frontier) %}
    {% set sql %}
    (
        select *
        from {{ c.source.rendered }}
        where {{ settings.change_arrival }} <= {{ tideline.ts(frontier) }}
            {%- if state.frontier %}
            and {{ settings.change_time }} in (
                select {{ settings.change_time }}
                from {{ c.source.rendered }}
                where {{ settings.change_arrival }} > {{ tideline.ts(state.frontier) }} and {{ settings.change_arrival }} <= {{ tideline.ts(frontier) }}
            )
            {%- endif %}
    )
    {% endset %}
    {{- return(sql | trim) -}}
{% endmacro %}

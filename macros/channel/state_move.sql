{#- Channels: a run row of state version 1 moved to the channel's own columns (run_state.sql,
    state_version 2). Version 1 kept mutable_time in upper_limit, the newest real-time arrival
    read in lower_limit and the missing deletes in rows_rejected; a channel's first run after
    the migration moves its own rows, in one step of the state's format, before anything else. A
    row is of version 1 when its three new columns are null (a version 2 run row always counts
    its missing deletes), so the move is done once and a rerun after a crash repeats nothing. -#}

{% macro move_channel_state(model_name) %}
    {%- set strategy = {'parquet': adapter.dispatch('move_channel_state_parquet', 'tideline'),
                         'delta': adapter.dispatch('move_channel_state_delta', 'tideline'),
                         'iceberg': adapter.dispatch('move_channel_state_iceberg', 'tideline')}[tideline.state_file_format()] -%}
    {%- do strategy(model_name) -%}
    {{ log("tideline {}: its state rows of version 1 moved to mutable_time, realtime_after and missing_deletes".format(model_name), info=true) }}
{% endmacro %}

{#- parquet: the partition rewritten beside and swapped in, each version 1 run row moved. -#}
{% macro default__move_channel_state_parquet(model_name) %}
    {%- set moved = {'upper_limit': 'null', 'lower_limit': 'null', 'rows_rejected': 'null',
                     'mutable_time': 'upper_limit', 'realtime_after': 'lower_limit', 'missing_deletes': 'rows_rejected'} -%}
    {%- set projection = [] -%}
    {%- for c in tideline.state_columns()[:-1] -%}
        {%- do projection.append('case when {} then cast({} as {}) else {} end as {}'.format(
            tideline._channel_row_v1(), moved[c[0]], c[1], c[0], c[0]) if c[0] in moved else c[0]) -%}
    {%- endfor -%}
    {%- do tideline.rewrite_state_parquet(model_name, projection) -%}
{% endmacro %}

{#- delta and iceberg: one update of the model's version 1 run rows. -#}
{% macro default__move_channel_state_delta(model_name) %}
    {% call statement('move_channel_state', fetch_result=false) %}
        update {{ tideline.state_table() }}
        set mutable_time = upper_limit, realtime_after = lower_limit, missing_deletes = rows_rejected,
            upper_limit = null, lower_limit = null, rows_rejected = null
        where model = '{{ model_name }}' and {{ tideline._channel_row_v1() }}
    {% endcall %}
{% endmacro %}

{% macro default__move_channel_state_iceberg(model_name) %}
    {%- do tideline.default__move_channel_state_delta(model_name) -%}
{% endmacro %}

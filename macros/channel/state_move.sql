{#- Channels: a run row of state version 1 moved to the channel's own columns (state_columns.sql,
    state_version 2). Version 1 kept mutable_time in upper_limit, the newest real-time arrival
    read in lower_limit and the missing deletes in rows_rejected; a channel's first run after
    the migration moves its own rows (move_state_rows), before anything else. A row is of
    version 1 when its three new columns are null (a version 2 run row always counts its
    missing deletes), so the move is done once and a rerun after a crash repeats nothing. -#}

{% macro move_channel_state(model_name) %}
    {%- do tideline.move_state_rows(model_name,
        {'mutable_time': 'upper_limit', 'realtime_after': 'lower_limit', 'missing_deletes': 'rows_rejected'},
        tideline._channel_row_v1()) -%}
{% endmacro %}

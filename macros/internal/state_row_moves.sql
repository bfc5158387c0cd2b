{#- A model's rows of tl_state written by an earlier version, their facts moved to the columns
    this version keeps them in (state_columns.sql, state_columns_added). A migration adds the
    columns on run start; each capability moves its own rows on its model's next run, when its
    state query finds rows of the earlier layout (a channel: move_channel_state; a daily
    aggregate: days_to_process). The rows to move are told apart by `condition`, which a moved
    row no longer meets, so a rerun after a crash moves only what is left. -#}

{#- `moves`: {new column: old column}; each moved row gets the old column's value in the new
    one and null in the old one. One step of the state's format. -#}
{% macro move_state_rows(model_name, moves, condition) %}
    {%- set strategy = {'parquet': adapter.dispatch('move_state_rows_parquet', 'tideline'),
                         'delta': adapter.dispatch('move_state_rows_delta', 'tideline'),
                         'iceberg': adapter.dispatch('move_state_rows_iceberg', 'tideline')}[tideline.state_file_format()] -%}
    {%- do strategy(model_name, moves, condition) -%}
    {{ log("tideline {}: its state rows of an earlier version moved ({})".format(model_name,
        moves.items() | map('join', ' <- ') | join(', ')), info=true) }}
{% endmacro %}

{#- parquet: the model's partition rewritten beside and swapped in, the moved rows changed. -#}
{% macro default__move_state_rows_parquet(model_name, moves, condition) %}
    {%- set emptied = moves.values() | list -%}
    {%- set projection = [] -%}
    {%- for c in tideline.state_columns()[:-1] -%}
        {%- if c[0] in moves -%}
            {%- do projection.append('case when {} then cast({} as {}) else {} end as {}'.format(condition, moves[c[0]], c[1], c[0], c[0])) -%}
        {%- elif c[0] in emptied -%}
            {%- do projection.append('case when {} then cast(null as {}) else {} end as {}'.format(condition, c[1], c[0], c[0])) -%}
        {%- else -%}
            {%- do projection.append(c[0]) -%}
        {%- endif -%}
    {%- endfor -%}
    {%- do tideline.rewrite_state_parquet(model_name, projection) -%}
{% endmacro %}

{#- delta: one update of the model's rows to move (its set clauses all read the row as it was). -#}
{% macro default__move_state_rows_delta(model_name, moves, condition) %}
    {% call statement('move_state_rows', fetch_result=false) %}
        update {{ tideline.state_table() }}
        set
            {%- for new, old in moves.items() %}
            {{ new }} = {{ old }},
            {%- endfor %}
            {%- for old in moves.values() %}
            {{ old }} = null{{ ',' if not loop.last }}
            {%- endfor %}
        where model = '{{ model_name }}' and ({{ condition }})
    {% endcall %}
{% endmacro %}

{#- iceberg: as delta (a row-level update, one snapshot). -#}
{% macro default__move_state_rows_iceberg(model_name, moves, condition) %}
    {%- do tideline.default__move_state_rows_delta(model_name, moves, condition) -%}
{% endmacro %}

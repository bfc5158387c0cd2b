{#- tl_state of an earlier layout brought to this version's (state_version, run_state.sql). -#}

{#- The columns `found` lack, added in place where this version creates them (after
    `transform`, before the partition column), then the version recorded in the table property
    tideline.state_version. Each step is one statement: a run that dies between them leaves a
    table the next run recognises (its columns say what is missing) and finishes. What a
    capability kept in other columns before moves on that model's next run (a channel:
    move_channel_state). -#}
{% macro migrate_state_table(found) %}
    {%- set missing = [] -%}
    {%- for c in tideline.state_columns()[:-1] if c[0] not in found -%}{%- do missing.append(c) -%}{%- endfor -%}
    {%- set strategy = {'parquet': adapter.dispatch('add_state_columns_parquet', 'tideline'),
                         'delta': adapter.dispatch('add_state_columns_delta', 'tideline'),
                         'iceberg': adapter.dispatch('add_state_columns_iceberg', 'tideline')}[tideline.state_file_format()] -%}
    {%- if missing -%}{%- do strategy(missing) -%}{%- endif -%}
    {% call statement('state_version', fetch_result=false) %}
        alter table {{ tideline.state_table() }}
        set tblproperties ('tideline.state_version' = '{{ tideline.state_version() }}')
    {% endcall %}
    {{ log("tideline: state table {} migrated to version {} (columns added: {})".format(
        tideline.state_table(), tideline.state_version(), missing | map('first') | join(', ') or 'none'), info=true) }}
{% endmacro %}

{#- parquet (a Hive table): new columns go after the data columns, before the partition column. -#}
{% macro default__add_state_columns_parquet(columns) %}
    {% call statement('add_state_columns', fetch_result=false) %}
        alter table {{ tideline.state_table() }}
        add columns ({% for c in columns %}{{ c[0] }} {{ c[1] }}{{ ', ' if not loop.last }}{% endfor %})
    {% endcall %}
{% endmacro %}

{#- delta: one column at a time, each after the one before it in state_columns (Delta would
    append them after the partition column). -#}
{% macro default__add_state_columns_delta(columns) %}
    {%- for placed in tideline._placed_state_columns(columns) -%}
        {% call statement('add_state_column', fetch_result=false) %}
            alter table {{ tideline.state_table() }} add columns ({{ placed }})
        {% endcall %}
    {%- endfor -%}
{% endmacro %}

{#- iceberg: as delta. -#}
{% macro default__add_state_columns_iceberg(columns) %}
    {%- do tideline.default__add_state_columns_delta(columns) -%}
{% endmacro %}

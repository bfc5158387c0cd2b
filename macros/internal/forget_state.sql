{#- A model's rows of tl_state deleted (a full refresh), by a dispatched strategy per format
    (a project may override forget_state_<format>). -#}

{#- Forget a model's state (a rebuild, before it writes): its rows leave tl_state in one
    statement, so a rebuild that dies half-way is rerun as a first build. -#}
{% macro forget_state(model_name) %}
    {%- set strategy = {'parquet': adapter.dispatch('forget_state_parquet', 'tideline'),
                         'delta': adapter.dispatch('forget_state_delta', 'tideline'),
                         'iceberg': adapter.dispatch('forget_state_iceberg', 'tideline')}[tideline.state_file_format()] -%}
    {%- do strategy(model_name) -%}
{% endmacro %}

{#- delta: one delete. (An `insert overwrite ... partition (model = ...)` of no rows removes
    nothing on Delta when partitionOverwriteMode is dynamic.) -#}
{% macro default__forget_state_delta(model_name) %}
    {% call statement('forget_state', fetch_result=false) %}
        delete from {{ tideline.state_table() }}
        where model = '{{ model_name }}'
    {% endcall %}
{% endmacro %}

{#- iceberg: the same delete as delta. -#}
{% macro default__forget_state_iceberg(model_name) %}
    {%- do tideline.default__forget_state_delta(model_name) -%}
{% endmacro %}

{#- parquet: the model's partition overwritten with no rows. -#}
{% macro default__forget_state_parquet(model_name) %}
    {% call statement('forget_state', fetch_result=false) %}
        insert overwrite table {{ tideline.state_table() }} partition (model = '{{ model_name }}')
        select
            {%- for c in tideline.state_columns()[:-1] %}
            cast(null as {{ c[1] }}) as {{ c[0] }}{{ ',' if not loop.last }}
            {%- endfor %}
        from (select 1) as nothing
        where false
    {% endcall %}
{% endmacro %}

{#- The operations on a model's rows of tl_state whose SQL differs by the state's format
    (tideline__state_file_format): compaction and forgetting. Each format's strategy is a
    dispatched macro (see formats.sql). -#}

{#- Rewrite a model's state into one file (every compact_every commits, see commit_run). -#}
{% macro compact_state(model_name) %}
    {%- set strategy = {'parquet': adapter.dispatch('compact_state_parquet', 'tideline'),
                         'delta': adapter.dispatch('compact_state_delta', 'tideline'),
                         'iceberg': adapter.dispatch('compact_state_iceberg', 'tideline')}[tideline.state_file_format()] -%}
    {%- do strategy(model_name) -%}
{% endmacro %}

{#- delta: one `optimize` of the model's rows, one commit; readers see the old files or the new. -#}
{% macro default__compact_state_delta(model_name) %}
    {% call statement('compact_state', fetch_result=false) %}
        optimize {{ tideline.state_table() }}
        where model = '{{ model_name }}'
    {% endcall %}
{% endmacro %}

{#- iceberg: Iceberg's rewrite_data_files of the model's rows, one snapshot. -#}
{% macro default__compact_state_iceberg(model_name) %}
    {%- set state = tideline.state_table() -%}
    {% call statement('compact_state', fetch_result=false) %}
        call {{ tideline.iceberg_catalog() }}.system.rewrite_data_files(
            table => '{{ state.split('.', 1)[1] }}',
            where => 'model = "{{ model_name }}"',
            options => map('min-input-files', '2')
        )
    {% endcall %}
{% endmacro %}

{#- parquet: crash-safe: copy the partition's rows into the
    model's other folder (<table>/model=<M> and <table>/tl_compacted/<M> take turns; the copy
    first empties it), then point the partition at it, in one metastore step. A run that dies
    before that step leaves the partition as it was and a folder nobody reads, which the next
    compaction overwrites. Three statements, once every compact_every commits. -#}
{% macro default__compact_state_parquet(model_name) %}
    {%- do tideline.rewrite_state_parquet(model_name, tideline.state_columns()[:-1] | map('first') | list) -%}
{% endmacro %}

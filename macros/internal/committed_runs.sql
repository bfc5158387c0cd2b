{#- Which runs are committed: readers keep the rows of these runs only. -#}

{#- The id of this dbt invocation: it names every state row and data row a run writes. -#}
{% macro run_id() %}
    {{- return(invocation_id) -}}
{% endmacro %}

{#- The run ids of a model's committed runs up to a batch, as a subquery (readers of a
    tideline table keep only rows whose _tl_run is among them). -#}
{% macro committed_runs_sql(model_name, up_to_batch=none, pending_run=none) %}
    select run_id from {{ tideline.state_table() }}
    where {{ tideline.state_models_sql(model_name, pending_run) }} and kind = 'run'
    {%- if up_to_batch is not none %} and batch <= {{ tideline.ts(up_to_batch) }}{% endif %}
{% endmacro %}

{#- Which rows of tl_state are the model's: its own, and with `pending_run` (the view that a
    rebuild into a new table swapped in: data_tables.sql) that rebuild's pending rows too. -#}
{% macro state_models_sql(model_name, pending_run=none) %}
    {%- if pending_run is none -%}
        model = '{{ model_name }}'
    {%- else -%}
        (model = '{{ model_name }}' or (model = '{{ tideline.pending_state_key(model_name) }}' and split(run_id, '/')[0] = '{{ pending_run }}'))
    {%- endif -%}
{% endmacro %}

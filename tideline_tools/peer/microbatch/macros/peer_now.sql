{#- The simulated clock of the peer benchmark (TIDELINE_NOW), read when the model runs: read in
    a macro, a changed value does not make dbt parse the model again. -#}
{% macro peer_now() %}
    {{- return(env_var('TIDELINE_NOW', '')) -}}
{% endmacro %}

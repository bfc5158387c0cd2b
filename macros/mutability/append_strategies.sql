{#- Mutability: the append_only kinds' strategies (see kind_strategies.sql). -#}

{#- append_only: the rows with a new value of `along` appended (append_only.sql). -#}
{% macro default__materialize_append_only(settings) %}
    {{- return(tideline.materialize_appended(settings)) -}}
{% endmacro %}

{#- ds_append_only: append_only along ds. -#}
{% macro default__materialize_ds_append_only(settings) %}
    {{- return(tideline.materialize_appended(settings)) -}}
{% endmacro %}

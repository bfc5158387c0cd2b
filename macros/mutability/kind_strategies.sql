{#- Mutability: what a run does for each kind, a strategy looked up by name, so that a project
    can override one (materialize_<kind>, in its own dispatch search order). -#}

{#- The run of the model's kind: {relation, rows}. -#}
{% macro materialize_mutability_kind(settings) %}
    {%- set strategies = {'immutable': adapter.dispatch('materialize_immutable', 'tideline'),
                          'full_mutation': adapter.dispatch('materialize_full_mutation', 'tideline'),
                          'append_only': adapter.dispatch('materialize_append_only', 'tideline'),
                          'ds_append_only': adapter.dispatch('materialize_ds_append_only', 'tideline')} -%}
    {{- return(strategies[settings.type](settings)) -}}
{% endmacro %}

{#- immutable and full_mutation: rebuilt whole into the next version and swapped in (rebuildable.sql). -#}
{% macro default__materialize_immutable(settings) %}
    {{- return(tideline.materialize_rebuildable(settings)) -}}
{% endmacro %}

{% macro default__materialize_full_mutation(settings) %}
    {{- return(tideline.materialize_rebuildable(settings)) -}}
{% endmacro %}

{#- Definitions as data: a model declares its parts with macro calls (a derivation's
    tideline.transform(), a continual task's tideline.task_insert() and task_delete()), and the materialization
    receives them as structures, not by parsing the compiled SQL.

    collect_model_definitions() renders the model's own file again, in the materialization's
    context (where ref() and source() resolve, as in the compile), with a collector in place:
    each declaring macro appends its structure to the collector instead of rendering SQL. It
    gives the structures, in the order the model declares them, and what the file rendered
    besides them (for the check that a model holds nothing else). -#}
{% macro collect_model_definitions() %}
    {%- set collected = [] -%}
    {%- do model.update({'tideline_definitions': collected}) -%}
    {%- set rest = render(model.raw_code) -%}
    {%- do model.pop('tideline_definitions') -%}
    {{- return({'definitions': collected, 'rest': rest}) -}}
{% endmacro %}

{#- The collector while collect_model_definitions() renders the model, else none (dbt's parse
    and compile, where a declaring macro renders its part as readable SQL). -#}
{% macro model_definitions_collector() %}
    {{- return(model.get('tideline_definitions') if model is mapping else none) -}}
{% endmacro %}

{#- Derivations: one step of a sequential fold (register_folds.sql), and the strategies
    last_write_wins and first_write_wins as such a step. -#}

{#- The value of a register (or a merge's field) after one document: `before` is its value
    before it (null: never written), `update` the document's update (null: none), `initial` its
    initial value as SQL, `what` names it in an error. The step of each strategy is its own
    macro, `step_<strategy>`, looked up through adapter.dispatch (sum, min, max:
    step_arithmetic.sql; last_write_wins, first_write_wins: here; append, set, merge:
    step_collections.sql), beside fold_<strategy> (fold.sql), which folds many documents at once
    where no update reads the register. -#}
{% macro _step(spec, before, update, initial, what) %}
    {%- set strategies = {
        'sum': adapter.dispatch('step_sum', 'tideline'),
        'min': adapter.dispatch('step_min', 'tideline'),
        'max': adapter.dispatch('step_max', 'tideline'),
        'last_write_wins': adapter.dispatch('step_last_write_wins', 'tideline'),
        'first_write_wins': adapter.dispatch('step_first_write_wins', 'tideline'),
        'append': adapter.dispatch('step_append', 'tideline'),
        'set': adapter.dispatch('step_set', 'tideline'),
        'merge': adapter.dispatch('step_merge', 'tideline')} -%}
    {{- return(strategies[spec.strategy](spec, before, update, initial, what)) -}}
{% endmacro %}

{#- last_write_wins: the update, else the value before. -#}
{% macro default__step_last_write_wins(spec, before, update, initial, what) %}
    {%- set step -%}coalesce({{ update }}, {{ before }}){%- endset -%}
    {{- return(step) -}}
{% endmacro %}

{#- first_write_wins: the value before, else the update. -#}
{% macro default__step_first_write_wins(spec, before, update, initial, what) %}
    {%- set step -%}coalesce({{ before }}, {{ update }}){%- endset -%}
    {{- return(step) -}}
{% endmacro %}

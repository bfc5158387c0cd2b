{#- Derivations: the reduction strategies last_write_wins and first_write_wins as SQL (fold.sql,
    _fold, says what each argument is). A value never written reads as its initial value
    (_exposed), so neither folds the initial value in. -#}

{#- last_write_wins: the newest update, else the stored value. -#}
{% macro default__fold_last_write_wins(spec, stored, update, initial, w, what) %}
    {%- set folded -%}coalesce(last({{ update }}, true) over {{ w }}, {{ stored }}){%- endset -%}
    {{- return(folded) -}}
{% endmacro %}

{#- first_write_wins: the stored value, else the first update. -#}
{% macro default__fold_first_write_wins(spec, stored, update, initial, w, what) %}
    {%- set folded -%}coalesce({{ stored }}, first({{ update }}, true) over {{ w }}){%- endset -%}
    {{- return(folded) -}}
{% endmacro %}

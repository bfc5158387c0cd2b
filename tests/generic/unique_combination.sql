{#- Fails (returns rows) when two rows share the same values of `columns`: the grain of a daily
    aggregate (event date and key) or of a state view (model and event date). Nulls compare equal. -#}
{% test unique_combination(model, columns) %}
    select {{ columns | join(', ') }}, count(*) as copies
    from {{ model }}
    group by {{ columns | join(', ') }}
    having count(*) > 1
{% endtest %}

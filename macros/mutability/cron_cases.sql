{#- The cron rule checked against croniter by the tests: the ticks of many cases at once. -#}

{#- For python_tests: evaluate many [expression, time] cases in one dbt call and log the answers
    as one JSON line ("tideline cron cases: [...]"): [last at or before, next after] per case,
    or the error text. `dbt run-operation tideline.cron_cases --args '{cases: [["0 13 * * *", "2025-01-01 12:00"]]}'` -#}
{% macro cron_cases(cases) %}
    {%- set out = [] -%}
    {%- for case in cases -%}
        {%- set last = tideline.cron_last(case[0], case[1]) -%}
        {%- set next = tideline.cron_next(case[0], case[1]) -%}
        {%- do out.append([last.strftime('%Y-%m-%d %H:%M') if last else none, next.strftime('%Y-%m-%d %H:%M') if next else none]) -%}
    {%- endfor -%}
    {%- do log('tideline cron cases: {}'.format(out | tojson), info=true) -%}
{% endmacro %}

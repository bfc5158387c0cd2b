{#- The run limits as SQL: the limits CTE of a decide query, and the window's condition. -#}

{#- One row: lower_limit, next_load, upper_limit, as the rule above says, and the load checks:
    the source rows this window cannot read as they are, counted so that the run warns about
    them (never silently dropped): rows without a load_tstamp (no window reads them), loaded
    after now (read once now passes them), or in a load_date partition other than the date of
    their load_tstamp (the window prunes on load_date). One scan of the load dates from the
    lower limit's on (and the load_date-null partition): the cost stays with the new loads. -#}
{% macro limits_sql(lower) %}
    {%- set now = tideline.now() -%}
    {%- set days = tideline.var_int('tideline__backfill_limit_days', 1) -%}
    select
        {{ lower[0] }} as lower_limit,
        next_load,
        case
            when next_load is null then {{ tideline.ts(now) }}
            else least(next_load + interval {{ days }} days, {{ tideline.ts(now) }})
        end as upper_limit,
        rows_without_load_time,
        rows_loaded_after_now,
        rows_in_other_load_date
    from (
        select
            min(case
                when load_date <= date'{{ now[:10] }}' and load_tstamp > {{ lower[0] }} and load_tstamp <= {{ tideline.ts(now) }}
                then load_tstamp
            end) as next_load,
            count_if(load_tstamp is null) as rows_without_load_time,
            count_if(load_tstamp > {{ tideline.ts(now) }}) as rows_loaded_after_now,
            count_if(load_date <> to_date(load_tstamp)) as rows_in_other_load_date
        from {{ source('tideline', 'events') }}
        where load_date >= date'{{ lower[1] }}' or load_date is null
    ) as source_scan
{% endmacro %}

{#- The predicate that selects the window's rows of the source, partition-pruned on load_date.
    `upper` is a timestamp literal or, inside the stats query, the limits' scalar subquery. -#}
{% macro in_run_window(lower, upper_sql, upper_date) %}
    load_date between date'{{ lower[1] }}' and date'{{ upper_date }}'
    and load_tstamp > {{ lower[0] }}
    and load_tstamp <= {{ upper_sql }}
{% endmacro %}

{#- Run limits: the window (lower_limit, upper_limit] over load_tstamp that a run of
    tl_filtered_events reads.

    The one rule, used by every run:
      lower_limit = the watermark (largest load_tstamp already processed), or on the first run
                    (and on --full-refresh) start_date 00:00:00 minus one microsecond, so an
                    event loaded exactly at the start is inside;
      next_load   = the first load_tstamp after lower_limit and not after now;
      upper_limit = least(next_load + backfill_limit_days, now), or now when nothing was loaded.
    The window is open below and closed above, and the next lower_limit is the largest
    load_tstamp it held: an event loaded exactly on a boundary is read exactly once. Anchoring
    on the next load (instead of on lower_limit) is how a gap in loading longer than
    backfill_limit_days neither fails nor stalls: the next run skips ahead to the next load.

    The limits are not a table: the run computes them inside its one stats query (limits_sql)
    and then writes with them as literals. -#}

{#- The lower limit of this run: [SQL expression, 'YYYY-MM-DD' of it]. -#}
{% macro lower_limit(watermark) %}
    {%- if watermark is none -%}
        {%- set start = tideline.var_date('tideline__start_date') -%}
        {{- return([tideline.ts(start ~ ' 00:00:00') ~ ' - interval 1 microsecond', start]) -}}
    {%- endif -%}
    {{- return([tideline.ts(watermark), watermark[:10]]) -}}
{% endmacro %}

{#- One row: lower_limit, next_load, upper_limit, as the rule above says. Reads only the load
    dates from the lower limit's to now's (partition-pruned). -#}
{% macro limits_sql(lower) %}
    {%- set now = tideline.now() -%}
    {%- set days = tideline.var_int('tideline__backfill_limit_days', 1) -%}
    select
        lower_limit,
        next_load,
        case
            when next_load is null then {{ tideline.ts(now) }}
            else least(next_load + interval {{ days }} days, {{ tideline.ts(now) }})
        end as upper_limit
    from (
        select {{ lower[0] }} as lower_limit, min(load_tstamp) as next_load
        from {{ source('tideline', 'events') }}
        where
            load_date between date'{{ lower[1] }}' and date'{{ now[:10] }}'
            and load_tstamp > {{ lower[0] }}
            and load_tstamp <= {{ tideline.ts(now) }}
    ) as next_load
{% endmacro %}

{#- The predicate that selects the window's rows of the source, partition-pruned on load_date.
    `upper` is a timestamp literal or, inside the stats query, the limits' scalar subquery. -#}
{% macro in_run_window(lower, upper_sql, upper_date) %}
    load_date between date'{{ lower[1] }}' and date'{{ upper_date }}'
    and load_tstamp > {{ lower[0] }}
    and load_tstamp <= {{ upper_sql }}
{% endmacro %}

{#- Run limits: the window (lower_limit, upper_limit] over load_tstamp that this run reads.

    The one rule, used by every run:
      lower_limit = the watermark (largest load_tstamp already processed), or on the first run
                    (and on --full-refresh) start_date 00:00:00 minus one microsecond, so an
                    event loaded exactly at the start is inside;
      next_load   = the first load_tstamp after lower_limit and not after now;
      upper_limit = least(next_load + backfill_limit_days, now), or now when nothing was loaded.
    The window is open below and closed above, and the next lower_limit is the largest
    load_tstamp it held: an event loaded exactly on a boundary is read exactly once. Anchoring
    on the next load (instead of on lower_limit) is how a gap in loading longer than
    backfill_limit_days neither fails nor stalls: the next run skips ahead to the next load. -#}

{% macro run_limits(full_refresh=false) %}
    {%- set start = tideline.var_date('tideline__start_date') -%}
    {%- set days = tideline.var_int('tideline__backfill_limit_days', 1) -%}
    {%- set now = tideline.now() -%}
    {%- set first_lower = start ~ ' 00:00:00' -%}
    {%- set state = tideline.watermark('tl_filtered_events') -%}
    {#- A missing filtered-events table means its history is gone: start over like a full refresh. -#}
    {%- set filtered = adapter.get_relation(database=none, schema=target.schema, identifier='tl_filtered_events') -%}
    {%- set first_run = full_refresh or state[0] is none or filtered is none -%}
    {%- set source = source('tideline', 'events') -%}
    {%- if first_run -%}
        {%- set lower_sql = tideline.ts(first_lower) ~ ' - interval 1 microsecond' -%}
        {%- set lower_date = start -%}
    {%- else -%}
        {%- set lower_sql = tideline.ts(state[0]) -%}
        {%- set lower_date = state[0][:10] -%}
    {%- endif -%}
    {%- set rows = tideline.query_rows(
        "select cast(" ~ lower_sql ~ " as string), cast(min(load_tstamp) as string) from " ~ source
        ~ " where load_date >= date'" ~ lower_date ~ "' and load_date <= date'" ~ now[:10] ~ "'"
        ~ " and load_tstamp > " ~ lower_sql ~ " and load_tstamp <= " ~ tideline.ts(now)) -%}
    {%- set lower = rows[0][0] -%}
    {%- set next_load = rows[0][1] -%}
    {%- if next_load is none -%}
        {%- set upper = now -%}
    {%- else -%}
        {%- set upper = tideline.query_rows("select cast(least(" ~ tideline.ts(next_load) ~ " + interval " ~ days ~ " days, " ~ tideline.ts(now) ~ ") as string)")[0][0] -%}
    {%- endif -%}
    {{- return({'lower': lower, 'upper': upper, 'next_load': next_load, 'first_run': first_run, 'now': now,
                'lower_date': lower[:10], 'upper_date': upper[:10]}) -}}
{% endmacro %}

{#- The predicate that selects the window's rows of the source, partition-pruned on load_date. -#}
{% macro in_run_window(limits, load_tstamp='load_tstamp', load_date='load_date') %}
    {{ load_date }} between date'{{ limits.lower_date }}' and date'{{ limits.upper_date }}'
    and {{ load_tstamp }} > {{ tideline.ts(limits.lower) }}
    and {{ load_tstamp }} <= {{ tideline.ts(limits.upper) }}
{% endmacro %}

{#- The limits this run's tl_run_limits table holds (read by the models after it). -#}
{% macro current_run_limits() %}
    {%- set limits_table = ref('tl_run_limits') -%}
    {%- if not execute -%}
        {{ return({'lower': '1970-01-01 00:00:00', 'upper': '1970-01-01 00:00:00', 'lower_date': '1970-01-01',
                   'upper_date': '1970-01-01', 'first_run': true, 'now': '1970-01-01 00:00:00', 'next_load': none}) }}
    {%- endif -%}
    {%- set rows = tideline.query_rows("select cast(lower_limit as string), cast(upper_limit as string), first_run, cast(run_now as string), cast(next_load as string) from " ~ limits_table) -%}
    {%- set r = rows[0] -%}
    {{- return({'lower': r[0], 'upper': r[1], 'lower_date': r[0][:10], 'upper_date': r[1][:10], 'first_run': r[2], 'now': r[3], 'next_load': r[4]}) -}}
{% endmacro %}

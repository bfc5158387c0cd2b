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

    The limits are not a table: the run computes them inside its one decide query (limits_sql)
    and then writes with them as literals. Inside that query the upper limit is a literal too
    whenever the rule already fixes it at now (window_upper_sql). -#}

{#- Step 1 of a model that reads the source by run windows (tl_filtered_events, a daily
    aggregate over source_events()): its watermark, the newest load time its committed runs
    read (none before the first), and the files of its state (state_files_sql), in one query.
    A now before the watermark is refused. -#}
{% macro window_watermark(model_name) %}
    {% set state_sql %}
        select cast(max(watermark) as string) as watermark, {{ tideline.state_files_sql(model_name) }} as state_files
        from {{ tideline.state_table() }}
        where model = '{{ model_name }}' and kind = 'run'
    {% endset %}
    {%- set state = tideline.query_rows(state_sql)[0] -%}
    {%- do tideline.refuse_now_before_watermark(model_name, state.watermark) -%}
    {{- return([state.watermark, state.state_files | int]) -}}
{% endmacro %}

{#- The lower limit of this run: [SQL expression, 'YYYY-MM-DD' of it, the earliest load time
    the window can hold at or after it ('YYYY-MM-DD HH:MM:SS...')]. -#}
{% macro lower_limit(watermark) %}
    {%- if watermark is none -%}
        {%- set start = tideline.var_date('tideline__start_date') -%}
        {%- set midnight = '{} 00:00:00'.format(start) -%}
        {{- return(['{} - interval 1 microsecond'.format(tideline.ts(midnight)), start, midnight]) -}}
    {%- endif -%}
    {{- return([tideline.ts(watermark), watermark[:10], watermark]) -}}
{% endmacro %}

{#- The upper limit as the decide query uses it. When the lower limit is within
    backfill_limit_days of now, the rule gives now whatever the next load is (next_load + days
    >= lower + days >= now), so it is the literal now: Spark prunes the window's scan with it and
    plans the query once, where the limits' scalar subquery is computed again at each use (a
    decide query about a fifth slower). After a longer gap (a catch-up, a first build from an
    old start date) it is that subquery. -#}
{% macro window_upper_sql(lower) %}
    {%- set days = tideline.var_int('tideline__backfill_limit_days', 1) -%}
    {%- if tideline.shift_time(lower[2], days * 86400) >= tideline.shift_time(tideline.now(), 0) -%}
        {{- return(tideline.ts(tideline.now())) -}}
    {%- endif -%}
    {{- return('(select upper_limit from limits)') -}}
{% endmacro %}

{#- The time-based pipeline's rejected events (rows_rejected: no event_id, or a first copy
    without derived_tstamp) under tideline__on_bad_rows: counted (warn, the default), refused
    before anything is written (fail), or set aside (quarantine). -#}

{#- tideline__on_bad_rows: what a run of tl_filtered_events or of a daily aggregate over
    source_events() does with the events of its window it rejects. -#}
{% macro pipeline_on_bad_rows() %}
    {{- return(tideline.var_choice('tideline__on_bad_rows', [
        {'value': 'warn', 'means': 'each run counts them in its line and in its run row, rows_rejected, and goes on'},
        {'value': 'fail', 'means': 'a run whose window holds any is refused before anything is written, naming the first by its load time and event_id'},
        {'value': 'quarantine', 'means': 'as warn, and each is set aside once in <model>__tl_quarantine with the reason'}])) -}}
{% endmacro %}

{#- The rejected events of a run's window (lower: the lower limit, upper: the run's upper
    limit), as the decide queries count them (run_window_ctes): every row of the window without
    an event_id, and the window's first copy of an event_id (first_copy_order() among the
    window's copies and those loaded before it) without a derived_tstamp. Columns: reason,
    load_tstamp, event_id, and found_row, the source row as JSON. The second read of the source
    ranks only the copies of such ids. -#}
{% macro rejected_events_sql(lower, upper) %}
    {%- set events = source('tideline', 'events') -%}
    {%- set columns = tideline.source_columns(events) -%}
    {%- set markers = tideline._run_window_markers() -%}
    {% set sql %}
        select reason, load_tstamp, event_id, found_row
        from (
            select
                case when event_id is null then 'no event_id' else 'no derived_tstamp' end as reason,
                load_tstamp, event_id, derived_tstamp,
                to_json(struct({{ columns | join(', ') }})) as found_row,
                {{ markers[1] }} as in_window,
                row_number() over (partition by event_id order by {{ tideline.first_copy_order() }}) as copy_rank
            from {{ events }}
            where {{ markers[0] }}
                and (event_id is null or event_id in (
                    select event_id from {{ events }}
                    where {{ markers[0] }} and {{ markers[1] }} and event_id is not null and derived_tstamp is null
                ))
        ) as copies
        where in_window and (event_id is null or (copy_rank = 1 and derived_tstamp is null))
    {% endset %}
    {{- return(tideline.with_run_window(sql, lower, tideline.ts(upper), upper[:10])) -}}
{% endmacro %}

{#- Under tideline__on_bad_rows, what a run (`run`: its window's facts, window_facts) does with
    the events it rejects, before it writes: nothing more than its count (warn), a refusal
    naming the first (fail), or each set aside in the quarantine of the model whose view is
    `view`, with its feed (the source) and the reason (quarantine). -#}
{% macro handle_rejected_events(model_name, view, run, lower) %}
    {%- set policy = tideline.pipeline_on_bad_rows() -%}
    {%- if policy == 'warn' or run.rows_rejected == 0 -%}{{ return(none) }}{%- endif -%}
    {%- set events = source('tideline', 'events') -%}
    {%- if policy == 'fail' -%}
        {% set first_sql %}
            select reason, cast(load_tstamp as string) as load_tstamp, event_id
            from ({{ tideline.rejected_events_sql(lower, run.upper) }}) as rejected
            order by load_tstamp, event_id
            limit 1
        {% endset %}
        {%- set first = tideline.query_rows(first_sql)[0] -%}
        {{ exceptions.raise_compiler_error("tideline: {}: {} events of {} loaded after {} up to {} have no event_id or no derived_tstamp (the first: loaded {}, event_id {}, {}); nothing was written. Fix them in the source, or set tideline__on_bad_rows to warn (count them) or quarantine (set them aside in {}__tl_quarantine)".format(
            model_name, run.rows_rejected, events, run.lower, run.upper, first.load_tstamp, tideline.shown(first.event_id), first.reason, view.identifier)) }}
    {%- endif -%}
    {% set found_sql %}
        select {{ tideline.literal(events | string) }} as feed, reason, found_row
        from ({{ tideline.rejected_events_sql(lower, run.upper) }}) as rejected
    {% endset %}
    {%- do tideline.quarantine_rows(model_name, view, found_sql) -%}
{% endmacro %}

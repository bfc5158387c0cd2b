{#- Daily aggregates: what they read, filtered_events() or source_events(). -#}

{#- The FROM of a daily aggregate, one of two:

    filtered_events(): tl_filtered_events, the copy of the filtered events. The materialization
      narrows it to the dates it processes (committed rows only); compiled on its own it reads
      them all.

    source_events(): the same filtered events (the same events_this_run() and predicates), read
      from the source itself: the aggregate keeps its own run window over load_tstamp, finds in
      its decide query the dates the window touched, and recomputes them from the source's load
      partitions, from the first load of those dates (less the dedupe lookback) on. One write a
      run instead of two (no tl_filtered_events append), and no wait for tl_filtered_events.
      Compiled on its own it reads every filtered event of the source. tl_filtered_events
      itself is this select, copied window by window. -#}
{% macro filtered_events() %}
(
    select * from {{ ref('tl_filtered_events') }}
    where /* tideline: days to process */ true
) as filtered_events
{%- endmacro %}

{% macro source_events() %}
(
    select *, to_date(derived_tstamp) as event_date
    from {{ tideline.events_this_run() }}
    where
        {{ tideline.usable_event_predicate() }}
        and {{ tideline.filtered_events_predicate() }}
        and /* tideline: source days to process */ true
) as filtered_events
{%- endmacro %}

{#- Which of the two a daily aggregate reads: [its marker, whether it reads the source]. -#}
{% macro _daily_aggregate_input(model_name, model_sql) %}
    {%- for marker in ['/* tideline: days to process */ true', '/* tideline: source days to process */ true'] -%}
        {%- if marker in model_sql -%}{{- return([marker, loop.index == 2]) -}}{%- endif -%}
    {%- endfor -%}
    {{ exceptions.raise_compiler_error("tideline: daily aggregate {} must read its events with `from {}` or `from {}`".format(
        model_name, "{{ tideline.filtered_events() }}", "{{ tideline.source_events() }}")) }}
{% endmacro %}

{#- `model_sql` over source_events() with the loads to read in place of its window markers:
    every copy loaded from `first_load_date` less the dedupe lookback up to `reads_up_to` is
    ranked, and a first copy counts when it was loaded after the first window's lower limit
    (as tl_filtered_events would have kept it). -#}
{% macro _source_loads_to_read(model_sql, first_load_date, reads_up_to) %}
    {%- set lookback = tideline.var_int('tideline__dedupe_lookback_days', 0) -%}
    {%- set markers = tideline._run_window_markers() -%}
    {% set loads %}
        load_date between date_sub(date'{{ first_load_date }}', {{ lookback }}) and date'{{ reads_up_to[:10] }}'
        and load_tstamp <= {{ tideline.ts(reads_up_to) }}
    {% endset %}
    {% set after_start %}
        load_tstamp > {{ tideline.lower_limit(none)[0] }}
    {% endset %}
    {{- return(model_sql | replace(markers[0], loads | trim) | replace(markers[1], after_start | trim)) -}}
{% endmacro %}

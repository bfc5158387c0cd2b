{#- The source events of this run's window, one row per event_id.

    Duplicates are resolved here, deterministically: within the window the first-loaded copy
    wins (then the earliest device time, then the other timestamps and the fingerprint as
    tie-breakers); across runs, a copy whose event_id was already loaded before the window
    (within tideline__dedupe_lookback_days of it, partition-pruned on load_date) loses to that
    earlier copy, whatever its derived_tstamp. Rows without an event_id are kept here (each on
    its own) so that tl_filtered_events can reject and count them. -#}
{{ config(materialized='table') }}

{%- set limits = tideline.current_run_limits() -%}
{%- set lookback = tideline.var_int('tideline__dedupe_lookback_days', 0) -%}
{%- set columns = adapter.get_columns_in_relation(source('tideline', 'events')) if execute else [] -%}
{%- set column_list = columns | map(attribute='name') | join(', ') if columns else '*' -%}

with window_rows as (
    select
        {{ column_list }},
        case when event_id is null then 1 else row_number() over (
            partition by event_id
            order by load_tstamp, dvce_created_tstamp, derived_tstamp, collector_tstamp, event_fingerprint
        ) end as copy_rank
    from {{ source('tideline', 'events') }}
    where {{ tideline.in_run_window(limits) }}
),

loaded_before as (
    select distinct event_id
    from {{ source('tideline', 'events') }}
    where
        load_date between date_sub(date'{{ limits.lower_date }}', {{ lookback }}) and date'{{ limits.lower_date }}'
        and load_tstamp <= {{ tideline.ts(limits.lower) }}
)

select {{ column_list }}
from window_rows
left anti join loaded_before
    on window_rows.event_id = loaded_before.event_id
where window_rows.copy_rank = 1

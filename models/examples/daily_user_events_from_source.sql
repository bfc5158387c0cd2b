-- A daily aggregate over tideline.source_events(): the same filtered events as
-- tl_filtered_events, read from the source itself. It keeps its own run window, finds the dates
-- its window touched and recomputes them from the source's load partitions: one write a run,
-- and it needs no tl_filtered_events run before it. Its rows equal those of the same select over
-- tideline.filtered_events() (here: the same columns of daily_user_activity).
{{ config(materialized='tideline_daily_aggregate') }}

select
    event_date,
    {{ tideline.var_identifier('tideline__attribute_key') }} as attribute_key,
    count(*) as event_count,
    count_if(event_name = 'page_view') as page_views,
    max(derived_tstamp) as last_event_tstamp
from {{ tideline.source_events() }}
group by event_date, attribute_key

-- The same daily aggregate over tideline.source_events(): it reads the source itself, with its
-- own run window, and writes once a run (no tl_filtered_events copy).
{{ config(materialized='tideline_daily_aggregate') }}

select
    event_date,
    domain_userid,
    count_if(event_name = 'page_view') as page_views,
    count(*) as events
from {{ tideline.source_events() }}
group by event_date, domain_userid

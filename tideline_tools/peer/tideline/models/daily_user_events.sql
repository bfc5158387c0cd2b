-- Page views and events per user and event date, as a tideline daily aggregate.
{{ config(materialized='tideline_daily_aggregate') }}

select
    event_date,
    domain_userid,
    count_if(event_name = 'page_view') as page_views,
    count(*) as events
from {{ tideline.filtered_events() }}
group by event_date, domain_userid

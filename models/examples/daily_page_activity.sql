-- A second daily aggregate over the same filtered events: page views and visitors per page.
-- It keeps its own watermark: it catches up by itself when it failed or was added later.
{{ config(materialized='tideline_daily_aggregate') }}

select
    event_date,
    page_urlpath,
    count_if(event_name = 'page_view') as page_views,
    count(distinct domain_userid) as visitors
from {{ tideline.filtered_events() }}
group by event_date, page_urlpath

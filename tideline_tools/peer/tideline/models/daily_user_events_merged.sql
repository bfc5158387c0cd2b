-- The same daily aggregate with its measures declared mergeable (tideline's merge path): a run
-- aggregates only the new filtered events of the dates it processes and appends that part; the
-- model is a view that merges the parts.
{{ config(materialized='tideline_daily_aggregate', measures={'page_views': 'count', 'events': 'count'}) }}

select
    event_date,
    domain_userid,
    count_if(event_name = 'page_view') as page_views,
    count(*) as events
from {{ tideline.filtered_events() }}
group by event_date, domain_userid

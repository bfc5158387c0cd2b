-- The same daily aggregate over tideline.source_events() with its measures declared mergeable:
-- a run reads only the first copies loaded since each processed date's last batch and appends
-- their partial aggregate; the model is a view that merges the parts (no tl_filtered_events).
{{ config(materialized='tideline_daily_aggregate', measures={'page_views': 'count', 'events': 'count'}) }}

select
    event_date,
    domain_userid,
    count_if(event_name = 'page_view') as page_views,
    count(*) as events
from {{ tideline.source_events() }}
group by event_date, domain_userid

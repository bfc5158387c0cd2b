-- Events per day and app, except the app ids a var leaves out: changing that var and
-- backfilling shows a day that lost all its rows being cleared.
{{ config(materialized='tideline_daily_aggregate') }}

select
    event_date,
    app_id,
    count(*) as event_count
from {{ tideline.filtered_events() }}
where app_id not in ('{{ var("consumer__left_out_app", "none") }}')
group by event_date, app_id

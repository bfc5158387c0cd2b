-- Events per day and app, except the app ids a var leaves out: changing that var and
-- backfilling shows a day that lost all its rows being cleared. With consumer__fail the query
-- fails when it runs (the failed-rebuild tests).
{{ config(materialized='tideline_daily_aggregate') }}

select
    event_date,
    app_id,
    count(*) as event_count
from {{ tideline.filtered_events() }}
where app_id not in ('{{ var("consumer__left_out_app", "none") }}')
    {%- if var('consumer__fail', false) %} and raise_error('consumer__fail is set') is null{% endif %}
group by event_date, app_id

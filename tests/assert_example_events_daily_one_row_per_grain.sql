-- Fails (returns rows) when example_events_daily has two rows for one date, app and event name.
select
    event_date,
    app_id,
    event_name,
    count(*) as copies
from {{ ref('example_events_daily') }}
group by event_date, app_id, event_name
having count(*) > 1

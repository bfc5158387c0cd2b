-- Events per event date, app and event name: a plain table over the source, the smallest
-- end-to-end model (it proves the project, the source table and a lookup model work together).
with events as (
    select
        app_id,
        event_name,
        event_id,
        tr_total,
        to_date(derived_tstamp) as event_date
    from {{ source('tideline', 'events') }}
)

select
    events.event_date,
    events.app_id,
    events.event_name,
    event_catalog.event_group,
    count(*) as event_rows,
    count(distinct events.event_id) as distinct_events,
    coalesce(sum(events.tr_total), 0) as revenue
from events
left join {{ ref('tideline_event_catalog') }} as event_catalog
    on events.event_name = event_catalog.event_name
group by events.event_date, events.app_id, events.event_name, event_catalog.event_group

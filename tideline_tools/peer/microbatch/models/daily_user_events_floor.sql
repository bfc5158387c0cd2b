-- Page views and events per user and event date, exact, in plain dbt with the least that
-- tideline's contracts ask of a run (duplicates resolved, state with a commit row written last,
-- a check for dates left without rows): the floor of an exact run with those contracts on this
-- source, as a reference for the peer benchmark. The run is the materialization peer_floor
-- (macros/peer_floor.sql); it puts the run's deduplicated events where peer_floor_events() is.
-- depends_on: {{ source('peer', 'events') }}
{{ config(materialized='peer_floor') }}

select
    domain_userid,
    count_if(event_name = 'page_view') as page_views,
    count(*) as events,
    to_date(derived_tstamp) as event_date
from {{ peer_floor_events() }}
where derived_tstamp >= timestamp'2025-01-01 00:00:00'
group by domain_userid, to_date(derived_tstamp)

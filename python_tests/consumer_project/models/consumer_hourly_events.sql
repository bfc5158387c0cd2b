-- A daily aggregate written wrong: its date column is a timestamp truncated to the hour. Its
-- first build must be refused (a partition per hour is not what a daily aggregate is).
{{ config(materialized='tideline_daily_aggregate') }}

select
    date_trunc('hour', derived_tstamp) as event_date,
    count(*) as event_count
from {{ tideline.filtered_events() }}
group by 1

-- Page views and events per user and event date, by dbt's microbatch strategy: one batch per
-- day, each batch reads the source rows of its day and overwrites its partition.
{{ config(
    materialized='incremental',
    incremental_strategy='microbatch',
    event_time='event_date',
    begin='2025-01-01',
    batch_size='day',
    lookback=3,
    partition_by=['event_date'],
) }}

select
    domain_userid,
    count_if(event_name = 'page_view') as page_views,
    count(*) as events,
    to_date(derived_tstamp) as event_date
from {{ source('peer', 'events') }}
group by domain_userid, to_date(derived_tstamp)

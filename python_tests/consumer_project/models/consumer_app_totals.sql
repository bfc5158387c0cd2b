-- A plain table recomputed on every run (tideline_table: built, then swapped in). With
-- consumer__fail its query fails when it runs, and the table built before must stay.
{{ config(materialized='tideline_table') }}

select app_id, sum(event_count) as event_count
from {{ ref('consumer_daily_events') }}
{%- if var('consumer__fail', false) %}
where raise_error('consumer__fail is set') is null
{%- endif %}
group by app_id

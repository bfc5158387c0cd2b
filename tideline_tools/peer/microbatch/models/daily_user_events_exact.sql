-- Page views and events per user and event date, exact, in plain dbt (no tideline): the
-- shortest exact incremental run dbt allows on this source, as a reference for the peer
-- benchmark. One query finds the event dates the loads since the table's newest load touched;
-- one insert overwrite recomputes those dates whole from the source. It keeps no state but the
-- `loaded_up_to` column, resolves no duplicates, and leans on this simulation's loads: every
-- event is loaded on or after its event date (so the recompute of date d reads the load dates
-- from d on) and none is loaded after the run's now.
{{ config(
    materialized='incremental',
    incremental_strategy='insert_overwrite',
    partition_by=['event_date'],
) }}

{%- set now = peer_now() -%}
{%- set touched = [] -%}
{%- if is_incremental() and execute -%}
    {% set watermark_sql %}
        select cast(max(loaded_up_to) as string) from {{ this }}
    {% endset %}
    {%- set watermark = run_query(watermark_sql).columns[0].values()[0] or '1970-01-01 00:00:00' -%}
    {%- do touched.extend(peer_touched_dates(watermark, now)) -%}
{%- endif %}

select
    domain_userid,
    count_if(event_name = 'page_view') as page_views,
    count(*) as events,
    max(load_tstamp) as loaded_up_to,
    to_date(derived_tstamp) as event_date
from {{ source('peer', 'events') }}
where load_tstamp <= timestamp'{{ now }}' and load_date <= date'{{ now[:10] }}'
    and derived_tstamp >= timestamp'2025-01-01 00:00:00'
{%- if is_incremental() %}
    {%- if touched %}
    and load_date >= date'{{ touched[0] }}'
    and to_date(derived_tstamp) in ({% for d in touched %}date'{{ d }}'{{ ', ' if not loop.last }}{% endfor %})
    {%- else %}
    and false
    {%- endif %}
{%- endif %}
group by domain_userid, to_date(derived_tstamp)

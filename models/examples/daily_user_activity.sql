-- A daily aggregate, as an analyst writes it: one select over the filtered events, grouped by
-- event date and the attribute key. tideline decides which dates to (re)compute.
{{ config(materialized='tideline_daily_aggregate') }}

select
    event_date,
    {{ tideline.var_identifier('tideline__attribute_key') }} as attribute_key,
    count(*) as event_count,
    count_if(event_name = 'page_view') as page_views,
    count_if(event_name = 'page_ping') as page_pings,
    count_if(event_name = 'transaction') as transactions,
    coalesce(sum(tr_total), 0) as revenue,
    min(derived_tstamp) as first_event_tstamp,
    max(derived_tstamp) as last_event_tstamp,
    min_by(os_family, struct(derived_tstamp, event_id)) as first_os_family,
    max_by(os_family, struct(derived_tstamp, event_id)) as last_os_family,
    array_sort(collect_set(os_family)) as os_families
from {{ tideline.filtered_events() }}
group by event_date, attribute_key

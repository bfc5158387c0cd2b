-- An attributes table: dropped and recomputed each run from the daily aggregate, with
-- lifetime values and last-7-days windows relative to tideline's "now".
{{ config(materialized='tideline_table') }}

select
    attribute_key,
    min(event_date) as first_seen_date,
    max(event_date) as last_seen_date,
    min_by(first_os_family, first_event_tstamp) as first_os_family,
    max_by(last_os_family, last_event_tstamp) as last_os_family,
    sum(page_views) as page_views_lifetime,
    {{ tideline.sum_last_n_days('page_views', 7) }} as page_views_last_7_days,
    {{ tideline.sum_last_n_days('page_pings', 7) }} as page_pings_last_7_days,
    sum(transactions) as transactions_lifetime,
    {{ tideline.sum_last_n_days('transactions', 7) }} as transactions_last_7_days,
    sum(revenue) as revenue_lifetime,
    {{ tideline.sum_last_n_days('revenue', 7) }} as revenue_last_7_days,
    {{ tideline.count_last_n_days('event_date', 7) }} as active_days_last_7_days,
    array_sort(array_distinct(flatten(collect_list(os_families)))) as operating_systems
from {{ ref('daily_user_activity') }}
where {{ tideline.in_lifetime() }}
group by attribute_key

-- The same daily aggregate with its measures declared mergeable: a run reads only the new
-- filtered events of the dates it processes and appends their partial aggregate; the model is
-- a view that merges the parts (tideline's merge path). Averages are kept as their parts
-- (revenue and transactions); distinct operating systems as an HLL sketch
-- (hll_sketch_estimate(os_sketch) reads it).
{{ config(materialized='tideline_daily_aggregate', measures={
    'event_count': 'count', 'page_views': 'count', 'page_pings': 'count', 'transactions': 'count',
    'revenue': 'sum', 'first_event_tstamp': 'min', 'last_event_tstamp': 'max',
    'first_os': 'first', 'last_os': 'last', 'os_sketch': 'hll'}) }}

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
    min(struct(derived_tstamp, event_id, os_family)) as first_os,
    max(struct(derived_tstamp, event_id, os_family)) as last_os,
    hll_sketch_agg(os_family) as os_sketch
from {{ tideline.filtered_events() }}
group by event_date, attribute_key

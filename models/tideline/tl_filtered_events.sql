-- The events the daily aggregates are built from: this run's window of the source, one row per
-- event (duplicates resolved in tideline.events_this_run()), usable and wanted. The
-- materialization appends them partitioned by event_date, with the commit columns _tl_batch and
-- _tl_run (see macros/incremental/filtered_events.sql for the four statements of a run).
{{ config(materialized='tideline_filtered_events') }}

select
    *,
    to_date(derived_tstamp) as event_date
from {{ tideline.events_this_run() }}
where
    {{ tideline.usable_event_predicate() }}
    and {{ tideline.filtered_events_predicate() }}

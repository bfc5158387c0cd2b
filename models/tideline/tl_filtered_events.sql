-- The events the daily aggregates are built from: this run's window of the source, one row per
-- event (duplicates resolved in tideline.events_this_run()), usable and wanted
-- (tideline.source_events()). The materialization appends them partitioned by event_date, with
-- the commit columns _tl_batch and _tl_run (see macros/incremental/filtered_events.sql for the
-- four statements of a run).
{{ config(materialized='tideline_filtered_events') }}

select * from {{ tideline.source_events() }}

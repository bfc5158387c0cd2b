-- The daily aggregate of the attribute view consumer_signals_export, with the lateness rules of
-- Signals' batch engine as this project sets them (snowplow__late_event_lookback_days: 1,
-- snowplow__min_late_events_to_process: 3), mapped onto tideline's (docs/attribute_views.md).
{{ config(reprocess_days=var('consumer_late_event_lookback_days', 1), min_rows_to_process=3) }}
{{ tideline.attribute_view_daily_aggregate('consumer_signals_export') }}

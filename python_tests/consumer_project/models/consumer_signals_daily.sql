-- The daily aggregate of the view consumer_signals.
{{ tideline.attribute_view_daily_aggregate('consumer_signals') }}

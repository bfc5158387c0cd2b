-- The daily aggregate of the attribute view user_signals (declared in user_signals.yml).
{{ tideline.attribute_view_daily_aggregate('user_signals') }}

-- The attributes table of the attribute view user_signals (declared in user_signals.yml).
{{ tideline.attribute_view_table('user_signals_daily') }}

-- The attributes of the view consumer_signals.
{{ tideline.attribute_view_table('consumer_signals_daily') }}

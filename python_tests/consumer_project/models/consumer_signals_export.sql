-- The attributes table of the attribute view consumer_signals_export (Signals' export, in consumer_signals_export.yml).
{{ tideline.attribute_view_table('consumer_signals_export_daily') }}

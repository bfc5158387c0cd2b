-- The idle-sensor pattern with the readings' load time declared as the loader's clock
-- (clock=true): the hour's delay is released by the clock, so a sensor is published as silent
-- an hour after its last reading even when no sensor reports again (idle_sensors waits for the
-- next reading of any sensor).
{{ config(
    materialized='derivation',
    unique_key='reading_id',
    derived_columns={'reading_id': 'bigint', 'sensor': 'string', 'silent_since': 'timestamp'},
    registers={'last_seen': {'type': 'timestamp', 'initial': none}},
) }}

{{ idle_sensor_transforms(clock=true) }}

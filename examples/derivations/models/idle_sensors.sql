-- Flow's idle-sensor pattern: one transform keeps each sensor's newest reading time in a
-- register; a second one reads the same readings an hour later and publishes the reading
-- after which the sensor fell silent when the register has not moved past it
-- (macros/idle_sensor_transforms.sql).
{{ config(
    materialized='derivation',
    unique_key='reading_id',
    derived_columns={'reading_id': 'bigint', 'sensor': 'string', 'silent_since': 'timestamp'},
    registers={'last_seen': {'type': 'timestamp', 'initial': none}},
) }}

{{ idle_sensor_transforms(clock=false) }}

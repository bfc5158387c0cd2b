-- A misspelt key of mutability.type_params (alng): refused by name before anything is written.
{{ config(materialized='mutability', mutability={'type': 'append_only', 'type_params': {'alng': 'reading_id'}}) }}
select reading_id, sensor, reading_value from {{ var('mutability__source') }}.readings

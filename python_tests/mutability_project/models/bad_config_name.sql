-- A misspelt config key (update_crn): refused by name before anything is written.
{{ config(materialized='append_only', along='reading_id', update_crn='*/30 * * * *') }}
select reading_id, sensor, reading_value from {{ var('mutability__source') }}.readings

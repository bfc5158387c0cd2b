-- The same rule when the SQL ignores the bounds: tideline adds the filter itself. Declared in
-- the seed's shape (materialized='mutability').
{{ config(materialized='mutability', mutability={'type': 'append_only', 'type_params': {
    'along': var('mutability__along', 'reading_id'), 'min': var('mutability__min', 0), 'max': 1000000000,
    'update_cron': var('mutability__cron', '*/30 * * * *'), 'max_along_values': var('mutability__max_along_values', none)}}) }}
select reading_id, sensor, reading_value from {{ var('mutability__source') }}.readings

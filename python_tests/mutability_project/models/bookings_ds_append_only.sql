-- The seed's example: parameterized on ds through the bounds.
{{ config(materialized='ds_append_only', update_cron='0 0 * * *', settle=var('mutability__settle', 0)) }}
select booking_id, ds from {{ var('mutability__source') }}.fct_bookings
where ds between '{{ tideline.along_min() }}' and '{{ tideline.along_max() }}'

{#- This run's window over load_tstamp (see macros/incremental/run_limits.sql for the rule).
    Rebuilt every run; one row. -#}
{{ config(materialized='table') }}

{%- set refresh_filtered = flags.FULL_REFRESH and 'model.tideline.tl_filtered_events' in selected_resources -%}
{%- set limits = tideline.run_limits(full_refresh=refresh_filtered) if execute else none -%}

select
    {{ tideline.ts(limits.lower if limits else '1970-01-01 00:00:00') }} as lower_limit,
    {{ tideline.ts(limits.upper if limits else '1970-01-01 00:00:00') }} as upper_limit,
    {{ tideline.ts(limits.next_load if limits else none) }} as next_load,
    {{ 'true' if (limits and limits.first_run) else 'false' }} as first_run,
    {{ tideline.ts(limits.now if limits else '1970-01-01 00:00:00') }} as run_now

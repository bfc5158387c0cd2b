{#- The events the daily aggregates are built from, partitioned by event date for pruning.

    Each run rewrites only the dates its window touches (partition overwrite): a date's new
    contents are its committed rows plus this run's rows. Rows of a run that died before its
    commit carry an uncommitted _tl_batch and are left out here, which makes a rerun exact.
    Every row carries load_tstamp (when the loader wrote it) and _tl_batch (the upper limit of
    the run that added it: the commit time downstream models keep their watermarks over). -#}
{{ config(
    materialized='incremental',
    incremental_strategy='insert_overwrite',
    partition_by=['event_date'],
    on_schema_change='fail',
    pre_hook="{{ tideline.reset_filtered_events() }}",
    post_hook="{{ tideline.commit_filtered_events() }}",
) }}

{%- set limits = tideline.current_run_limits() -%}
{%- set dates = tideline.touched_dates(limits) -%}

with new_events as (
    select
        *,
        {{ tideline.ts(limits.upper) }} as _tl_batch,
        to_date(derived_tstamp) as event_date
    from {{ ref('tl_events_this_run') }}
    where {{ tideline.usable_event_predicate() }} and {{ tideline.filtered_events_predicate() }}
),

committed_rows as (
    {%- if is_incremental() %}
        select *
        from {{ this }}
        where
            event_date in {{ tideline.date_list(dates) }}
            and _tl_batch in ({{ tideline.committed_batches_sql('tl_filtered_events') }})
    {%- else %}
        select * from new_events
        where false
    {%- endif %}
)

select * from committed_rows
union all
select * from new_events

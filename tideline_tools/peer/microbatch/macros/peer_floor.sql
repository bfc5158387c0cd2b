{#- The floor of an exact run with tideline's contracts, in plain dbt (no tideline), for the peer
    benchmark (model daily_user_events_floor). The plain exact model (daily_user_events_exact)
    plus the least a run needs to keep tideline's contracts on this source:

      * duplicates resolved: the first copy of an event_id by load time wins (tideline's order);
      * state and a commit: the watermark lives in a state table, and the run's commit row is
        written after its data (a run that dies before it leaves the watermark where it was, and
        the next run recomputes the same dates: crash, rerun, same result);
      * a check after the write: a recomputed date that has no rows any more keeps its old
        partition under a dynamic overwrite, so the check finds such dates and drops them.

    What tideline does beyond it: load checks (rows without a load time, loaded after now, in the
    wrong load_date partition), per-date skip accounting (reprocess_days, min_rows_to_process),
    run counts, the _tl_batch/_tl_run columns and the input checks of its hooks. A reference for
    the benchmark, not a product: it trusts this simulation's loads as the plain model does. -#}

{#- Where the model reads its events: the materialization puts the deduplicated window here. -#}
{% macro peer_floor_events() %}__PEER_FLOOR_EVENTS__{% endmacro %}

{#- The source's events up to now, first copies only, from the load dates that can hold the
    recomputed dates (none: every load date, for the first build). -#}
{% macro peer_floor_window(now, dates) %}
    {% set sql %}
        (
            select *
            from (
                select
                    *,
                    row_number() over (
                        partition by event_id
                        order by load_tstamp, dvce_created_tstamp, derived_tstamp, collector_tstamp, event_fingerprint
                    ) as copy_rank
                from {{ source('peer', 'events') }}
                where load_tstamp <= timestamp'{{ now }}' and load_date <= date'{{ now[:10] }}'
                    {%- if dates %} and load_date >= date_sub(date'{{ dates[0] }}', 3){% endif %}
            ) as copies
            where copy_rank = 1
                {%- if dates %} and to_date(derived_tstamp) in ({{ peer_floor_date_list(dates) }}){% endif %}
        ) as events
    {% endset %}
    {{- return(sql) -}}
{% endmacro %}

{% macro peer_floor_date_list(dates) -%}
    {%- for d in dates %}date'{{ d }}'{{ ', ' if not loop.last }}{% endfor -%}
{%- endmacro %}

{% macro peer_floor_one_column(sql) %}
    {{- return(run_query(sql).columns[0].values() | list) -}}
{% endmacro %}

{% materialization peer_floor, adapter='spark' %}
    {%- set now = peer_now() -%}
    {%- set state = this.schema ~ '.' ~ this.identifier ~ '__state' -%}
    {%- set built = adapter.get_relation(database=none, schema=this.schema, identifier=this.identifier) is not none -%}
    {%- set has_state = adapter.get_relation(database=none, schema=this.schema, identifier=this.identifier ~ '__state') is not none -%}
    {%- set watermark = none -%}
    {%- if built and has_state -%}
        {#- 1. the watermark: the newest committed run's -#}
        {% set watermark_sql %}
            select cast(max(watermark) as string) from {{ state }}
        {% endset %}
        {%- set watermark = peer_floor_one_column(watermark_sql)[0] -%}
    {%- endif -%}

    {%- if watermark is none -%}
        {#- the first build (or a build whose first run died before its commit): everything -#}
        {%- if not has_state -%}
            {% call statement('create_state') %}
                create table {{ state }} (watermark timestamp) using {{ config.get('file_format', 'parquet') }}
            {% endcall %}
        {%- endif -%}
        {%- if built -%}{%- do adapter.drop_relation(this.incorporate(type='table')) -%}{%- endif -%}
        {% call statement('main') %}
            create table {{ this }} using {{ config.get('file_format', 'parquet') }} partitioned by (event_date) as
            {{ sql | replace(peer_floor_events(), peer_floor_window(now, none)) }}
        {% endcall %}
    {%- else -%}
        {#- 2. the event dates the loads since the watermark touched -#}
        {%- set dates = peer_touched_dates(watermark, now) -%}
        {%- if dates -%}
            {#- 3. recompute them whole -#}
            {% call statement('main') %}
                insert overwrite table {{ this }} partition (event_date)
                {{ sql | replace(peer_floor_events(), peer_floor_window(now, dates)) }}
            {% endcall %}
            {#- 4. the check: a recomputed date without rows kept its old partition: drop it -#}
            {% set written_sql %}
                select distinct cast(event_date as string) from {{ this }}
                where event_date in ({{ peer_floor_date_list(dates) }})
            {% endset %}
            {%- set written = peer_floor_one_column(written_sql) -%}
            {%- for d in dates if d not in written -%}
                {% call statement('drop_emptied_date') %}
                    {%- if config.get('file_format', 'parquet') in ('delta', 'iceberg') %}
                    delete from {{ this }} where event_date = date'{{ d }}'
                    {%- else %}
                    alter table {{ this }} drop if exists partition (event_date = date'{{ d }}')
                    {%- endif %}
                {% endcall %}
            {%- endfor -%}
        {%- endif -%}
    {%- endif -%}

    {#- 5. the commit, last (dbt's 'main' when no data was written) -#}
    {% call statement('commit' if watermark is none or dates else 'main') %}
        insert into {{ state }} values (timestamp'{{ now }}')
    {% endcall %}
    {{ return({'relations': [this.incorporate(type='table')]}) }}
{% endmaterialization %}

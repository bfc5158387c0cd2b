{#- The event dates ('YYYY-MM-DD', sorted) that the source rows loaded after `watermark` and up
    to `now` touched: the one query with which both plain exact models (daily_user_events_exact,
    daily_user_events_floor) find what to recompute. -#}
{% macro peer_touched_dates(watermark, now) %}
    {% set touched_sql %}
        select distinct cast(to_date(derived_tstamp) as string)
        from {{ source('peer', 'events') }}
        where load_date between date'{{ watermark[:10] }}' and date'{{ now[:10] }}'
            and load_tstamp > timestamp'{{ watermark }}' and load_tstamp <= timestamp'{{ now }}'
    {% endset %}
    {{- return(run_query(touched_sql).columns[0].values() | reject('none') | sort) -}}
{% endmacro %}

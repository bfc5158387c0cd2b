{#- Daily aggregates: the two paths a daily aggregate reads its events by, as strategies
    (see _daily_rows_to_write). -#}

{#- source_events(): the source's loads that hold the processed dates, from the first load of
    those dates (less the dedupe lookback) up to what this run reads. -#}
{% macro default__daily_rows_source_events(model_sql, marker, plan, process_dates) %}
    {%- set first_loads = plan.dates | selectattr('processed') | map(attribute='first_load') | reject('none') | list -%}
    {%- set first_load_date = plan.lower[1] if plan.first_build or not first_loads else (first_loads | min)[:10] -%}
    {%- set filtered_rows -%}
        {%- if plan.first_build %}true{% else %}to_date(derived_tstamp) in {{ tideline.date_list(process_dates) }}{% endif -%}
    {%- endset -%}
    {%- set read_sql = tideline._source_loads_to_read(model_sql, first_load_date, plan.reads_up_to) -%}
    {{- return(tideline._daily_rows_sql(read_sql, marker, filtered_rows, plan.reads_up_to)) -}}
{% endmacro %}

{#- filtered_events(): the committed filtered events of the processed dates. -#}
{% macro default__daily_rows_filtered_events(model_sql, marker, plan, process_dates) %}
    {%- set filtered_rows -%}
        {%- if plan.first_build %}true{% else %}event_date in {{ tideline.date_list(process_dates) }}{% endif %}
        and _tl_batch <= {{ tideline.ts(plan.reads_up_to) }}
    {%- endset -%}
    {{- return(tideline._daily_rows_sql(model_sql, marker, filtered_rows, plan.reads_up_to)) -}}
{% endmacro %}

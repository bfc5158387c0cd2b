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

{#- The merge path's part (daily_merge.sql): the new events of each processed date, those loaded
    after the batch the date was last processed at (of a date never processed, all of them).

    filtered_events(): the committed filtered events of those batches (new_rows_of_dates_sql). -#}
{% macro default__daily_new_rows_filtered_events(model_sql, marker, plan, processed) %}
    {{- return(tideline._daily_rows_sql(model_sql, marker, tideline.new_rows_of_dates_sql(processed, plan.reads_up_to), plan.reads_up_to)) -}}
{% endmacro %}

{#- source_events(): the source's loads from the oldest of those batches (or first loads, less
    the dedupe lookback) up to what this run reads; a first copy counts for its date when it
    was loaded after the date's batch (new_source_rows_of_dates_sql). -#}
{% macro default__daily_new_rows_source_events(model_sql, marker, plan, processed) %}
    {%- set lowers = [] -%}
    {%- for d in processed -%}{%- do lowers.append(d.processed_batch or d.first_load or plan.lower[2]) -%}{%- endfor -%}
    {%- set read_sql = tideline._source_loads_to_read(model_sql, (lowers | min)[:10], plan.reads_up_to) -%}
    {{- return(tideline._daily_rows_sql(read_sql, marker, tideline.new_source_rows_of_dates_sql(processed), plan.reads_up_to)) -}}
{% endmacro %}

{#- Which source events a run keeps, and which copy of a duplicated event_id. -#}

{#- Which events of the window tl_filtered_events keeps: a derived_tstamp on or after the start
    date (late-loaded events from before it are ignored), a wanted app_id and event name (an
    empty list wants all). -#}
{% macro filtered_events_predicate() %}
    {%- set app_ids = tideline.var_string_list('tideline__app_id') -%}
    {%- set names = tideline.var_string_list('tideline__events_to_include') -%}
    derived_tstamp >= {{ tideline.ts('{} 00:00:00'.format(tideline.var_date('tideline__start_date'))) }}
    {%- if app_ids %} and app_id in {{ tideline.string_list(app_ids) }}{% endif %}
    {%- if names %} and event_name in {{ tideline.string_list(names) }}{% endif %}
{% endmacro %}

{#- Events without a usable event_id or derived_tstamp are rejected and counted (rows_rejected). -#}
{% macro usable_event_predicate() %}
    event_id is not null and derived_tstamp is not null
{% endmacro %}

{#- The order in which copies of one event_id compete: the first-loaded copy wins, then the
    earliest device time, then the other timestamps and the fingerprint as tie-breakers. -#}
{% macro first_copy_columns() %}
    {{- return(['load_tstamp', 'dvce_created_tstamp', 'derived_tstamp', 'collector_tstamp', 'event_fingerprint']) -}}
{% endmacro %}

{#- The same order, for an `order by`. -#}
{% macro first_copy_order() %}
    {{- tideline.first_copy_columns() | join(', ') -}}
{%- endmacro %}

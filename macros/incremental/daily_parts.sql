{#- Attributes: the parts a daily aggregate keeps per day, over the filtered events. -#}

{#- ---- The parts a daily aggregate keeps per day (over the filtered events) ------------------

    First and last values are kept as struct(derived_tstamp, event_id, val): the order of the
    events, then the value. min() of these structs is the first event's, max() the last
    event's, within a day and again across days (ties on derived_tstamp go by event_id, the
    smallest first, the largest last). Null values are left out: the first known value; with
    skip_nulls false they are kept: the value at the first (last) event matching `condition`,
    null or not. -#}
{% macro daily_first(expression, condition='true', skip_nulls=true) %}
    min(case when {{ condition }}{% if skip_nulls %} and ({{ expression }}) is not null{% endif %} then struct(derived_tstamp, event_id, {{ expression }} as val) end)
{%- endmacro %}

{% macro daily_last(expression, condition='true', skip_nulls=true) %}
    max(case when {{ condition }}{% if skip_nulls %} and ({{ expression }}) is not null{% endif %} then struct(derived_tstamp, event_id, {{ expression }} as val) end)
{%- endmacro %}

{#- The distinct non-null values of a day, sorted. -#}
{% macro daily_unique_list(expression, condition='true') %}
    array_sort(collect_set(case when {{ condition }} then {{ expression }} end))
{%- endmacro %}

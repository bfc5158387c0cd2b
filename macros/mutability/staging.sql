{#- Mutability, append_only: a run's new rows, staged in a cached temporary view and dropped
    after the write (or the refusal). -#}

{#- The run's new rows, cached as the temporary view `staged` (new_rows_sql). -#}
{% macro _stage_new_rows(staged, columns, along, window) %}
    {%- do tideline.exec('drop view if exists {}'.format(staged)) -%}
    {% set stage_sql %}
        cache table {{ staged }} as
        {{ tideline.new_rows_sql(sql, columns, along, window) }}
    {% endset %}
    {%- do tideline.exec(stage_sql) -%}
{% endmacro %}

{#- The model's rows within the window, `along` last (the partition column). The filter is
    added also when the SQL ignores the bounds (the seed's outer WHERE). -#}
{% macro new_rows_sql(model_sql, columns, along, window) %}
    {% set rows_sql %}
        select {{ columns | reject('equalto', along) | join(', ') }}{{ ', ' if columns | length > 1 }}{{ along }}
        from ({{ model_sql }}) as model_rows
        where {{ along }} {{ window.op }} {{ tideline.literal(window.low) }} and {{ along }} <= {{ tideline.literal(window.high) }}
    {% endset %}
    {{- return(rows_sql) -}}
{% endmacro %}

{% macro _drop_staged(staged) %}
    {%- do tideline.exec('uncache table if exists {}'.format(staged)) -%}
    {%- do tideline.exec('drop view if exists {}'.format(staged)) -%}
{% endmacro %}

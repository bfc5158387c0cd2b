{#- Remove the rows of some dates (a daily aggregate's dates that became empty), by format. -#}
{% macro delete_dates(relation, column, dates, format) %}
    {%- if dates | length == 0 -%}{{ return(none) }}{%- endif -%}
    {%- set strategy = {'parquet': adapter.dispatch('delete_dates_parquet', 'tideline'),
                         'delta': adapter.dispatch('delete_dates_delta', 'tideline'),
                         'iceberg': adapter.dispatch('delete_dates_iceberg', 'tideline')}[format] -%}
    {%- do strategy(relation, column, dates) -%}
{% endmacro %}

{#- parquet: drop the dates' partitions (a metastore step; no file is rewritten). -#}
{% macro default__delete_dates_parquet(relation, column, dates) %}
    {% call statement('delete_dates', fetch_result=false) %}
        alter table {{ relation }} drop if exists
        {%- for d in dates %}
            partition ({{ column }} = date'{{ (d | string)[:10] }}'){{ ',' if not loop.last }}
        {%- endfor %}
    {% endcall %}
{% endmacro %}

{#- delta: one delete (Delta has no partitions to drop; the delete removes whole files). -#}
{% macro default__delete_dates_delta(relation, column, dates) %}
    {% call statement('delete_dates', fetch_result=false) %}
        delete from {{ relation }}
        where {{ column }} in {{ tideline.date_list(dates) }}
    {% endcall %}
{% endmacro %}

{#- iceberg: the same delete as delta (a delete of whole partitions drops their files). -#}
{% macro default__delete_dates_iceberg(relation, column, dates) %}
    {%- do tideline.default__delete_dates_delta(relation, column, dates) -%}
{% endmacro %}

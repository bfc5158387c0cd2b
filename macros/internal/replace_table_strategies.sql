{#- replace_table by format: dispatched strategies a project may override as
    replace_table_<format>. -#}

{#- parquet: build <name>__tl_new beside the old relation (a table, or a view another
    materialization left), then drop the old one and rename the new one in its place; a select
    that fails leaves the old table as it was. -#}
{% macro default__replace_table_parquet(relation, select_sql, partition_by, existing) %}
    {%- do tideline.build_beside_and_swap(relation, select_sql, partition_by, existing, 'parquet') -%}
{% endmacro %}

{#- delta: one `create or replace table`, one commit: readers see the old version or the new.
    A relation that is not a Delta table yet (a view, a parquet table: a --full-refresh that
    converts it) is built beside and swapped in. -#}
{% macro default__replace_table_delta(relation, select_sql, partition_by, existing) %}
    {%- if existing is not none and (existing.type == 'view' or not existing.is_delta) -%}
        {%- do tideline.build_beside_and_swap(relation, select_sql, partition_by, existing, 'delta') -%}
    {%- else -%}
        {% call statement('build', fetch_result=false) %}
            create or replace table {{ relation }}
            using delta
            {%- if partition_by %} partitioned by ({{ partition_by }}){% endif %}
            as {{ select_sql }}
        {% endcall %}
    {%- endif -%}
{% endmacro %}

{#- iceberg: one `create or replace table` of the Iceberg catalog's table, one snapshot:
    readers see the old snapshot or the new. (The relation is the stored table, see storage.sql.) -#}
{% macro default__replace_table_iceberg(relation, select_sql, partition_by, existing) %}
    {% call statement('build', fetch_result=false) %}
        create or replace table {{ relation }}
        using iceberg
        {%- if partition_by %} partitioned by ({{ partition_by }}){% endif %}
        {{ tideline.table_properties_sql('iceberg') }}
        as {{ select_sql }}
    {% endcall %}
{% endmacro %}

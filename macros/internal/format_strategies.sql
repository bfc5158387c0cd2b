{#- The per-format strategies of the table operations (see formats.sql for the table). Each
    public macro looks its strategy up by name, so that a project can override one. -#}

{#- Replace a table's contents with a select, leaving readers the old table until the new one
    is complete. partition_by: a column list (string or list), or none. -#}
{% macro replace_table(relation, select_sql, partition_by, existing, format) %}
    {%- set columns = partition_by | join(', ') if partition_by is iterable and partition_by is not string else partition_by -%}
    {%- set strategy = {'parquet': adapter.dispatch('replace_table_parquet', 'tideline'),
                         'delta': adapter.dispatch('replace_table_delta', 'tideline'),
                         'iceberg': adapter.dispatch('replace_table_iceberg', 'tideline')}[format] -%}
    {%- do strategy(relation, select_sql, columns, existing) -%}
{% endmacro %}

{% macro build_beside_and_swap(relation, select_sql, partition_by, existing, format) %}
    {%- set staged = relation if existing is none else relation.incorporate(path={'identifier': '{}__tl_new'.format(relation.identifier)}) -%}
    {%- if existing is not none -%}
        {% call statement('drop_staged', fetch_result=false) %}
            drop table if exists {{ staged }}
        {% endcall %}
    {%- endif -%}
    {% call statement('build', fetch_result=false) %}
        create table {{ staged }}
        using {{ format }}
        {%- if partition_by %} partitioned by ({{ partition_by }}){% endif %}
        as {{ select_sql }}
    {% endcall %}
    {%- if existing is not none -%}
        {%- do adapter.drop_relation(existing) -%}
        {% call statement('swap', fetch_result=false) %}
            alter table {{ staged }} rename to {{ relation }}
        {% endcall %}
    {%- endif -%}
{% endmacro %}

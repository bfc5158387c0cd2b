{#- The versions of a table a continual task reads by time travel (versions.sql), one strategy
    per format, each one statement: {'versions': [{'time': UTC text, 'id'}] oldest first,
    'complete': whether the oldest version kept is the table's first}. A project may override
    either (dispatch: [{macro_namespace: tideline, search_order: [<project>, tideline]}]). -#}

{#- Delta: `describe history` (a command, not a subquery), every version its log keeps. -#}
{% macro default__table_versions_delta(relation) %}
    {% set sql %}
        describe history {{ relation }}
    {% endset %}
    {%- set versions = [] -%}
    {%- for row in run_query(sql).rows -%}
        {%- do versions.append({'time': tideline.version_time(row['timestamp']), 'id': row['version'] | int}) -%}
    {%- endfor -%}
    {%- set versions = versions | sort(attribute='id') -%}
    {{- return({'versions': versions, 'complete': not versions or versions[0].id == 0}) -}}
{% endmacro %}

{#- Iceberg: the history metadata table, each snapshot that was made current (as Iceberg's own
    TIMESTAMP AS OF reads it); the first one kept is the table's first when it has no parent. -#}
{% macro default__table_versions_iceberg(relation) %}
    {% set sql %}
        select cast(made_current_at as string) as made_current_at, cast(snapshot_id as string) as snapshot_id, parent_id is null as first
        from {{ relation }}.history
        order by made_current_at
    {% endset %}
    {%- set rows = tideline.query_rows(sql) -%}
    {%- set versions = [] -%}
    {%- for row in rows -%}{%- do versions.append({'time': tideline.version_time(row.made_current_at), 'id': row.snapshot_id}) -%}{%- endfor -%}
    {{- return({'versions': versions, 'complete': not rows or rows[0]['first']}) -}}
{% endmacro %}

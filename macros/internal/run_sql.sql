{#- Sending SQL and reading what comes back, for every capability. -#}

{#- Run a statement that returns no rows. Over Thrift, run_query() of such a statement fails
    inside PyHive, so DDL and DML go through adapter.execute(fetch=False). -#}
{% macro exec(sql) %}
    {%- do adapter.execute(sql, auto_begin=False, fetch=False) -%}
{% endmacro %}

{#- The rows of a query as a list of dicts by column name (empty list when none): read them by
    name (`row.frontier`, `row['col_name']`), never by position. Times come back as text
    ('YYYY-MM-DD HH:MM:SS.ffffff', dates 'YYYY-MM-DD') whatever the adapter or agate made of
    them, so they can go straight back into SQL through ts() and date_list(). -#}
{% macro query_rows(sql) %}
    {%- set result = run_query(sql) -%}
    {%- set rows = [] -%}
    {%- for row in result.rows -%}
        {%- set named = {} -%}
        {%- for name in result.column_names -%}
            {%- do named.update({name: tideline._as_sql_text(row[name])}) -%}
        {%- endfor -%}
        {%- do rows.append(named) -%}
    {%- endfor -%}
    {{- return(rows) -}}
{% endmacro %}

{#- A value of a query result as query_rows() gives it: times and dates as text, else as it is. -#}
{% macro _as_sql_text(value) %}
    {%- if value is not none and value is not string and value.hour is defined -%}
        {{- return(value.strftime('%Y-%m-%d %H:%M:%S.%f')) -}}
    {%- elif value is not none and value is not string and value.isoformat is defined -%}
        {{- return(value.strftime('%Y-%m-%d')) -}}
    {%- endif -%}
    {{- return(value) -}}
{% endmacro %}

{#- Daily aggregates: a backfill's dates and the date column, checked before anything is written. -#}

{% macro _daily_backfill_dates() %}
    {%- set value = tideline.tl_var('tideline__backfill_dates') -%}
    {%- if value is none -%}{{ return(none) }}{%- endif -%}
    {%- set ok = value is iterable and value is not string and value is not mapping and value | length == 2 -%}
    {%- set days = [] -%}
    {%- if ok -%}
        {%- for v in value -%}
            {%- set m = modules.re.match('^(\d{4})-(\d{2})-(\d{2})$', v | string) -%}
            {%- if m and tideline._is_calendar_date(m.group(1) | int, m.group(2) | int, m.group(3) | int) -%}
                {%- do days.append(v | string) -%}
            {%- endif -%}
        {%- endfor -%}
    {%- endif -%}
    {%- if days | length != 2 or days[0] > days[1] or days[1] >= tideline.now()[:10] -%}
        {{ tideline._var_error('tideline__backfill_dates', value, "[first, last]: two past dates YYYY-MM-DD, first <= last < today") }}
    {%- endif -%}
    {{- return(days) -}}
{% endmacro %}

{#- A backfill that cannot run, with the reason. -#}
{% macro _refuse_backfill(model_name, reason) %}
    {{ exceptions.raise_compiler_error("tideline: cannot backfill {}: {}".format(model_name, reason)) }}
{% endmacro %}

{#- A first build (or --full-refresh) checks the select's date column before writing: it must
    be there and be a date, since it is the partition column (a timestamp truncated to the hour
    would make every hour a partition, and days_to_process works in days). One `describe
    query`: Spark plans the select without running it. -#}
{% macro check_date_column(model_name, select_sql, date_column) %}
    {%- set types = {} -%}
    {%- for row in tideline.query_rows('describe query {}'.format(select_sql)) -%}{%- do types.update({row.col_name | lower: row.data_type | lower}) -%}{%- endfor -%}
    {%- if types.get(date_column | lower) != 'date' -%}
        {%- set found = "is {}".format(types[date_column | lower]) if date_column | lower in types else "is not in its select (columns: {})".format(types.keys() | join(', ')) -%}
        {{ exceptions.raise_compiler_error("tideline: daily aggregate {model}: its date column {column} {found}; it must be a date, one partition per day (e.g. to_date(derived_tstamp) as {column}, or set config date_column to the select's date column)".format(
            model=model_name, column=date_column, found=found)) }}
    {%- endif -%}
{% endmacro %}

{#- The TBLPROPERTIES tideline gives the tables it creates. -#}

{#- The table properties tideline gives every table it creates in `format`, as {name: value}:
    for iceberg, each commit deletes the table's metadata files beyond the newest 100 (Iceberg
    keeps every one by default: an hourly model would gather 8,760 a year). -#}
{% macro format_table_properties(format) %}
    {%- if format != 'iceberg' -%}{{ return({}) }}{%- endif -%}
    {{- return({'write.metadata.delete-after-commit.enabled': 'true', 'write.metadata.previous-versions-max': '100'}) -}}
{% endmacro %}

{#- format_table_properties(format) (and `extra`) as a `tblproperties (...)` clause, or nothing. -#}
{% macro table_properties_sql(format, extra={}) %}
    {%- set props = tideline.format_table_properties(format) -%}
    {%- do props.update(extra) -%}
    {%- if not props -%}{{ return('') }}{%- endif -%}
    {%- set items = [] -%}
    {%- for k, v in props.items() -%}{%- do items.append('{} = {}'.format(tideline.literal(k | string), tideline.literal(v | string))) -%}{%- endfor -%}
    {{- return('tblproperties ({})'.format(items | join(', '))) -}}
{% endmacro %}

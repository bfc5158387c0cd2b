{#- A source's rows written after a moment, by the source's format: what locates the rows found
    behind a watermark (behind_watermark_rows.sql). Each format's way is a strategy a project
    can override (adapter.dispatch, namespace tideline): rows_written_after_files (parquet, and
    the others' fallback) here, rows_written_after_delta and rows_written_after_iceberg in
    written_after_versions.sql. Each returns {'sql': a select of the rows, or none, 'why': why
    none}. -#}

{#- The rows of `relation` that satisfy `condition` (SQL over its columns) and were written
    after `read_at` (a UTC time, as text). A view has no files or versions of its own. -#}
{% macro rows_written_after(relation, read_at, condition) %}
    {%- if relation.type == 'view' -%}{{ return({'sql': none, 'why': '{} is a view'.format(relation)}) }}{%- endif -%}
    {%- set format = tideline.relation_file_format(relation) -%}
    {%- if format == 'delta' -%}{{ return(adapter.dispatch('rows_written_after_delta', 'tideline')(relation, read_at, condition)) }}{%- endif -%}
    {%- if format == 'iceberg' -%}{{ return(adapter.dispatch('rows_written_after_iceberg', 'tideline')(relation, read_at, condition)) }}{%- endif -%}
    {{- return(adapter.dispatch('rows_written_after_files', 'tideline')(relation, read_at, condition)) -}}
{% endmacro %}

{#- parquet: the rows of the files written after it (Spark's file metadata). A rewrite of the
    source's files since (a compaction) makes its old rows look new. -#}
{% macro default__rows_written_after_files(relation, read_at, condition) %}
    {% set sql %}
        select * from {{ relation }}
        where _metadata.file_modification_time > {{ tideline.ts(read_at) }} and ({{ condition }})
    {% endset %}
    {{- return({'sql': sql, 'why': none}) -}}
{% endmacro %}

{#- The rows the table holds now and did not hold at `version_clause` (`version as of <n>`), of
    those that satisfy `condition`: a compaction since changes nothing. `version_clause` none:
    the version then is the newest, so none. -#}
{% macro rows_since_version_sql(relation, version_clause, condition) %}
    {% set sql %}
        {%- if version_clause is none %}
        select * from {{ relation }} where false
        {%- else %}
        select * from {{ relation }} where {{ condition }}
        except all
        select * from {{ relation }} {{ version_clause }} where {{ condition }}
        {%- endif %}
    {% endset %}
    {{- return(sql) -}}
{% endmacro %}

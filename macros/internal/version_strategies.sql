{#- A table's current version, by format: what a reader's view names to read the table as it was
    when the view was made (`<table> version as of <version>`), so that later writes to the
    table reach readers only when the view is replaced. -#}

{#- The current version of `relation` as a time-travel clause (`version as of <n>`), or none when
    the format has no versions (parquet). -#}
{% macro table_version_clause(relation, format) %}
    {%- set strategy = {'parquet': adapter.dispatch('table_version_parquet', 'tideline'),
                         'delta': adapter.dispatch('table_version_delta', 'tideline'),
                         'iceberg': adapter.dispatch('table_version_iceberg', 'tideline')}[format] -%}
    {%- set version = strategy(relation) -%}
    {{- return(none if version is none else 'version as of {}'.format(version)) -}}
{% endmacro %}

{#- parquet: no versions. -#}
{% macro default__table_version_parquet(relation) %}
    {{- return(none) -}}
{% endmacro %}

{#- delta: the version of the newest commit in the table's log. -#}
{% macro default__table_version_delta(relation) %}
    {% set sql %}
        describe history {{ relation }} limit 1
    {% endset %}
    {{- return(tideline.query_rows(sql)[0].version | int) -}}
{% endmacro %}

{#- iceberg: the snapshot the table's main branch points at. -#}
{% macro default__table_version_iceberg(relation) %}
    {% set sql %}
        select snapshot_id from {{ relation }}.refs where name = 'main'
    {% endset %}
    {{- return(tideline.query_rows(sql)[0].snapshot_id | int) -}}
{% endmacro %}

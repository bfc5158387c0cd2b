{#- Delta's and Iceberg's ways to the rows written after a moment (written_after_strategies.sql):
    the table's version at that moment, from its own history, then the rows it holds now and
    did not hold then (rows_since_version_sql). -#}

{#- Delta: the newest version committed at or before `read_at` (describe history). When the
    table's log no longer reaches back to it (its retention), the files' times instead. -#}
{% macro default__rows_written_after_delta(relation, read_at, condition) %}
    {% set sql %}
        describe history {{ relation }}
    {% endset %}
    {%- set moment = tideline.shift_time(read_at, 0) -%}
    {%- set versions = {'then': none, 'newest': none} -%}
    {%- for row in tideline.query_rows(sql) -%}
        {%- set version = row.version | int -%}
        {%- if versions.newest is none or version > versions.newest -%}{%- do versions.update({'newest': version}) -%}{%- endif -%}
        {%- if tideline.shift_time(row.timestamp | string, 0) <= moment and (versions.then is none or version > versions.then) -%}{%- do versions.update({'then': version}) -%}{%- endif -%}
    {%- endfor -%}
    {%- if versions.then is none -%}
        {{- return(adapter.dispatch('rows_written_after_files', 'tideline')(relation, read_at, condition)) -}}
    {%- endif -%}
    {%- set clause = none if versions.then == versions.newest else 'version as of {}'.format(versions.then) -%}
    {{- return({'sql': tideline.rows_since_version_sql(relation, clause, condition), 'why': none}) -}}
{% endmacro %}

{#- Iceberg: the snapshot that was the table's current one at `read_at` (its history metadata
    table); none when its history no longer reaches back to it (expired snapshots). -#}
{% macro default__rows_written_after_iceberg(relation, read_at, condition) %}
    {% set sql %}
        select
            max_by(snapshot_id, made_current_at) filter (where made_current_at <= {{ tideline.ts(read_at) }}) as then_snapshot,
            max_by(snapshot_id, made_current_at) as newest_snapshot
        from {{ relation }}.history
        where is_current_ancestor
    {% endset %}
    {%- set row = tideline.query_rows(sql)[0] -%}
    {%- if row.then_snapshot is none -%}
        {{- return({'sql': none, 'why': "{}'s snapshots no longer reach back to {}".format(relation, read_at)}) -}}
    {%- endif -%}
    {%- set clause = none if row.then_snapshot == row.newest_snapshot else 'version as of {}'.format(row.then_snapshot | int) -%}
    {{- return({'sql': tideline.rows_since_version_sql(relation, clause, condition), 'why': none}) -}}
{% endmacro %}

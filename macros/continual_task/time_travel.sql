{#- Continual tasks: a reference read by time travel (issue 35, item 8), for a Delta or Iceberg
    table that keeps no history of its own (config references: {name: {time_travel: true}}).

    At step T the reference is the table's newest version committed at or before T (Delta's
    commit timestamp, Iceberg's made_current_at), read VERSION AS OF that version; before the
    table's first version it is empty. The versions are listed once a run (versions.sql), so
    the steps of one run, one run per commit and a --full-refresh replay read the same
    versions, as long as the table keeps them (a step older than the oldest kept version is
    refused before anything is written). A step's commit time must be the clock's: the input's
    commit column written by its loader when it commits, as Delta and Iceberg stamp versions. -#}

{#- The setting of a time-travel reference: an existing Delta or Iceberg table, not a view
    (in spark_catalog, from dbt's relation cache; in another catalog, such as an Iceberg
    catalog's <catalog>.<namespace>, from the catalog: _catalog_table_format). -#}
{% macro _time_travel_reference(model_name, name, spec) %}
    {%- set setting = 'references.{}'.format(name) -%}
    {%- if spec.time_travel is not sameas true or spec | length != 1 -%}
        {{ tideline._task_error(model_name, setting, spec, "{time_travel: true} alone (a Delta or Iceberg table read by its versions), or {valid_from: column, key: columns} (a kept history)") }}
    {%- endif -%}
    {%- set relation = tideline._input_relation(name) -%}
    {%- set found = adapter.get_relation(database=relation.database, schema=relation.schema, identifier=relation.identifier) -%}
    {%- set format = none -%}
    {%- if found is not none -%}
        {%- set format = 'a view' if found.type == 'view' else tideline.relation_file_format(found) -%}
    {%- elif '.' in relation.schema -%}
        {%- set format = tideline._catalog_table_format(relation) -%}
    {%- endif -%}
    {%- if format is none -%}
        {{ tideline._task_error(model_name, 'references', name, "existing relations ({} does not exist)".format(relation)) }}
    {%- endif -%}
    {%- if format not in ['delta', 'iceberg'] -%}
        {{ tideline._task_error(model_name, '{}.time_travel'.format(setting), true,
            "a Delta or Iceberg table, whose versions time travel reads ({} is {}, without versions); keep its history in the table and declare {{valid_from: column, key: columns}} instead".format(relation, format)) }}
    {%- endif -%}
    {{- return({'name': name, 'relation': relation | string, 'time_travel': true, 'format': format, 'valid_from': none, 'key': []}) -}}
{% endmacro %}

{#- The format of a table of another catalog than spark_catalog (its provider, e.g. iceberg),
    else none when it does not exist: one `show tables`, one `describe table extended`. -#}
{% macro _catalog_table_format(relation) %}
    {% set sql %}
        show tables in {{ relation.schema }} like '{{ relation.identifier }}'
    {% endset %}
    {%- if not (run_query(sql).rows | selectattr('tableName', 'equalto', relation.identifier) | list) -%}{{ return(none) }}{%- endif -%}
    {% set sql %}
        describe table extended {{ relation }}
    {% endset %}
    {%- for row in run_query(sql).rows if row['col_name'] == 'Provider' -%}{{ return(row['data_type'] | lower) }}{%- endfor -%}
    {{- return('a table of no known provider') -}}
{% endmacro %}

{#- The reference `r` as of `as_of` (a step's commit time; none: a definition's text, which
    does not depend on time), from its versions listed this run (none: not listed, the table as
    it is, as a statement's check before the run reads it). -#}
{% macro time_travel_reference_sql(r, versions, as_of) %}
    {%- if as_of is none -%}{{ return('(select * from {} /* as of the step, by time travel */)'.format(r.relation)) }}{%- endif -%}
    {%- if versions is none -%}{{ return('(select * from {})'.format(r.relation)) }}{%- endif -%}
    {%- set version = tideline.version_as_of(versions, as_of) -%}
    {%- if version is none -%}{{ return('(select * from {} where false /* no version yet */)'.format(r.relation)) }}{%- endif -%}
    {{- return('(select * from {} version as of {})'.format(r.relation, version.id)) -}}
{% endmacro %}

{#- The newest of `versions` ({'versions': [{'time', 'id'}] oldest first}) committed at or
    before `as_of`, else none. -#}
{% macro version_as_of(versions, as_of) %}
    {%- set at = tideline.version_time(as_of) -%}
    {%- set found = versions.versions | selectattr('time', 'le', at) | list -%}
    {{- return(found[-1] if found else none) -}}
{% endmacro %}

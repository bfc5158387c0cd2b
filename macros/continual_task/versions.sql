{#- Continual tasks: the versions of the references read by time travel (time_travel.sql),
    listed once a run, before anything is written. -#}

{#- For a run's steps: each time-travel reference's versions, by name (nothing is listed when
    no step has data). A step with data older than a reference's oldest kept version is
    refused: the versions before it are gone (Delta's delta.logRetentionDuration, Iceberg's
    expired snapshots), and reading the oldest one instead would give other rows than the
    runs gave. -#}
{% macro task_reference_versions(settings, steps) %}
    {%- set listed = {} -%}
    {%- set data_steps = steps | selectattr('data') | map(attribute='time') | map('string') | list -%}
    {%- for r in settings.references if r.time_travel and data_steps -%}
        {%- set first = data_steps | min -%}
        {%- set versions = tideline._table_versions(r, tideline.version_time(first)) -%}
        {%- if not versions.complete and tideline.version_as_of(versions, first) is none -%}
            {{ exceptions.raise_compiler_error("tideline: continual task {name}: reference {ref} has no version at or before the step at {step}: its oldest kept version, {id}, is from {oldest}, and the ones before it are gone ({why}); nothing was written. Keep the table's versions longer than the steps a run or a --full-refresh replays, or keep its history in the table and declare {{valid_from: column, key: columns}} instead".format(
                name=settings.name, ref=r.name, step=first, id=versions.versions[0].id, oldest=versions.versions[0].time,
                why="Delta keeps delta.logRetentionDuration of history" if r.format == 'delta' else "expired snapshots")) }}
        {%- endif -%}
        {%- do listed.update({r.name: versions}) -%}
    {%- endfor -%}
    {{- return(listed) -}}
{% endmacro %}

{#- A Delta or Iceberg table's versions from the newest at or before `since` (UTC text) on:
    {'versions': [{'time': UTC text, 'id'}] oldest first, 'complete': whether the first version
    kept is the table's first}, from the format's strategy (table_versions_delta,
    table_versions_iceberg: version_strategies.sql). -#}
{% macro _table_versions(r, since) %}
    {%- set strategy = {'delta': adapter.dispatch('table_versions_delta', 'tideline'),
                         'iceberg': adapter.dispatch('table_versions_iceberg', 'tideline')}[r.format] -%}
    {{- return(strategy(r.relation, since)) -}}
{% endmacro %}

{#- A time as text that compares as the time does: UTC, 'YYYY-MM-DD HH:MM:SS.ffffff'. A text
    (Spark's cast as string, in the session's zone, which tideline sets to UTC) is padded to six
    digits of fraction. A Python time is UTC too, except one PySpark collected in this process
    (method session), which is the process's local time, without a zone. -#}
{% macro version_time(value) %}
    {%- if value is not string and value.hour is defined -%}
        {%- set utc = value.astimezone(modules.pytz.utc) if target.method == 'session' else value.replace(tzinfo=modules.pytz.utc) -%}
        {{- return(utc.strftime('%Y-%m-%d %H:%M:%S.%f')) -}}
    {%- endif -%}
    {%- set parts = (value | string).split('.') + [''] -%}
    {{- return('{}.{}'.format(parts[0], '{}000000'.format(parts[1])[:6])) -}}
{% endmacro %}

-- A task over another task's output (a chain): every anomaly count the audit log logged, read
-- with `select *`. An input that is a tideline output gives its own columns at each step, never
-- tideline's commit columns, so the select fits the archive's one column.
{{ config(materialized='continual_task', columns={'anomaly_count': 'bigint'}, inputs=['audit_log']) }}

{% call tideline.task_insert() %}
    select * from {{ tideline.input('audit_log') }}
{% endcall %}

-- A task over another task's output (a chain): every anomaly count the audit log logged, read
-- with `select *`. An input that is a tideline output gives its own columns at each step, never
-- tideline's commit columns. No config columns: the archive's columns are the select's, with
-- the types Spark plans for them (here the log's one column, anomaly_count bigint).
{{ config(materialized='continual_task', inputs=['audit_log']) }}

{% call tideline.task_insert() %}
    select * from {{ tideline.input('audit_log') }}
{% endcall %}

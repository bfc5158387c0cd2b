-- The seed's audit log: every anomaly count as it was committed; a later correction of the
-- source never rewrites what was logged.
{{ config(materialized='continual_task', columns={'anomaly_count': 'bigint'},
          inputs={'stream.anomalies': {'commit_column': 'load_tstamp'}}) }}

{% call tideline.task_insert() %}
    select anomaly_count from {{ tideline.input('stream.anomalies') }}
{% endcall %}

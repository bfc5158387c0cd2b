-- The seed's upsert on top of an append-only input: at each commit, the keys it touched are
-- replaced by the step's largest value.
{{ config(materialized='continual_task', columns={'key': 'int', 'val': 'int'},
          inputs={'stream.append_only': {'commit_column': 'load_tstamp'}}) }}

{% call tideline.task_delete() %}
    key in (select key from {{ tideline.input('stream.append_only') }})
{% endcall %}

{% call tideline.task_insert() %}
    select
        key,
        max(val) as val
    from {{ tideline.input('stream.append_only') }}
    group by key
{% endcall %}

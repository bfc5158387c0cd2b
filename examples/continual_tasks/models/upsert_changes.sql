-- A task over a task that deletes (a chain, as Materialize gives a task its inputs): at each
-- step of the upsert, the rows it inserted and the rows it deleted, each marked. A run of the
-- upsert that compacts keeps the changes this task has not read yet, so a run of this task
-- after several of the upsert sees each of them, at its own time.
{{ config(materialized='continual_task', columns={'key': 'int', 'val': 'int', 'change': 'string'}, inputs=['upsert']) }}

{% call tideline.task_insert() %}
    select key, val, 'insert' as change from {{ tideline.input('upsert') }}
    union all
    select key, val, 'delete' as change from {{ tideline.input_deletes('upsert') }}
{% endcall %}

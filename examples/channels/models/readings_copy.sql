-- Downstream of the channel: a continual task that copies the stable readings as they arrive
-- (an item made stable by a move arrives then, once, by the move's commit time).
{{ config(materialized='continual_task', inputs=['readings'], snapshot=true,
          columns={'item_time': 'timestamp', 'item_id': 'string', 'value': 'int', 'label': 'string'}) }}

{% call tideline.task_insert() %}
    select
        item_time,
        item_id,
        value,
        label
    from {{ tideline.input('readings') }}
{% endcall %}

-- A stream-table join: each order with its customer's tier as it was when the order was
-- committed; a change to a customer alone adds nothing and revises nothing. The output's columns
-- are the select's (order_id bigint, customer_id bigint, amount double, tier string): no
-- statement reads the output, so config columns may be left out.
{{ config(materialized='continual_task',
          inputs={'stream.orders': {'commit_column': 'load_tstamp'}}) }}

{% call tideline.task_insert() %}
    select
        o.order_id,
        o.customer_id,
        o.amount,
        c.tier
    from {{ tideline.input('stream.orders') }} as o
    left join {{ source('stream', 'customers') }} as c on o.customer_id = c.customer_id
{% endcall %}

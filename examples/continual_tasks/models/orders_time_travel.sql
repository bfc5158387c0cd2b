-- A stream-table join read by time travel (issue 35, item 8): each order with its customer's
-- tier as the Delta or Iceberg table live.customer_tiers was at the order's commit time. The
-- table keeps only each customer's current tier; its versions are the history. The orders'
-- commit column is the loader's clock (as Delta and Iceberg stamp versions), so one run over
-- many commits, one run per commit and a --full-refresh replay give the same tiers. Disabled
-- unless the var continual__time_travel is true: the reference must be a Delta or Iceberg table.
{{ config(materialized='continual_task', enabled=var('continual__time_travel', false),
          inputs={'stream.orders': {'commit_column': 'load_tstamp'}},
          references={'live.customer_tiers': {'time_travel': true}}) }}

{% call tideline.task_insert() %}
    select
        o.order_id,
        o.customer_id,
        o.amount,
        t.tier
    from {{ tideline.input('stream.orders') }} as o
    left join {{ tideline.reference('live.customer_tiers') }} as t on o.customer_id = t.customer_id
{% endcall %}

-- A stream-table join read as of each step (issue 35, item 8): each order with its customer's
-- tier as the kept history of tiers says it was at the order's commit time. Unlike
-- orders_enriched (a plain source(), read as it is when the step runs), the rows do not depend
-- on when or in how many runs the orders are processed: one run over many commits, one run per
-- commit and a --full-refresh replay all give the same tiers.
{{ config(materialized='continual_task',
          inputs={'stream.orders': {'commit_column': 'load_tstamp'}},
          references={'stream.customer_tiers': {'valid_from': 'valid_from', 'key': 'customer_id'}}) }}

{% call tideline.task_insert() %}
    select
        o.order_id,
        o.customer_id,
        o.amount,
        t.tier
    from {{ tideline.input('stream.orders') }} as o
    left join {{ tideline.reference('stream.customer_tiers') }} as t on o.customer_id = t.customer_id
{% endcall %}

-- Self-reference: a ledger of running totals per key. Each step inserts, for every key it
-- touched, the key's previous total (its newest row in the output through the last step)
-- plus the step's sum.
{{ config(materialized='continual_task', columns={'key': 'int', 'total': 'bigint', 'loaded_at': 'timestamp'},
          inputs={'stream.append_only': {'commit_column': 'load_tstamp'}}) }}

{% call tideline.task_insert() %}
    with previous as (
        select
            key,
            max_by(total, loaded_at) as total
        from {{ this }}
        group by key
    )

    select
        s.key,
        coalesce(max(p.total), 0) + sum(s.val) as total,
        max(s.load_tstamp) as loaded_at
    from {{ tideline.input('stream.append_only') }} as s
    left join previous as p on s.key = p.key
    group by s.key
{% endcall %}

{#- Derivations: rows published under a unique_key that holds a null. -#}

{#- How many rows this run wrote with a null in a unique_key column (one per such key: the
    run reduces its documents per key first). Such a row is kept (a reader sees one row for the
    null key, reduced across runs as any other key's), never lost: the run line warns
    with the count and the run's state row records it (rows_rejected). One query over the rows
    the run itself published (its generation's row partition, its run id and batch: a compacting
    run's copies of older rows keep their batch), so it costs what the run wrote, not the table. -#}
{% macro count_null_keys(settings, data, plan) %}
    {% set sql %}
        select count(*) as null_keys
        from {{ data }}
        where tl_part = 'row'
            and tl_gen = '{{ plan.write_gen }}'
            and _tl_run = '{{ tideline.run_id() }}'
            and _tl_batch = {{ tideline.ts(plan.batch) }}
            and ({{ tideline.null_key_condition(settings.unique_key) }})
    {% endset %}
    {{- return(tideline.query_rows(sql)[0].null_keys | int) -}}
{% endmacro %}

{#- `k1 is null or k2 is null ...` over the unique_key columns. -#}
{% macro null_key_condition(unique_key) %}
    {%- set tests = [] -%}
    {%- for k in unique_key -%}{%- do tests.append('{} is null'.format(k)) -%}{%- endfor -%}
    {{- return(tests | join(' or ')) -}}
{% endmacro %}

{#- The run line's warning for them ('' when none). -#}
{% macro null_keys_warning(settings, null_keys) %}
    {%- if null_keys > 0 -%}
        {{- return(", WARNING: rows written under a unique_key ({}) with a null: {} (kept, reduced under that key as any other)".format(settings.unique_key | join(', '), null_keys)) -}}
    {%- endif -%}
    {{- return('') -}}
{% endmacro %}

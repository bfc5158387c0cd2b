{#- Derivations: rows published under a unique_key that holds a null. -#}

{#- How many rows this run wrote with a null in a unique_key column (one per such key: the
    run reduces its documents per key first). Never lost: the run line warns with the count and
    the run's state row records it (rows_rejected). Under on_bad_rows='warn' (the default) such
    a row is kept (a reader sees one row for the null key, reduced across runs as any other
    key's); under 'quarantine' it is set aside (_derived_row_part) and copied to the quarantine;
    under 'fail' the run is refused. One query over the rows
    the run itself published (its generation's row partition, its run id and batch: a compacting
    run's copies of older rows keep their batch), so it costs what the run wrote, not the table. -#}
{% macro count_null_keys(settings, data, plan) %}
    {% set sql %}
        select count(*) as null_keys
        from {{ data }}
        where {{ tideline.null_key_rows(settings, plan) }}
    {% endset %}
    {{- return(tideline.query_rows(sql)[0].null_keys | int) -}}
{% endmacro %}

{#- The condition on the data table that selects the rows this run wrote under a unique_key with a
    null: its generation's row or set-aside partition (_derived_row_part), its run id and batch,
    `k1 is null or k2 is null ...`. -#}
{% macro null_key_rows(settings, plan) %}
    {%- set condition -%}
        tl_part in ('row', 'set_aside') and tl_gen = '{{ plan.write_gen }}' and _tl_run = '{{ tideline.run_id() }}'
            and _tl_batch = {{ tideline.ts(plan.batch) }} and ({{ tideline.null_key_test(settings) }})
    {%- endset -%}
    {{- return(condition) -}}
{% endmacro %}

{#- Under on_bad_rows='fail', a run that wrote rows under a null key is refused before its
    commit (readers never see what it wrote; a later compaction drops it), naming the rows. -#}
{% macro refuse_null_keys(settings, data, plan, null_keys) %}
    {%- if settings.on_bad_rows != 'fail' or null_keys == 0 -%}{{ return(none) }}{%- endif -%}
    {%- set rows = tideline.first_rows_where(data, tideline.null_key_rows(settings, plan), settings.derived | map('first') | list) -%}
    {{ exceptions.raise_compiler_error("tideline: derivation {}: on_bad_rows = fail and this run published {} row(s) under a unique_key ({}) with a null: {}. Nothing of the run was committed. Make the publish lambdas return a key, or set on_bad_rows='warn' to keep such rows under the null key and count them, or 'quarantine' to set them aside in {}__tl_quarantine".format(
        settings.name, null_keys, settings.unique_key | join(', '), rows | join(', '), settings.name)) }}
{% endmacro %}

{#- The run line's warning for them ('' when none). -#}
{% macro null_keys_warning(settings, null_keys) %}
    {%- if null_keys > 0 -%}
        {%- set fate = 'set aside in {}__tl_quarantine, not in the model'.format(settings.name) if settings.on_bad_rows == 'quarantine'
                       else 'kept, reduced under that key as any other' -%}
        {{- return(", WARNING: rows written under a unique_key ({}) with a null: {} ({})".format(settings.unique_key | join(', '), null_keys, fate)) -}}
    {%- endif -%}
    {{- return('') -}}
{% endmacro %}

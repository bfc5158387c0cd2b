{#- Mutable time: compacting a channel's items table. Readers keep the newest committed version
    of a mutable key, the mutable items at or before the boundary, and the rows of committed
    runs (items_sql.sql, epochs.sql); every other row is dead weight that every read and every
    run's lookups scan: versions superseded by a later change, deletions, mutable versions a
    move made stable (their stable copy is what readers see) and rows of runs that died before
    their commit. Every compact_every runs that write, after the run's commit, the item dates
    holding such rows are rewritten with the rows readers keep, unchanged (their commit
    columns too), so no reader's result changes. -#}

{#- The rows readers keep of the item dates `where` selects, under the committed boundary
    `boundary` (none: no mutable item is read), in the items table's column order `columns`; in a
    table that keeps the change order, each mutable key's newest version even when it is a
    deletion (a late change row is compared with it: late_changes.sql). -#}
{% macro channel_kept_rows_sql(settings, items, columns, boundary, where='true') %}
    {%- set mutable_where -%}
        ({{ where }}) and {% if boundary is not none %}item_time <= {{ tideline.ts(boundary) }}{% else %}false{% endif %}
    {%- endset -%}
    {%- set sql -%}
        select {{ columns | join(', ') }} from ({{ tideline.channel_stable_items_sql(items, settings.name, where) }}) as stable_items
        union all
        select {{ columns | join(', ') }} from ({{ tideline.channel_mutable_items_sql(items, settings.name, mutable_where, deletions=settings.change_order) }}) as mutable_items
    {%- endset -%}
    {{- return(sql) -}}
{% endmacro %}

{#- The item dates holding rows no reader keeps, with how many rows each stores and keeps. -#}
{% macro channel_compaction_dates_sql(settings, items, columns, boundary) %}
    {%- set sql -%}
        with stored as (
            select item_date, count(*) as stored_rows from {{ items }} group by item_date
        ),

        kept as (
            select item_date, count(*) as kept_rows
            from ({{ tideline.channel_kept_rows_sql(settings, items, columns, boundary) }}) as kept_rows
            group by item_date
        )

        select cast(s.item_date as string) as item_date, s.stored_rows, coalesce(k.kept_rows, 0) as kept_rows
        from stored as s
        left join kept as k on s.item_date = k.item_date
        where s.stored_rows > coalesce(k.kept_rows, 0)
    {%- endset -%}
    {{- return(sql) -}}
{% endmacro %}

{#- Whether this run compacts: it wrote, it is not a rebuild (its table holds only what it
    wrote), and it is the compact_every-th committed run. -#}
{% macro channel_compaction_due(settings, runs_after, wrote, rebuild) %}
    {{- return(wrote and not rebuild and runs_after % settings.compact_every == 0) -}}
{% endmacro %}

{#- Rewrites the item dates holding rows no reader keeps with the rows kept (one insert
    overwrite of their partitions; dates left with no row are deleted), after the run's commit.
    Returns {'dates': how many dates, 'dropped': how many rows}. -#}
{% macro compact_channel_items(settings, items, boundary) %}
    {%- set columns = tideline.column_names(items) -%}
    {%- set found = tideline.query_rows(tideline.channel_compaction_dates_sql(settings, items, columns, boundary)) -%}
    {%- set rewritten = [] -%}
    {%- set emptied = [] -%}
    {%- for row in found -%}
        {%- do (rewritten if row.kept_rows | int > 0 else emptied).append(row.item_date) -%}
    {%- endfor -%}
    {%- if rewritten -%}
        {%- set in_rewritten = 'item_date in {}'.format(tideline.date_list(rewritten)) -%}
        {% call statement('compact_items', fetch_result=false) %}
            insert overwrite table {{ items }} partition (item_date)
            select * from (
                {{ tideline.channel_kept_rows_sql(settings, items, columns, boundary, in_rewritten) }}
            ) as kept
            distribute by item_date
        {% endcall %}
    {%- endif -%}
    {%- do tideline.delete_dates(items, 'item_date', emptied, tideline.model_file_format(settings.name)) -%}
    {%- set dropped = (found | map(attribute='stored_rows') | map('int') | sum) - (found | map(attribute='kept_rows') | map('int') | sum) -%}
    {{- return({'dates': found | length, 'dropped': dropped}) -}}
{% endmacro %}

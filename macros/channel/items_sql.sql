{#- Mutable time: a channel's items as committed, and its view. -#}

{#- The mutable items as committed: the newest committed version of each key, unless it is a
    deletion (`deletions`: deletions too, late_changes.sql). `where` narrows the versions read
    (item_date first, so that it prunes). -#}
{% macro channel_mutable_items_sql(items, model_name, where='true', deletions=false) %}
    select * from (
        select
            *,
            row_number() over (partition by item_date, item_time, item_id order by _tl_batch desc) as tl_newest
        from {{ items }}
        where not _tl_stable and _tl_run in ({{ tideline.committed_runs_sql(model_name) }}) and ({{ where }})
    ) as versions
    where tl_newest = 1{% if not deletions %} and not _tl_deleted{% endif %}
{%- endmacro %}

{#- The stable items: their stable rows of committed runs. -#}
{% macro channel_stable_items_sql(items, model_name, where='true') %}
    select * from {{ items }}
    where _tl_stable and _tl_run in ({{ tideline.committed_runs_sql(model_name) }}) and ({{ where }})
{%- endmacro %}

{#- The channel's view: its stable items (the IMMUTABLE epoch), what ref() of it reads. -#}
{% macro channel_view_sql(settings, items) %}
    select item_time, item_id, {{ settings.payload | map('first') | join(', ') }}, item_date, _tl_batch, _tl_run
    from ({{ tideline.channel_stable_items_sql(items, settings.name) }}) as stable_items
{%- endmacro %}

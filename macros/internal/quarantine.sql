{#- on_bad_rows='quarantine': the rows a derivation or a continual task cannot place, each
    recorded once in the model's quarantine table <model>__tl_quarantine, with the reason. -#}

{#- The quarantine table of the model whose reader view is `view`, in `format` (stored as the
    model's data tables are: storage.sql). -#}
{% macro quarantine_relation(view, format) %}
    {%- set name = '{}__tl_quarantine'.format(view.identifier) -%}
    {{- return(tideline.stored_relation(view.incorporate(path={'identifier': name}), format)) -}}
{% endmacro %}

{#- Under on_bad_rows='quarantine', each feed's source rows without a commit time (the frontier
    query's count, `unplaced`; nothing is sent when it is 0) that the quarantine table does not
    hold yet. They stay in the source (tideline does not own it) and no run reads them: the
    quarantine is where they are listed, with their feed, the reason and the run that found
    them. -#}
{% macro quarantine_unplaced_rows(settings, feeds, frontier, view) %}
    {%- if settings.on_bad_rows != 'quarantine' -%}{{ return(none) }}{%- endif -%}
    {%- for f in feeds if frontier.unplaced.get(f.name, 0) > 0 -%}
        {% set bad_sql %}
            select * from {{ f.source.rendered }} where {{ f.commit_column }} is null
        {% endset %}
        {%- do tideline.quarantine_rows(settings.name, view, f.name, 'no commit time ({}.{} is null): no run reads it'.format(f.source.rendered, f.commit_column), bad_sql) -%}
    {%- endfor -%}
{% endmacro %}

{#- Insert into the model's quarantine table (created when missing) the rows of `bad_sql` it
    does not hold yet, each as JSON under `feed` and `reason`. Identical rows are told apart by
    their number among them (copy_number), so a row recorded by an earlier run, or by this run
    before it died, is not recorded again, and a second identical row is. One statement. -#}
{% macro quarantine_rows(model_name, view, feed, reason, bad_sql) %}
    {%- set format = tideline.model_file_format(model_name) -%}
    {%- set quarantine = tideline.quarantine_relation(view, format) -%}
    {% call statement('create_quarantine', fetch_result=false) %}
        create table if not exists {{ quarantine }} (
            feed string, reason string, found_row string, copy_number int, _tl_run string, run_now timestamp
        )
        using {{ format }}
        {{ tideline.table_properties_sql(format) }}
    {% endcall %}
    {% call statement('quarantine', fetch_result=false) %}
        insert into {{ quarantine }}
        select found.feed, found.reason, found.found_row, found.copy_number,
            {{ tideline.literal(tideline.run_id()) }} as _tl_run, {{ tideline.ts(tideline.now()) }} as run_now
        from (
            select {{ tideline.literal(feed) }} as feed, {{ tideline.literal(reason) }} as reason, found_row,
                cast(row_number() over (partition by found_row order by found_row) as int) as copy_number
            from (select to_json(struct(*)) as found_row from ({{ bad_sql }}) as bad) as rows
        ) as found
        left anti join {{ quarantine }} as kept
        on kept.feed = found.feed and kept.found_row = found.found_row and kept.copy_number = found.copy_number
    {% endcall %}
{% endmacro %}

{#- Under on_bad_rows='quarantine', the rows this run published under a unique_key with a null
    (null_key_rows; `null_keys` their count, nothing is sent when 0), recorded with their commit
    time: they stay in the derivation, reduced under that key as with 'warn', and each version
    is listed in the quarantine once. -#}
{% macro quarantine_null_keys(settings, data, plan, null_keys, view) %}
    {%- if settings.on_bad_rows != 'quarantine' or null_keys == 0 -%}{{ return(none) }}{%- endif -%}
    {% set bad_sql %}
        select {{ settings.derived | map('first') | join(', ') }}, _tl_batch
        from {{ data }}
        where {{ tideline.null_key_rows(settings, plan) }}
    {% endset %}
    {%- do tideline.quarantine_rows(settings.name, view, 'publish', 'a null in the unique_key ({})'.format(settings.unique_key | join(', ')), bad_sql) -%}
{% endmacro %}

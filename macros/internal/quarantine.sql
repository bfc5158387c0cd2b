{#- on_bad_rows='quarantine': the rows a derivation or a continual task cannot place, each
    recorded once in the model's quarantine table <model>__tl_quarantine, with the reason. -#}

{#- The quarantine table of the model whose reader view is `view`, in `format` (stored as the
    model's data tables are: storage.sql). -#}
{% macro quarantine_relation(view, format) %}
    {%- set name = '{}__tl_quarantine'.format(view.identifier) -%}
    {{- return(tideline.stored_relation(view.incorporate(path={'identifier': name}), format)) -}}
{% endmacro %}

{#- Insert into the model's quarantine table (created when missing) the rows of `found_sql` (its
    columns: feed, reason and found_row, the row as JSON) that it does not hold yet. Identical
    rows are told apart by their number among them (copy_number), so a row recorded by an
    earlier run, or by this run before it died, is not recorded again, and a second identical
    row is. One statement. -#}
{% macro quarantine_rows(model_name, view, found_sql) %}
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
            select feed, reason, found_row,
                cast(row_number() over (partition by feed, found_row order by found_row) as int) as copy_number
            from ({{ found_sql }}) as rows
        ) as found
        left anti join {{ quarantine }} as kept
        on kept.feed = found.feed and kept.found_row = found.found_row and kept.copy_number = found.copy_number
    {% endcall %}
{% endmacro %}

{#- The rows of `bad_sql` as quarantine_rows takes them: each whole, as JSON, under one feed and
    one reason. -#}
{% macro found_rows_sql(feed, reason, bad_sql) %}
    {% set sql %}
        select {{ tideline.literal(feed) }} as feed, {{ tideline.literal(reason) }} as reason, to_json(struct(*)) as found_row
        from ({{ bad_sql }}) as bad
    {% endset %}
    {{- return(sql) -}}
{% endmacro %}

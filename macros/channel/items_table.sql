{#- Mutable time: the channel's items table, created, and trimmed by retention_days. -#}

{#- The empty items table, with the channel's columns. Each version records the commit time and
    the writer (its place in config changes) of the change row that wrote it (_tl_changed_at,
    _tl_writer: null for real-time items and stable copies), so that a change row loaded late
    is applied only where a rebuild would apply it (late_changes.sql). -#}
{% macro create_channel_items(settings, items) %}
    {% call statement('create_items', fetch_result=false) %}
        create table {{ items }} (
            item_time timestamp,
            item_id string,
            {%- for c in settings.payload %}
            {{ c[0] }} {{ c[1] }},
            {%- endfor %}
            _tl_deleted boolean,
            _tl_stable boolean,
            _tl_batch timestamp,
            _tl_run string,
            _tl_changed_at timestamp,
            _tl_writer int,
            item_date date
        )
        using {{ tideline.model_file_format(settings.name) }}
        partitioned by (item_date)
        {{ tideline.table_properties_sql(tideline.model_file_format(settings.name)) }}
    {% endcall %}
{% endmacro %}

{#- A channel with retention_days (never with mutable_time): drop the item days before it. -#}
{% macro channel_retention(settings, items) %}
    {%- if settings.retention_days is none -%}{{ return(0) }}{%- endif -%}
    {%- set today = modules.datetime.datetime.strptime(tideline.now()[:10], '%Y-%m-%d') -%}
    {%- set cutoff = (today - modules.datetime.timedelta(days=settings.retention_days)).strftime('%Y-%m-%d') -%}
    {%- set format = tideline.model_file_format(settings.name) -%}
    {%- set old = [] -%}
    {%- if format == 'parquet' -%}
        {#- the metastore lists the days without reading a file -#}
        {% set partitions_sql %}
            show partitions {{ items }}
        {% endset %}
        {%- for row in run_query(partitions_sql).rows -%}
            {%- set day = row['partition'].split('=')[1] -%}
            {%- if day < cutoff -%}{%- do old.append(day) -%}{%- endif -%}
        {%- endfor -%}
    {%- else -%}
        {% set days_sql %}
            select distinct cast(item_date as string) as day from {{ items }} where item_date < date'{{ cutoff }}'
        {% endset %}
        {%- for row in run_query(days_sql).rows -%}{%- do old.append(row['day']) -%}{%- endfor -%}
    {%- endif -%}
    {%- do tideline.delete_dates(items, 'item_date', old, format) -%}
    {{- return(old | length) -}}
{% endmacro %}

{#- The payload in the column order of the existing items table, which the run's insert (by
    position) must follow: dbt does not keep a config mapping's order across parses (a partial
    parse can give the mapping in another order than a full one), so the declared order is not
    the stored one. A payload whose columns or types differ from the table's is refused before
    anything is written: its layout changed, and only a rebuild can write the new one. Records
    in settings.change_order whether the table keeps each version's change order (a table of
    an earlier version of tideline does not). -#}
{% macro align_channel_payload(settings, items) %}
    {%- set own = ['item_time', 'item_id', '_tl_deleted', '_tl_stable', '_tl_batch', '_tl_run', '_tl_changed_at', '_tl_writer', 'item_date'] -%}
    {%- set stored = [] -%}
    {%- set columns = adapter.get_columns_in_relation(items) -%}
    {%- do settings.update({'change_order': '_tl_changed_at' in columns | map(attribute='name') | map('lower') | list}) -%}
    {%- for c in columns if (c.name | lower) not in own -%}
        {%- do stored.append([c.name | lower, tideline.type_name(c.data_type)]) -%}
    {%- endfor -%}
    {%- set aligned = tideline.in_stored_order(settings.payload, stored) -%}
    {%- if aligned is none or stored | length != settings.payload | length -%}
        {%- set shown = [] -%}
        {%- for c in stored -%}{%- do shown.append('{} {}'.format(c[0], c[1])) -%}{%- endfor -%}
        {%- set wanted = [] -%}
        {%- for c in settings.payload | sort -%}{%- do wanted.append('{} {}'.format(c[0], c[1])) -%}{%- endfor -%}
        {{ tideline._channel_refusal(settings.name, "its columns changed since {} was built (it has {}; the model now declares {}): rebuild with dbt run --full-refresh --select {}".format(
            items, shown | join(', '), wanted | join(', '), settings.name)) }}
    {%- endif -%}
    {%- do settings.update({'payload': aligned}) -%}
{% endmacro %}

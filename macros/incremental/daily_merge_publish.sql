{#- Daily aggregates, merge path: which view readers get after a run (daily_merge_layout.sql
    says when the parts are single). -#}

{#- Gives readers the model as this run left it: with `version` (the parts table's current
    version, when every date is single and the format has versions) a plain read of `data` at
    that version, else the merging view. The view is replaced only when what it reads changes (a
    parquet model's merging view reads each commit as it lands). `properties`: the view's as the
    run found them; `open_from`: the batch it records. -#}
{% macro _merge_publish(view, existing, properties, data, measures, open_from, version) %}
    {%- set wanted = tideline._merge_view_properties(measures) -%}
    {%- do wanted.update({'tideline.open_from': (open_from | string) if open_from is not none else '',
                          'tideline.read_version': version or ''}) -%}
    {%- set is_view = existing is not none and existing.type == 'view' -%}
    {%- set changed = [] -%}
    {%- for key, value in wanted.items() if properties.get(key, '') != value -%}{%- do changed.append(key) -%}{%- endfor -%}
    {%- if is_view and not changed -%}{{ return(none) }}{%- endif -%}
    {%- if existing is not none and not is_view -%}{%- do adapter.drop_relation(existing) -%}{%- endif -%}
    {%- set select_sql = tideline._merge_plain_sql(data, version) if version else tideline._merge_view_sql(view.identifier, data, measures, none) -%}
    {%- do tideline.replace_reader_view(view, select_sql, data, none, wanted) -%}
{% endmacro %}

{#- A run with nothing to do still gives readers what the last commit left, when a run died
    before it did (a new view, or the parts table moved past the version the view reads). -#}
{% macro _merge_republish(view, existing, properties, data, date_column, measures, format) %}
    {%- set version = tideline.table_version_clause(data, format) -%}
    {%- if existing is not none and existing.type == 'view' and (version or '') == properties.get('tideline.read_version', '') -%}
        {{ return(none) }}
    {%- endif -%}
    {%- set open_from = properties.get('tideline.open_from') or none -%}
    {%- set layout = tideline._merge_layout(view.identifier, data, date_column, open_from) -%}
    {%- set single = not layout.to_compact and not layout.to_clear -%}
    {%- do tideline._merge_publish(view, existing, properties, data, measures, open_from, version if single else none) -%}
{% endmacro %}

{#- The view's select over single dates (daily_merge_layout.sql): the parts as they are, at
    `version` (a time-travel clause), in the merging view's columns. -#}
{% macro _merge_plain_sql(data, version) %}
    {%- set columns = tideline._merge_columns(tideline.column_names(data)) | map(attribute='name') | list -%}
    {% set sql %}
        select {{ columns | join(', ') }}, _tl_batch
        from {{ data }} {{ version }}
    {% endset %}
    {{- return(sql) -}}
{% endmacro %}

{#- What a first build that failed had created, dropped at the end of the run (on-run-end), so
    that a model whose first build fails leaves no relation behind. A first build of a
    derivation, a continual task or a channel creates its data table and its view before it
    writes; if its write then fails (a value that does not fit its column, Spark's own error),
    the table and the view stay, holding no committed row. Such a model never committed a run,
    so it has no row in tl_state, and nothing anyone reads is lost by dropping them. A run that
    is killed instead of failing is left to its rerun, which takes the relations over. -#}

{#- on-run-end: for every model of `results` that failed, whose materialization keeps its rows
    in a data table of its own, and that has no committed run: its view (if it is a view; a
    table another materialization left is not touched) and its data tables dropped, each named in
    the log. When a model failed: one state query, then for those never committed one `show
    views` and one `show tables` of each schema they use; nothing is sent when none failed. -#}
{% macro drop_failed_first_builds(results) %}
    {%- if not execute -%}{{ return('') }}{%- endif -%}
    {%- set failed = [] -%}
    {%- for result in results if result.status == 'error' and result.node.resource_type == 'model' -%}
        {%- if result.node.config.materialized in ['derivation', 'continual_task', 'channel'] -%}{%- do failed.append(result.node) -%}{%- endif -%}
    {%- endfor -%}
    {%- if not failed or not tideline.state_table_known() -%}{{ return('') }}{%- endif -%}
    {%- set committed = tideline._models_with_state(failed | map(attribute='name') | list) -%}
    {%- set listed = {} -%}
    {%- for node in failed if node.name not in committed and tideline.pending_state_key(node.name) not in committed -%}
        {%- do tideline._drop_never_committed(node, listed) -%}
    {%- endfor -%}
    {{- return('') -}}
{% endmacro %}

{#- The names among `names` that have rows in tl_state (a committed run, or a rebuild's pending
    state under its own key). -#}
{% macro _models_with_state(names) %}
    {%- set keys = [] -%}
    {%- for name in names -%}
        {%- do keys.append(tideline.literal(name)) -%}
        {%- do keys.append(tideline.literal(tideline.pending_state_key(name))) -%}
    {%- endfor -%}
    {% set sql %}
        select distinct model
        from {{ tideline.state_table() }}
        where model in ({{ keys | join(', ') }})
    {% endset %}
    {{- return(tideline.query_rows(sql) | map(attribute='model') | list) -}}
{% endmacro %}

{#- Of a model that never committed a run: its view (a view of its name) and its tables in its
    file_format (a channel's items table; the data table slots and the quarantine table of the
    others), those that exist,
    dropped and named in the log. `listed` caches
    the names each schema holds ({'views <schema>' or 'tables <schema>': [names]}). -#}
{% macro _drop_never_committed(node, listed) %}
    {%- set view = api.Relation.create(schema=node.schema, identifier=node.alias, type='view') -%}
    {%- set dropped = [] -%}
    {%- if node.alias | lower in tideline._names_in_schema('views', node.schema, listed) -%}
        {%- do tideline.exec('drop view if exists {}'.format(view)) -%}
        {%- do dropped.append('view {}'.format(view)) -%}
    {%- endif -%}
    {%- set format = tideline.node_file_format(node.name) -%}
    {%- set tables = [tideline.stored_relation(tideline.channel_items_relation(view), format)] if node.config.materialized == 'channel'
                     else tideline.data_table_slots(view, format) + [tideline.quarantine_relation(view, format)] -%}
    {%- for slot in tables -%}
        {%- if slot.identifier | lower in tideline._names_in_schema('tables', slot.schema, listed) -%}
            {%- do tideline.exec('drop table if exists {}'.format(slot)) -%}
            {%- do dropped.append('table {}'.format(slot)) -%}
        {%- endif -%}
    {%- endfor -%}
    {%- if dropped -%}
        {{ log("tideline {}: its first build failed before its commit; dropped what it had created ({}), which held no committed row".format(
            node.name, dropped | join(', ')), info=true) }}
    {%- endif -%}
{% endmacro %}

{#- The names of the views or tables (`kind`) of `schema`, lower case: one `show views` or `show
    tables` per schema and kind, kept in `listed`. -#}
{% macro _names_in_schema(kind, schema, listed) %}
    {%- set key = '{} {}'.format(kind, schema) -%}
    {%- if key not in listed -%}
        {%- set rows = tideline.query_rows('show {} in {}'.format(kind, schema)) -%}
        {%- do listed.update({key: rows | map(attribute='viewName' if kind == 'views' else 'tableName') | map('lower') | list}) -%}
    {%- endif -%}
    {{- return(listed[key]) -}}
{% endmacro %}

{#- Data tables: the table a derivation or a continual task keeps its rows in, and the atomic
    swap to a new one when a --full-refresh changes its columns.

    The model is a view over its data table, <model>__tl_data or <model>__tl_data_b (two
    slots): the view's table property tideline.data_table names the one it reads. A rebuild
    whose columns changed (registers, derived columns, key types, a task's columns) cannot
    reuse the table, so it builds the other slot beside it:

      create the new table -> write the whole model into it -> commit its state under the
      pending key <model>__tl_rebuild (no reader reads it) -> ONE create or replace view onto
      the new table (readers' commit point; the view also counts the pending runs of this
      rebuild) -> promote: the pending rows become the model's state -> drop the pending
      rows -> drop the old table.

    Before the swap, readers and the model's state are as they were; after it, readers see the
    rebuilt rows. A run that finds both slots (a rebuild that died) reads the view's property
    to know which is live, finishes the swap if the view already reads the new table, and
    drops the other one (finish_swap): the rerun is the same as if nothing had died. -#}

{#- The model's two data table slots, stored in `format`. -#}
{% macro data_table_slots(relation, format) %}
    {%- set slots = [] -%}
    {%- for suffix in ['__tl_data', '__tl_data_b'] -%}
        {%- do slots.append(tideline.stored_relation(relation.incorporate(path={'identifier': relation.identifier ~ suffix}, type='table'), format)) -%}
    {%- endfor -%}
    {{- return(slots) -}}
{% endmacro %}

{#- The model's pending state key: where a rebuild into a new table commits before its swap. -#}
{% macro pending_state_key(model_name) %}
    {{- return(model_name ~ '__tl_rebuild') -}}
{% endmacro %}

{#- The data tables of the model whose view is `view`: {'live': the table its readers read (none
    before a first build), 'stale': the other slot when it exists too (a rebuild that died),
    'next': the slot a rebuild into a new table writes, 'rebuild_run': the invocation whose
    swap made the view read the live one}. The view's properties are read only when both
    slots exist (one statement); Iceberg's slots are looked up with one `show tables` each. -#}
{% macro find_data_tables(view, format, full_refresh) %}
    {%- set slots = tideline.data_table_slots(view, format) -%}
    {%- set found = [tideline.find_stored_table(slots[0], format, full_refresh), tideline.find_stored_table(slots[1], format, true)] -%}
    {%- set tables = {'live': found[0] or found[1], 'stale': none, 'rebuild_run': none} -%}
    {%- if found[0] is not none and found[1] is not none -%}
        {%- set properties = tideline.view_properties(view) -%}
        {%- set live = 1 if properties.get('tideline.data_table') == slots[1].identifier else 0 -%}
        {%- do tables.update({'live': found[live], 'stale': found[1 - live], 'rebuild_run': properties.get('tideline.rebuild_run')}) -%}
    {%- endif -%}
    {%- do tables.update({'next': slots[1] if tables.live is not none and tables.live.identifier == slots[0].identifier else slots[0]}) -%}
    {{- return(tables) -}}
{% endmacro %}

{#- The view's table properties as {key: value} ({} when it is not there). -#}
{% macro view_properties(view) %}
    {%- set found = adapter.get_relation(database=none, schema=view.schema, identifier=view.identifier) -%}
    {%- if found is none or found.type != 'view' -%}{{ return({}) }}{%- endif -%}
    {% set sql %}
        show tblproperties {{ view }}
    {% endset %}
    {%- set properties = {} -%}
    {%- for row in run_query(sql).rows -%}{%- do properties.update({row['key']: row['value']}) -%}{%- endfor -%}
    {{- return(properties) -}}
{% endmacro %}

{#- The reader's view `view` as `select_sql`, its data table `data` (if any) named in its
    properties. `rebuild_run`: the invocation of a rebuild into a new table, whose pending runs
    the view counts as committed (select_sql was built with it), recorded so that a rerun knows
    the swap happened. -#}
{% macro replace_reader_view(view, select_sql, data=none, rebuild_run=none) %}
    {%- set properties = {'tideline.data_table': data.identifier} if data is not none else {} -%}
    {%- if rebuild_run -%}{%- do properties.update({'tideline.rebuild_run': rebuild_run}) -%}{%- endif -%}
    {% call statement('create_view', fetch_result=false) %}
        create or replace view {{ view }}
        {{ tideline.table_properties_sql('view', properties) }}
        as {{ select_sql }}
    {% endcall %}
{% endmacro %}

{#- A run that finds both slots: when the view already reads the live one by the swap of
    `rebuild_run`, that rebuild's pending state becomes the model's (promote); then the pending
    state and the stale table are dropped. Sends nothing when there is no stale table. -#}
{% macro finish_swap(model_name, tables) %}
    {%- if tables.stale is none -%}{{ return(none) }}{%- endif -%}
    {%- set pending = tideline.pending_state_key(model_name) -%}
    {% set sql %}
        select * from {{ tideline.state_table() }}
        where model = '{{ pending }}'
    {% endset %}
    {%- set rows = run_query(sql).rows if tables.rebuild_run else [] -%}
    {%- set promoted = [] -%}
    {%- for row in rows if (row['run_id'] or '').split('/')[0] == tables.rebuild_run -%}
        {%- set values = {} -%}
        {%- for c in tideline.state_columns()[:-1] -%}{%- do values.update({c[0]: row[c[0]]}) -%}{%- endfor -%}
        {%- do promoted.append(values) -%}
    {%- endfor -%}
    {%- if promoted -%}
        {%- do tideline.commit_run(model_name, promoted[-1], promoted[:-1], replace=true) -%}
        {%- do tideline.checkpoint(model_name, 'promoted') -%}
    {%- endif -%}
    {%- do tideline.forget_state(pending) -%}
    {%- do adapter.drop_relation(tables.stale) -%}
    {{ log("tideline " ~ model_name ~ ": dropped " ~ tables.stale ~ ", left by a rebuild into a new table"
        ~ (" (its state promoted)" if promoted else ""), info=true) }}
{% endmacro %}

{#- A rebuild into the new table `data` has committed its pending state: swap the readers onto
    it (view_sql: the view's select, counting the pending runs), then finish the swap. -#}
{% macro swap_data_table(model_name, view, view_sql, data, stale) %}
    {%- do tideline.replace_reader_view(view, view_sql, data, tideline.run_id()) -%}
    {%- do tideline.checkpoint(model_name, 'swapped') -%}
    {%- do tideline.finish_swap(model_name, {'stale': stale, 'rebuild_run': tideline.run_id()}) -%}
{% endmacro %}

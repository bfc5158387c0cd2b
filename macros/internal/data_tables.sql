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
    drops the other one (finish_swap): the rerun is the same as if nothing had died.

    A --full-refresh that changes the model's file_format converts the same way: the new table
    is the other slot in the new format (for Iceberg, in its catalog), and the old one, in
    the old format, goes at the end. Without --full-refresh a table in another format is
    refused by name. -#}

{#- The model's two data table slots, stored in `format`. -#}
{% macro data_table_slots(relation, format) %}
    {%- set slots = [] -%}
    {%- for suffix in ['__tl_data', '__tl_data_b'] -%}
        {%- do slots.append(tideline.stored_relation(relation.incorporate(path={'identifier': '{}{}'.format(relation.identifier, suffix)}, type='table'), format)) -%}
    {%- endfor -%}
    {{- return(slots) -}}
{% endmacro %}

{#- The model's pending state key: where a rebuild into a new table commits before its swap. -#}
{% macro pending_state_key(model_name) %}
    {{- return('{}__tl_rebuild'.format(model_name)) -}}
{% endmacro %}

{#- A stored table's name as the view's property records it: <schema>.<name>, the schema
    prefixed with its catalog for Iceberg. -#}
{% macro data_table_name(relation) %}
    {{- return('{}.{}'.format(relation.schema, relation.identifier)) -}}
{% endmacro %}

{#- The data tables of the model whose view is `view`: {'live': the table its readers read (none
    before a first build), 'stale': the other tables a rebuild that died left, 'next': the slot
    a rebuild into a new table writes (in `format`, named unlike the live one), 'converting':
    whether the live table is in another format than `format`, 'rebuild_run': the invocation
    whose swap made the view read the live one, 'rebuild': whether this run rebuilds the model
    (`full_refresh`, or no live table), 'beside': whether it rebuilds into the new slot (the
    live table's columns differ from `layout`, see data_table_layout, or its format from
    `format`), 'data': the table this run writes}. A live table in another format is refused
    unless `full_refresh` (the rebuild converts it, beside, as for new columns).

    Where it looks: the slots of `format` (dbt's relation cache; for Iceberg, one `show tables`
    each), for Iceberg also the slots in spark_catalog (the cache), and, when a parquet or
    Delta model finds none, the Iceberg table its view names. The view's properties are read
    (one statement) only when the tables found are not exactly one. -#}
{% macro find_data_tables(view, format, full_refresh, layout) %}
    {%- set slots = tideline.data_table_slots(view, format) -%}
    {%- set candidates = [] -%}
    {%- for slot in slots -%}
        {%- set found = tideline.find_stored_table(slot, format, true) -%}
        {%- if found is not none -%}{%- do candidates.append(found) -%}{%- endif -%}
    {%- endfor -%}
    {%- if format == 'iceberg' -%}
        {%- for slot in tideline.data_table_slots(view, 'delta') -%}
            {%- set found = adapter.get_relation(database=none, schema=slot.schema, identifier=slot.identifier) -%}
            {%- if found is not none and found.type == 'table' -%}{%- do candidates.append(found) -%}{%- endif -%}
        {%- endfor -%}
    {%- endif -%}
    {%- set properties = tideline.view_properties(view) if candidates | length > 1 or (not candidates and format != 'iceberg') else {} -%}
    {%- set named = properties.get('tideline.data_table') -%}
    {%- if not candidates and named and named.startswith('{}.'.format(tideline.iceberg_catalog())) -%}
        {%- for slot in tideline.data_table_slots(view, 'iceberg') if tideline.data_table_name(slot) == named -%}
            {%- set found = tideline.find_stored_table(slot, 'iceberg', true) -%}
            {%- if found is not none -%}{%- do candidates.append(found) -%}{%- endif -%}
        {%- endfor -%}
    {%- endif -%}
    {%- set tables = {'live': candidates[0] if candidates else none, 'rebuild_run': properties.get('tideline.rebuild_run')} -%}
    {%- for c in candidates if named in [tideline.data_table_name(c), c.identifier] -%}{%- do tables.update({'live': c}) -%}{%- endfor -%}
    {%- set live = tables.live -%}
    {%- do tables.update({'stale': candidates | reject('equalto', live) | list,
                          'converting': live is not none and tideline.relation_file_format(live) != format}) -%}
    {%- if tables.converting and not full_refresh -%}{%- do tideline.refuse_other_file_format(model.name, live, format) -%}{%- endif -%}
    {%- do tables.update({'next': slots[1] if live is not none and live.identifier == slots[0].identifier else slots[0],
                          'rebuild': full_refresh or live is none}) -%}
    {%- do tables.update({'beside': tables.rebuild and live is not none and (tables.converting or tideline.data_table_layout(live) != layout)}) -%}
    {%- do tables.update({'data': tables.next if tables.beside or live is none else live}) -%}
    {{- return(tables) -}}
{% endmacro %}

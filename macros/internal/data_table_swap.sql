{#- A rebuild into a new data table: the reader view swapped onto it, its state promoted and the
    old table dropped (see data_tables.sql). -#}

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
    the swap happened. `extra`: more properties the capability records (a merged daily
    aggregate's measures). -#}
{% macro replace_reader_view(view, select_sql, data=none, rebuild_run=none, extra={}) %}
    {%- set properties = {'tideline.data_table': tideline.data_table_name(data)} if data is not none else {} -%}
    {%- do properties.update(extra) -%}
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
    {%- if not tables.stale -%}{{ return(none) }}{%- endif -%}
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
    {%- for stale in tables.stale -%}{%- do adapter.drop_relation(stale) -%}{%- endfor -%}
    {{ log("tideline {}: dropped {}, left by a rebuild into a new table{}".format(
        model_name, tables.stale | join(', '), " (its state promoted)" if promoted else ""), info=true) }}
{% endmacro %}

{#- A rebuild into the new table `data` has committed its pending state: swap the readers onto
    it (view_sql: the view's select, counting the pending runs; `extra`: more view properties,
    replace_reader_view), then finish the swap. -#}
{% macro swap_data_table(model_name, view, view_sql, data, stale, extra={}) %}
    {%- do tideline.replace_reader_view(view, view_sql, data, tideline.run_id(), extra) -%}
    {%- do tideline.checkpoint(model_name, 'swapped') -%}
    {%- do tideline.finish_swap(model_name, {'stale': [stale], 'rebuild_run': tideline.run_id()}) -%}
{% endmacro %}

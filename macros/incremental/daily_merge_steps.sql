{#- Daily aggregates, merge path: a run's steps (daily_merge.sql). -#}

{#- A rebuild: the whole aggregate (`with_rows` false: none, the empty first build of a model
    with nothing to read yet) into a new parts table, one part of this run, then the commit,
    which replaces the model's state. With a live table the new one is the other slot, the
    commit goes under the pending key and one view replacement swaps readers onto it. Returns
    the rows written. -#}
{% macro _merge_rebuild(view, existing, model_sql, marker, reads_source, date_column, measures, tables, plan, format, with_rows) %}
    {%- set model_name = view.identifier -%}
    {%- set rows_sql = tideline._daily_rows_to_write(model_sql, marker, reads_source, plan, []) if with_rows
        else tideline._daily_rows_sql(model_sql, marker, 'false', none) -%}
    {%- do tideline.check_date_column(model_name, rows_sql, date_column) -%}
    {%- do tideline.check_measure_columns(model_name, rows_sql, date_column, measures) -%}
    {#- beside the live parts while readers read them; a model that is a table (the recompute
        path's, taken over by --full-refresh) has no readers of its parts: they are replaced -#}
    {%- set beside = tables.live is not none and existing is not none and existing.type == 'view' -%}
    {%- set in_place = not beside and tables.live is not none and not tables.converting -%}
    {%- set data = tables.live if in_place else tables.next -%}
    {%- do tideline.replace_table(data, '{} distribute by {}'.format(rows_sql, date_column), date_column, data if in_place else none, format) -%}
    {%- do tideline.checkpoint(model_name, 'written') -%}
    {%- if not with_rows -%}
        {%- do tideline._merge_publish(view, existing, {}, data, measures, none, tideline.table_version_clause(data, format)) -%}
        {{- return(0) -}}
    {%- endif -%}
    {%- set count_sql -%}select count(*) as written from {{ data }}{%- endset -%}
    {%- set rows_written = tideline.query_rows(count_sql)[0].written | int -%}
    {%- set path = {'name': 'merge', 'rows_read': none, 'state_key': tideline.pending_state_key(model_name) if beside else none} -%}
    {%- set process_dates = plan.dates | selectattr('processed') | map(attribute='event_date') | list -%}
    {%- do tideline._commit_daily_run(model_name, plan, plan.dates | selectattr('processed') | list, process_dates, rows_written, none, false, path) -%}
    {%- if beside -%}
        {%- do tideline.swap_data_table(model_name, view, tideline._merge_view_sql(model_name, data, measures, tideline.run_id()), data, tables.live,
                                        tideline._merge_view_properties(measures)) -%}
    {%- else -%}
        {%- do tideline._merge_publish(view, existing, {}, data, measures, plan.reads_up_to, tideline.table_version_clause(data, format)) -%}
        {%- if tables.live is not none and not in_place -%}{%- do adapter.drop_relation(tables.live) -%}{%- endif -%}
    {%- endif -%}
    {{- return(rows_written) -}}
{% endmacro %}

{#- A later run's part: the model's select over the new events of the processed dates (a
    strategy per input, daily_new_rows_<input>), appended in the table's column order; returns
    the rows it appended (one count of this run's rows in those dates' partitions). -#}
{% macro _merge_append(model_name, model_sql, marker, reads_source, date_column, data, plan, processed) %}
    {%- if not processed -%}{{ return(0) }}{%- endif -%}
    {%- set strategies = {true: adapter.dispatch('daily_new_rows_source_events', 'tideline'),
                          false: adapter.dispatch('daily_new_rows_filtered_events', 'tideline')} -%}
    {%- set rows_sql = strategies[reads_source](model_sql, marker, plan, processed) -%}
    {%- set columns = tideline.column_names(data) -%}
    {% call statement('append_part', fetch_result=false) %}
        insert into {{ data }} partition ({{ date_column }})
        select {{ columns | join(', ') }}
        from ({{ rows_sql }}) as part
        distribute by {{ date_column }}
    {% endcall %}
    {%- do tideline.checkpoint(model_name, 'written') -%}
    {% set count_sql %}
        select count(*) as written
        from {{ data }}
        where {{ date_column }} in {{ tideline.date_list(processed | map(attribute='event_date') | list) }}
            and _tl_run = '{{ tideline.run_id() }}'
    {% endset %}
    {{- return(tideline.query_rows(count_sql)[0].written | int) -}}
{% endmacro %}

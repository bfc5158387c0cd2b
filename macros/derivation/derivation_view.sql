{#- Derivations: the model's reader view, a data table of another layout refused, and the derived columns in the table's order. -#}

{#- The reader's view: the newest committed row of each unique key, with its commit time
    (`pending_run`: a rebuild into a new table, data_tables.sql). -#}
{% macro derivation_view_sql(settings, data, pending_run=none) %}
    {%- set columns = settings.derived | map('first') | list -%}
    {% set sql %}
        select {{ columns | join(', ') }}, _tl_batch, _tl_run
        from (
            select
                *,
                row_number() over (partition by {{ settings.unique_key | join(', ') }} order by _tl_batch desc) as _tl_newest
            from {{ data }}
            where tl_part = 'row' and tl_gen = cast(({{ tideline.live_generation_sql(settings.name, pending_run) }}) as string)
                and _tl_run in ({{ tideline.committed_runs_sql(settings.name, pending_run=pending_run) }})
        ) as newest
        where _tl_newest = 1
    {% endset %}
    {{- return(sql) -}}
{% endmacro %}

{#- An incremental run needs the data table it wrote before: registers, derived columns or the
    shuffle key's types changed since then need a rebuild. -#}
{% macro refuse_changed_layout(settings, existing_data) %}
    {%- set found = tideline.data_table_layout(existing_data) -%}
    {%- do tideline.align_derived_columns(settings, found) -%}
    {%- set wanted = tideline.derivation_layout(settings) -%}
    {%- if found != wanted -%}
        {{ exceptions.raise_compiler_error("tideline: derivation {name}: its registers, derived_columns or shuffle key types changed since {table} was built (it has {found}; the model now needs {wanted}). Registers cannot be carried over: rebuild with dbt run --full-refresh --select {name}".format(
            name=settings.name, table=existing_data, found=found | join(', '), wanted=wanted | join(', '))) }}
    {%- endif -%}
{% endmacro %}

{#- The derived columns in the data table's order (`found`: its layout), when it holds every one
    of them with its type: dbt does not keep a config mapping's order from one parse to the next
    (a partial parse can give another order than the full parse that built the table), and the
    run's insert is by position. The definition is taken again in that order, so an order alone
    is no change. Columns the table lacks are left as declared, for the layout check to refuse. -#}
{% macro align_derived_columns(settings, found) %}
    {%- set stored = [] -%}
    {%- for column in found -%}{%- do stored.append(column.split(' ', 1)) -%}{%- endfor -%}
    {%- set aligned = tideline.in_stored_order(settings.derived, stored) -%}
    {%- if aligned is none -%}{{ return(none) }}{%- endif -%}
    {%- do settings.update({'derived': aligned}) -%}
    {%- do settings.update({'definition': tideline.derivation_definition(settings)}) -%}
{% endmacro %}

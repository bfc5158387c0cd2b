{#- Derivations: the model's reader view, and a data table of another layout refused. -#}

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
    {%- set wanted = tideline.derivation_layout(settings) -%}
    {%- set found = tideline.data_table_layout(existing_data) -%}
    {%- if found != wanted -%}
        {{ exceptions.raise_compiler_error("tideline: derivation {name}: its registers, derived_columns or shuffle key types changed since {table} was built (it has {found}; the model now needs {wanted}). Registers cannot be carried over: rebuild with dbt run --full-refresh --select {name}".format(
            name=settings.name, table=existing_data, found=found | join(', '), wanted=wanted | join(', '))) }}
    {%- endif -%}
{% endmacro %}

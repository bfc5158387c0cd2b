{#- Mutability, append_only and ds_append_only: the run, its staged rows, and the write. -#}

{#- append_only and ds_append_only. Returns the relation the model now is and the rows written. -#}
{% macro materialize_appended(settings) %}
    {%- set relation = this.incorporate(type='view') -%}
    {%- set existing = adapter.get_relation(database=this.database, schema=this.schema, identifier=this.identifier) -%}
    {%- set window = tideline.append_window(settings, existing) -%}
    {%- if not window.prime -%}
        {#- rows are appended in place: the stored version table must be in the configured format -#}
        {%- do tideline.refuse_other_version_format(tideline._rows_table(existing)) -%}
    {%- endif -%}
    {%- set columns = get_columns_in_query(sql) -%}
    {%- if settings.along not in columns -%}
        {{ exceptions.raise_compiler_error("tideline: model {}: along {} is not a column of its query; it returns {}".format(
            model.name, settings.along | tojson, columns | join(', '))) }}
    {%- endif -%}
    {%- if not window.prime and not tideline.cron_due(settings, window.props.get('refreshed_at')) -%}
        {%- do tideline._log_skip(settings, window.props.get('refreshed_at')) -%}
        {{ return({'relation': existing, 'rows': 0}) }}
    {%- endif -%}
    {#- a temporary view named for this run: a Thrift server in single-session mode shares
        temporary views between its clients -#}
    {%- set staged = 'tl_stage__{}__{}'.format(model.name, tideline.run_id() | replace('-', '_')) -%}
    {%- do tideline._stage_new_rows(staged, columns, settings.along, window) -%}
    {%- set facts = tideline._staged_facts(staged, settings, window) -%}
    {%- do tideline._write_staged(staged, relation, existing, settings.along, window, facts.props) -%}
    {%- do log("tideline {} ({}): {} {} rows with {} {} {} and <= {}, largest stored {}, at {}".format(
        model.name, settings.type, 'primed' if window.prime else 'appended', facts.rows, settings.along, window.op, window.low,
        window.high, facts.props.get('along_max'), facts.props.refreshed_at), info=true) -%}
    {{ return({'relation': relation, 'rows': facts.rows}) }}
{% endmacro %}

{#- What the staged rows hold, refused past max_along_values (each value is a partition, and
    nothing is written yet), and the properties the version table keeps: {rows, props}. -#}
{% macro _staged_facts(staged, settings, window) %}
    {%- set seen = tideline.query_rows(tideline.staged_facts_sql(staged, settings.along))[0] -%}
    {%- if seen.along_values > settings.max_along_values -%}
        {%- do tideline._drop_staged(staged) -%}
        {{ exceptions.raise_compiler_error("tideline: model {}: this run would write {} values of along {}, more than max_along_values {}; each value is a partition. Use a date-like along (ds), narrow [min, max] for the prime, or raise max_along_values. Nothing was written.".format(
            model.name, seen.along_values, settings.along | tojson, settings.max_along_values)) }}
    {%- endif -%}
    {%- set fresh = tideline.newest_along_values(staged, settings.along, [settings.settle, 1] | max) -%}
    {{- return({'rows': seen.staged_rows | int, 'props': tideline.append_properties(settings, window, seen, fresh, tideline.now())}) -}}
{% endmacro %}

{#- The facts of the staged rows, one row: staged_rows, along_max (as text), along_values (how
    many distinct), along_type (the column's SQL type, as Spark's typeof names it). -#}
{% macro staged_facts_sql(staged, along) %}
    {% set facts_sql %}
        select
            count(*) as staged_rows,
            cast(max({{ along }}) as string) as along_max,
            count(distinct {{ along }}) as along_values,
            typeof(max({{ along }})) as along_type
        from {{ staged }}
    {% endset %}
    {{- return(facts_sql) -}}
{% endmacro %}

{#- The staged rows written: a prime builds a new version table, swapped in atomically as for
    full_mutation; an append overwrites the staged values' partitions in place (a rerun after a
    crash rewrites the same values, so nothing doubles), then the properties follow. -#}
{% macro _write_staged(staged, relation, existing, along, window, props) %}
    {%- if window.prime -%}
        {%- do tideline.build_and_swap(relation, existing, 'select * from {}'.format(staged), props, partition_by=along) -%}
    {%- else -%}
        {%- set holder = tideline._rows_table(existing) -%}
        {% set append_sql %}
            insert overwrite table {{ holder }} partition ({{ along }})
            select * from {{ staged }}
        {% endset %}
        {%- do tideline.exec(append_sql) -%}
        {%- do tideline.checkpoint(model.name, 'appended') -%}
        {%- do tideline.exec('alter table {} set {}'.format(holder, tideline._properties_sql(props))) -%}
    {%- endif -%}
    {%- do tideline._drop_staged(staged) -%}
{% endmacro %}

{#- Mutability: immutable and full_mutation, rebuilt whole into the next version table and
    swapped in (versions.sql, build_and_swap). -#}

{#- The version table a model's view selects from (`holder`, from _rows_table) must be in the
    model's file_format (a --full-refresh converts it: the next version is built in the new
    format, then the view is swapped to it); another one is refused with the fix before
    anything is written. -#}
{% macro refuse_other_version_format(holder) %}
    {%- set cached = holder if holder is none or holder.is_iceberg else adapter.get_relation(database=none, schema=holder.schema, identifier=holder.identifier) -%}
    {%- do tideline.refuse_other_file_format(model.name, cached, tideline.model_file_format(model.name)) -%}
{% endmacro %}

{#- Why this run rebuilds the model (none: it does not); refuses a changed immutable model. -#}
{% macro _rebuild_reason(settings, existing, props, sql_hash) %}
    {%- if existing is none or props.get('mutability') is none -%}
        {{- return('first build') -}}
    {%- elif should_full_refresh() -%}
        {{- return('--full-refresh') -}}
    {%- elif props.get('sql_hash') != sql_hash and settings.type == 'immutable' -%}
        {{ exceptions.raise_compiler_error("tideline: model {name} is immutable and its compiled SQL has changed since it was built at {built}; it is not rebuilt silently. Rebuild it with: dbt run --full-refresh --select {name}".format(
            name=model.name, built=props.get('refreshed_at'))) }}
    {%- elif props.get('sql_hash') != sql_hash -%}
        {{- return('its SQL changed') -}}
    {%- elif settings.type == 'full_mutation' and tideline.cron_due(settings, props.get('refreshed_at')) -%}
        {{- return('a tick of {} passed since {}'.format(settings.update_cron, props.get('refreshed_at'))) -}}
    {%- endif -%}
    {{- return(none) -}}
{% endmacro %}

{#- immutable and full_mutation. Returns the relation the model now is. -#}
{% macro materialize_rebuildable(settings) %}
    {%- set relation = this.incorporate(type='view') -%}
    {%- set existing = adapter.get_relation(database=this.database, schema=this.schema, identifier=this.identifier) -%}
    {%- set holder = tideline._rows_table(existing) -%}
    {%- set props = tideline.mutability_properties(existing, holder) -%}
    {%- set sql_hash = local_md5(sql) -%}
    {%- set now = tideline.now() -%}
    {%- if existing is not none and props.get('mutability') is not none and not should_full_refresh() -%}
        {%- do tideline.refuse_other_version_format(holder) -%}
    {%- endif -%}
    {%- set reason = tideline._rebuild_reason(settings, existing, props, sql_hash) -%}
    {%- if reason is none and settings.type == 'immutable' -%}
        {%- do log("tideline {} (immutable): skipped, nothing to do: built at {}; dbt run --full-refresh rebuilds it".format(
            model.name, props.get('refreshed_at')), info=true) -%}
        {{ return({'relation': existing, 'rows': 0}) }}
    {%- elif reason is none -%}
        {%- do tideline._log_skip(settings, props.get('refreshed_at')) -%}
        {{ return({'relation': existing, 'rows': 0}) }}
    {%- endif -%}
    {%- set rows = tideline.build_and_swap(relation, existing, sql,
        {'mutability': settings.type, 'update_cron': settings.update_cron, 'refreshed_at': now, 'sql_hash': sql_hash}) -%}
    {%- do log("tideline {} ({}): built ({}), {} rows, at {}".format(model.name, settings.type, reason, rows, now), info=true) -%}
    {{ return({'relation': relation, 'rows': rows}) }}
{% endmacro %}

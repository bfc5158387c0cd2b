{#- Mutability: how a source changes, as materializations, so tideline does the least
    work that is still correct. The materializations (macros/materializations/mutability.sql)
    are thin; the rules live here:
      immutable      built once; later runs do nothing; a changed compiled SQL is an error
      full_mutation  rebuilt when a tick of update_cron passed since the last build; atomic swap
      append_only    primed over [min, max]; later, after a tick, only rows with `along` above
                     the largest stored value are read and appended; `settle: N` re-reads the
                     newest N stored values and replaces their rows
      ds_append_only append_only with along: ds
    A model can also say `materialized='mutability'` with the seed's shape:
    `mutability={'type': 'append_only', 'type_params': {'along': 'ds', 'update_cron': '0 0 * * *'}}`.
    Every model is a view over a version table `<model>__tl_v<N>`; a build (or an append_only
    prime) writes a new version and swaps the view in one statement, an append writes into the
    current version. The refresh time and what the next run needs live in that table's
    TBLPROPERTIES (tideline.*), so they are written, dropped and swapped together with the rows. -#}

{% macro mutability_types() %}
    {{- return(['immutable', 'full_mutation', 'append_only', 'ds_append_only']) -}}
{% endmacro %}

{#- The model's mutability settings, validated: {type, update_cron, along, min, max, settle, max_along_values}. -#}
{% macro mutability_settings() %}
    {%- set model_name = model.name -%}
    {%- set materialized = config.get('materialized') -%}
    {%- if materialized == 'mutability' -%}
        {%- set spec = config.get('mutability') or {} -%}
        {%- set kind = spec.get('type') if spec is mapping else spec -%}
        {%- set params = (spec.get('type_params') or {}) if spec is mapping else {} -%}
    {%- else -%}
        {%- set kind = materialized -%}
        {%- set params = {'update_cron': config.get('update_cron'), 'along': config.get('along'), 'min': config.get('min'),
                          'max': config.get('max'), 'settle': config.get('settle'), 'max_along_values': config.get('max_along_values')} -%}
    {%- endif -%}
    {%- if kind not in tideline.mutability_types() -%}
        {{ exceptions.raise_compiler_error("tideline: model " ~ model_name ~ ": mutability type " ~ (kind | tojson)
            ~ " is unknown; accepted: " ~ tideline.mutability_types() | join(', ')) }}
    {%- endif -%}
    {%- set cron = params.get('update_cron') or '0 * * * *' -%}
    {%- do tideline.parse_cron(cron, 'update_cron of model ' ~ model_name) -%}
    {%- set along = params.get('along') -%}
    {%- if kind == 'ds_append_only' -%}
        {%- if along is not none and along != 'ds' -%}
            {{ exceptions.raise_compiler_error("tideline: model " ~ model_name ~ ": ds_append_only appends along ds, not "
                ~ (along | tojson) ~ "; use append_only for another column") }}
        {%- endif -%}
        {%- set along = 'ds' -%}
    {%- endif -%}
    {%- set settings = {'type': kind, 'update_cron': cron, 'along': along, 'append': kind in ('append_only', 'ds_append_only')} -%}
    {%- if settings.append -%}
        {%- if along is none or along is not string or not modules.re.match('^[A-Za-z_][A-Za-z0-9_]*$', along) -%}
            {{ exceptions.raise_compiler_error("tideline: model " ~ model_name ~ ": append_only needs `along`, the column new rows are found by; got "
                ~ (along | tojson) ~ "; accepted: a column name of the model's query, e.g. along='ds'") }}
        {%- endif -%}
        {%- set low = (params.get('min') if params.get('min') is not none else '1000-01-01') | string -%}
        {%- set high = (params.get('max') if params.get('max') is not none else '9999-12-31') | string -%}
        {%- set numeric = modules.re.match('^-?[0-9]+(\.[0-9]+)?$', low) and modules.re.match('^-?[0-9]+(\.[0-9]+)?$', high) -%}
        {%- if (numeric and (low | float) > (high | float)) or (not numeric and low > high) -%}
            {{ exceptions.raise_compiler_error("tideline: model " ~ model_name ~ ": min " ~ (low | tojson) ~ " is after max "
                ~ (high | tojson) ~ "; accepted: min <= max") }}
        {%- endif -%}
        {%- do settings.update({'min': low, 'max': high,
            'settle': tideline._whole_number(params, 'settle', 0, 0, 'how many of the newest stored values of along to re-read'),
            'max_along_values': tideline._whole_number(params, 'max_along_values', 10000, 1,
                'how many values of along one run may write; each is a partition')}) -%}
    {%- endif -%}
    {{- return(settings) -}}
{% endmacro %}

{#- An integer setting >= minimum, or the default when it is not set. -#}
{% macro _whole_number(params, name, default, minimum, meaning) %}
    {%- set value = params.get(name) if params.get(name) is not none else default -%}
    {%- if value is not number or value is boolean or (value | int) != value or value < minimum -%}
        {{ exceptions.raise_compiler_error("tideline: model " ~ model.name ~ ": " ~ name ~ " " ~ (value | tojson)
            ~ " is invalid; accepted: an integer >= " ~ minimum ~ " (" ~ meaning ~ ")") }}
    {%- endif -%}
    {{- return(value | int) -}}
{% endmacro %}

{#- Has a tick of the schedule passed since `last` (text), judged at tideline.now()? -#}
{% macro cron_due(settings, last) %}
    {%- set tick = tideline.cron_last(settings.update_cron, tideline.now(), 'update_cron of model ' ~ model.name) -%}
    {{- return(last is none or (tick is not none and tick.strftime('%Y-%m-%d %H:%M:%S') > last)) -}}
{% endmacro %}

{% macro _log_skip(settings, last) %}
    {%- set next_tick = tideline.cron_next(settings.update_cron, tideline.now(), 'update_cron of model ' ~ model.name) -%}
    {%- do log("tideline " ~ model.name ~ " (" ~ settings.type ~ "): skipped, nothing to do: last refreshed " ~ last
        ~ ", next tick of '" ~ settings.update_cron ~ "' at " ~ (next_tick.strftime('%Y-%m-%d %H:%M') if next_tick else 'never'), info=true) -%}
{% endmacro %}

{#- The version table a model's view selects from (`holder`, from _rows_table) must be in the
    model's file_format (a --full-refresh converts it: the next version is built in the new
    format, then the view is swapped to it); another one is refused with the fix before
    anything is written. -#}
{% macro refuse_other_version_format(holder) %}
    {%- set cached = holder if holder is none or holder.is_iceberg else adapter.get_relation(database=none, schema=holder.schema, identifier=holder.identifier) -%}
    {%- do tideline.refuse_other_file_format(model.name, cached, tideline.model_file_format(model.name)) -%}
{% endmacro %}

{#- immutable and full_mutation. Returns the relation the model now is. -#}
{% macro materialize_rebuildable(settings) %}
    {%- set relation = this.incorporate(type='view') -%}
    {%- set existing = adapter.get_relation(database=this.database, schema=this.schema, identifier=this.identifier) -%}
    {%- set holder = tideline._rows_table(existing) -%}
    {%- set props = tideline.mutability_properties(existing, holder) -%}
    {%- set sql_hash = local_md5(sql) -%}
    {%- set now = tideline.now() -%}
    {%- set reason = none -%}
    {%- if existing is not none and props.get('mutability') is not none and not should_full_refresh() -%}
        {%- do tideline.refuse_other_version_format(holder) -%}
    {%- endif -%}
    {%- if existing is none or props.get('mutability') is none -%}
        {%- set reason = 'first build' -%}
    {%- elif should_full_refresh() -%}
        {%- set reason = '--full-refresh' -%}
    {%- elif props.get('sql_hash') != sql_hash and settings.type == 'immutable' -%}
        {{ exceptions.raise_compiler_error("tideline: model " ~ model.name ~ " is immutable and its compiled SQL has changed since it was built at "
            ~ props.get('refreshed_at') ~ "; it is not rebuilt silently. Rebuild it with: dbt run --full-refresh --select " ~ model.name) }}
    {%- elif props.get('sql_hash') != sql_hash -%}
        {%- set reason = 'its SQL changed' -%}
    {%- elif settings.type == 'full_mutation' and tideline.cron_due(settings, props.get('refreshed_at')) -%}
        {%- set reason = 'a tick of ' ~ settings.update_cron ~ ' passed since ' ~ props.get('refreshed_at') -%}
    {%- endif -%}
    {%- if reason is none -%}
        {%- if settings.type == 'immutable' -%}
            {%- do log("tideline " ~ model.name ~ " (immutable): skipped, nothing to do: built at " ~ props.get('refreshed_at')
                ~ "; dbt run --full-refresh rebuilds it", info=true) -%}
        {%- else -%}
            {%- do tideline._log_skip(settings, props.get('refreshed_at')) -%}
        {%- endif -%}
        {{ return({'relation': existing, 'rows': 0}) }}
    {%- endif -%}
    {%- set rows = tideline.build_and_swap(relation, existing, sql,
        {'mutability': settings.type, 'update_cron': settings.update_cron, 'refreshed_at': now, 'sql_hash': sql_hash}) -%}
    {%- do log("tideline " ~ model.name ~ " (" ~ settings.type ~ "): built (" ~ reason ~ "), " ~ rows ~ " rows, at " ~ now, info=true) -%}
    {{ return({'relation': relation, 'rows': rows}) }}
{% endmacro %}

{#- append_only: the bounds of this run's read of `along`. Shared by along_min()/along_max()
    (which the model's SQL may use) and the materialization (which filters by them anyway). -#}
{% macro append_window(settings, existing) %}
    {%- set props = tideline.mutability_properties(existing) -%}
    {%- if existing is none or should_full_refresh() or props.get('mutability') is none -%}
        {{ return({'prime': true, 'low': settings.min, 'high': settings.max, 'op': '>=', 'props': props}) }}
    {%- endif -%}
    {%- if props.get('along_max') is none -%}
        {#- primed, but nothing was stored yet -#}
        {{ return({'prime': false, 'low': settings.min, 'high': settings.max, 'op': '>=', 'props': props}) }}
    {%- endif -%}
    {%- set low = props.along_max -%}
    {%- if settings.settle > 0 -%}
        {%- set recent = fromjson(props.get('along_recent') or '[]') -%}
        {%- if recent | length < settings.settle -%}
            {#- settle was raised, or few values are stored yet: look them up once -#}
            {%- set recent = tideline.query_rows('select cast(' ~ settings.along ~ ' as string) from (select distinct ' ~ settings.along
                ~ ' from ' ~ existing ~ ') order by ' ~ settings.along ~ ' desc limit ' ~ settings.settle) | map('first') | list -%}
        {%- endif -%}
        {%- set low = (recent[:settings.settle] | last) if recent else low -%}
    {%- endif -%}
    {{- return({'prime': false, 'low': low, 'high': settings.max, 'op': '>=' if settings.settle > 0 else '>', 'props': props}) -}}
{% endmacro %}

{#- For the model's SQL: the inclusive bounds of `along` this run reads, e.g.
    `where ds between '{{ tideline.along_min() }}' and '{{ tideline.along_max() }}'`. -#}
{#- (While dbt parses, the config is not known yet: the defaults stand in.) -#}
{% macro along_min() %}
    {%- if not execute -%}{{ return('1000-01-01') }}{%- endif -%}
    {{- return(tideline._current_window().low) -}}
{% endmacro %}

{% macro along_max() %}
    {%- if not execute -%}{{ return('9999-12-31') }}{%- endif -%}
    {{- return(tideline.mutability_settings().max) -}}
{% endmacro %}

{% macro _current_window() %}
    {%- set existing = adapter.get_relation(database=this.database, schema=this.schema, identifier=this.identifier) -%}
    {{- return(tideline.append_window(tideline.mutability_settings(), existing)) -}}
{% endmacro %}

{#- append_only and ds_append_only. Returns the relation the model now is. -#}
{% macro materialize_append_only(settings) %}
    {%- set relation = this.incorporate(type='view') -%}
    {%- set existing = adapter.get_relation(database=this.database, schema=this.schema, identifier=this.identifier) -%}
    {%- set window = tideline.append_window(settings, existing) -%}
    {%- if not window.prime -%}
        {#- rows are appended in place: the stored version table must be in the configured format -#}
        {%- do tideline.refuse_other_version_format(tideline._rows_table(existing)) -%}
    {%- endif -%}
    {%- set now = tideline.now() -%}
    {%- set along = settings.along -%}
    {%- set columns = get_columns_in_query(sql) -%}
    {%- if along not in columns -%}
        {{ exceptions.raise_compiler_error("tideline: model " ~ model.name ~ ": along " ~ (along | tojson)
            ~ " is not a column of its query; it returns " ~ columns | join(', ')) }}
    {%- endif -%}
    {%- if not window.prime and not tideline.cron_due(settings, window.props.get('refreshed_at')) -%}
        {%- do tideline._log_skip(settings, window.props.get('refreshed_at')) -%}
        {{ return({'relation': existing, 'rows': 0}) }}
    {%- endif -%}
    {%- set ordered = [] -%}
    {%- for c in columns if c != along -%}{%- do ordered.append(c) -%}{%- endfor -%}
    {%- do ordered.append(along) -%}
    {#- the filter is added also when the SQL ignores the bounds (the seed's outer WHERE) -#}
    {%- set new_rows = 'select ' ~ ordered | join(', ') ~ ' from (' ~ sql ~ ') as model_rows where ' ~ along ~ ' ' ~ window.op
        ~ " '" ~ window.low ~ "' and " ~ along ~ " <= '" ~ window.high ~ "'" -%}
    {#- a temporary view named for this run: a Thrift server in single-session mode shares
        temporary views between its clients -#}
    {%- set staged = 'tl_stage__' ~ model.name ~ '__' ~ tideline.run_id() | replace('-', '_') -%}
    {%- do tideline.exec('drop view if exists ' ~ staged) -%}
    {%- do tideline.exec('cache table ' ~ staged ~ ' as ' ~ new_rows) -%}
    {%- set keep = [settings.settle, 1] | max -%}
    {%- set seen = tideline.query_rows('select count(*), cast(max(' ~ along ~ ') as string), count(distinct ' ~ along ~ ') from ' ~ staged)[0] -%}
    {%- if seen[2] > settings.max_along_values -%}
        {#- each value becomes a partition: refuse before a run writes a directory per row -#}
        {%- do tideline.exec('uncache table if exists ' ~ staged) -%}
        {%- do tideline.exec('drop view if exists ' ~ staged) -%}
        {{ exceptions.raise_compiler_error("tideline: model " ~ model.name ~ ": this run would write " ~ seen[2] ~ " values of along "
            ~ (along | tojson) ~ ", more than max_along_values " ~ settings.max_along_values ~ "; each value is a partition. "
            ~ "Use a date-like along (ds), narrow [min, max] for the prime, or raise max_along_values. Nothing was written.") }}
    {%- endif -%}
    {%- set fresh = tideline.query_rows('select cast(' ~ along ~ ' as string) from (select distinct ' ~ along ~ ' from ' ~ staged
        ~ ') order by ' ~ along ~ ' desc limit ' ~ keep) | map('first') | list -%}
    {%- set recent = (fresh + (fromjson(window.props.get('along_recent') or '[]') if not window.prime else [])) | unique | sort(reverse=true) | list -%}
    {%- set props = {'mutability': settings.type, 'update_cron': settings.update_cron, 'along': along, 'refreshed_at': now,
                     'along_max': seen[1] if seen[1] is not none else window.props.get('along_max'),
                     'along_recent': (recent[:keep] | tojson)} -%}
    {%- if props.along_max is none -%}{%- do props.pop('along_max') -%}{%- endif -%}
    {%- if window.prime -%}
        {#- a new version table, swapped in atomically as for full_mutation -#}
        {%- do tideline.build_and_swap(relation, existing, 'select * from ' ~ staged, props, partition_by=along) -%}
    {%- else -%}
        {#- in place, by dynamic partition overwrite: a rerun after a crash rewrites the same values,
            so nothing doubles; the properties follow -#}
        {%- set holder = tideline._rows_table(existing) -%}
        {%- do tideline.exec('insert overwrite table ' ~ holder ~ ' partition (' ~ along ~ ') select * from ' ~ staged) -%}
        {%- do tideline.checkpoint(model.name, 'appended') -%}
        {%- do tideline.exec('alter table ' ~ holder ~ ' set ' ~ tideline._properties_sql(props)) -%}
    {%- endif -%}
    {%- do tideline.exec('uncache table if exists ' ~ staged) -%}
    {%- do tideline.exec('drop view if exists ' ~ staged) -%}
    {%- do log("tideline " ~ model.name ~ " (" ~ settings.type ~ "): " ~ ('primed' if window.prime else 'appended') ~ " "
        ~ seen[0] ~ " rows with " ~ along ~ " " ~ window.op ~ " " ~ window.low ~ " and <= " ~ window.high
        ~ ", largest stored " ~ props.get('along_max') ~ ", at " ~ now, info=true) -%}
    {{ return({'relation': relation, 'rows': seen[0] | int}) }}
{% endmacro %}

{#- Validated access to tideline's vars. Each accessor fails at compile time naming the var,
    the value given and what is accepted; `validate_vars` (an on-run-start hook) checks them all
    before any node runs, so a bad value writes nothing (var_accessors.sql, var_names.sql). -#}

{#- The defaults, in one place. They live here and not in dbt_project.yml because a project
    that installs tideline as a package does not see the package's vars in its own models
    (its daily aggregates call these accessors too); set any of them with --vars or in your
    dbt_project.yml. -#}
{% macro default_vars() %}
    {{- return({
        'tideline__start_date': '2025-01-01',
        'tideline__backfill_limit_days': 30,
        'tideline__reprocess_days': 7,
        'tideline__min_rows_to_process': 1,
        'tideline__dedupe_lookback_days': 3,
        'tideline__app_id': [],
        'tideline__events_to_include': [],
        'tideline__attribute_key': 'domain_userid',
        'tideline__now': none,
        'tideline__backfill_dates': none,
        'tideline__run_lock_minutes': 120,
        'tideline__compact_every': 24,
        'tideline__settle_every': 1,
        'tideline__include_current_day': true,
        'tideline__attributes_as_of': none,
        'tideline__state_file_format': env_var('TIDELINE_FILE_FORMAT', 'delta'),
        'tideline__iceberg_catalog': 'tideline_iceberg',
        'tideline__freshness_warn_hours': 3,
        'tideline__freshness_error_days': 2,
        'tideline__on_bad_rows': 'warn',
        'tideline__late_row_lookback': '1d',
    }) -}}
{% endmacro %}

{% macro tl_var(name) %}
    {{- return(var(name, tideline.default_vars()[name])) -}}
{% endmacro %}

{% macro _var_error(name, value, accepted) %}
    {{ exceptions.raise_compiler_error("tideline: var {} = {} is invalid; accepted: {}".format(name, tideline.shown(value), accepted)) }}
{% endmacro %}

{% macro validate_vars() %}
    {%- if not execute -%}{{ return('') }}{%- endif -%}
    {%- do tideline.refuse_unknown_vars() -%}
    {%- do tideline.var_date('tideline__start_date') -%}
    {%- do tideline.var_int('tideline__backfill_limit_days', 1) -%}
    {%- do tideline.var_int('tideline__reprocess_days', 0) -%}
    {%- do tideline.var_int('tideline__min_rows_to_process', 1) -%}
    {%- do tideline.var_int('tideline__dedupe_lookback_days', 0) -%}
    {%- do tideline.var_string_list('tideline__app_id') -%}
    {%- do tideline.var_string_list('tideline__events_to_include') -%}
    {%- do tideline.var_identifier('tideline__attribute_key') -%}
    {%- if tideline.var_date('tideline__start_date') > tideline.now()[:10] -%}
        {{ tideline._var_error('tideline__start_date', tideline.tl_var('tideline__start_date'),
            "a date on or before now ({} UTC): nothing after now can have been loaded".format(tideline.now())) }}
    {%- endif -%}
    {%- for name in ['tideline__events_schema', 'tideline__events_table'] if var(name, none) is not none -%}
        {%- do tideline.var_identifier(name, 'a schema or table name') -%}
    {%- endfor -%}
    {%- do tideline._daily_backfill_dates() -%}
    {%- do tideline.var_int('tideline__run_lock_minutes', 1) -%}
    {%- do tideline.var_int('tideline__settle_every', 1) -%}
    {%- do tideline.var_bool('tideline__include_current_day') -%}
    {%- do tideline.attributes_reference_date() -%}
    {%- do tideline.state_file_format() -%}
    {%- do tideline.var_identifier('tideline__iceberg_catalog', 'a Spark catalog name') -%}
    {%- do tideline.var_int('tideline__freshness_warn_hours', 1) -%}
    {%- do tideline.var_int('tideline__freshness_error_days', 1) -%}
    {%- do tideline.pipeline_on_bad_rows() -%}
    {%- do tideline.late_row_lookback_var() -%}
    {#- renders to nothing, so dbt sends no statement for this hook -#}
{% endmacro %}

{#- materialized='tideline_daily_aggregate': see macros/incremental/daily_aggregate.sql (recompute)
    and daily_merge.sql (merge). Config: date_column (default event_date), the column the
    analyst's select groups by day; measures ({column: kind}), the measures it merges. -#}
{% materialization tideline_daily_aggregate, adapter='spark' %}
    {%- do tideline.prepare_session(this.identifier) -%}
    {%- do tideline.refuse_unknown_configs(this.identifier) -%}
    {%- set date_column = config.get('date_column', 'event_date') -%}
    {%- set measures = tideline.daily_measures(this.identifier) -%}
    {%- set path = tideline.daily_aggregate_path(this.identifier, sql, measures) -%}
    {%- set build = {'merge': adapter.dispatch('build_daily_aggregate_merge', 'tideline'),
                     'recompute': adapter.dispatch('build_daily_aggregate_recompute', 'tideline')}[path] -%}

    {{ run_hooks(pre_hooks) }}
    {%- set built = build(this, sql, date_column, measures, should_full_refresh()) -%}
    {%- do tideline.store_main('tideline: {} rows written ({})'.format(built.result.rows_written if built.result else 0, path)) -%}
    {{ run_hooks(post_hooks) }}

    {#- the model exists after every run, a first one with nothing to aggregate included -#}
    {{ return({'relations': [built.relation]}) }}
{% endmaterialization %}

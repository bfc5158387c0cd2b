{#- materialized='tideline_filtered_events': see macros/incremental/filtered_events.sql. -#}
{% materialization tideline_filtered_events, adapter='spark' %}
    {%- do tideline.prepare_session(this.identifier) -%}
    {%- do tideline.refuse_unknown_configs(this.identifier) -%}
    {%- set target_relation = this.incorporate(type='view') -%}

    {{ run_hooks(pre_hooks) }}
    {%- set run = tideline.build_filtered_events(target_relation, sql, should_full_refresh()) -%}
    {%- do tideline.store_main('tideline: {} rows written'.format(run.rows_written if run else 0)) -%}
    {{ run_hooks(post_hooks) }}

    {#- the view exists after every run, the first one with no rows included -#}
    {{ return({'relations': [target_relation]}) }}
{% endmaterialization %}

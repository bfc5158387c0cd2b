{#- materialized='tideline_filtered_events': see macros/incremental/filtered_events.sql. -#}
{% materialization tideline_filtered_events, adapter='spark' %}
    {%- do tideline.prepare_session(this.identifier) -%}
    {%- do tideline.refuse_unknown_configs(this.identifier) -%}
    {%- set target_relation = this.incorporate(type='view') -%}

    {{ run_hooks(pre_hooks) }}
    {%- if tideline.events_pipeline_in_use() -%}
        {%- set run = tideline.build_filtered_events(target_relation, sql, should_full_refresh()) -%}
        {%- do tideline.store_main('tideline: {} rows written'.format(run.rows_written if run else 0)) -%}
    {%- else -%}
        {#- a project that installs tideline for its other capabilities alone (pipeline_use.sql) -#}
        {%- do tideline.pipeline_placeholder(target_relation) -%}
        {%- do tideline.store_main('tideline: not built (the pipeline is not used)') -%}
    {%- endif -%}
    {{ run_hooks(post_hooks) }}

    {#- the view exists after every run, the first one with no rows included -#}
    {{ return({'relations': [target_relation]}) }}
{% endmaterialization %}

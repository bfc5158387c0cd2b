{#- A run's now checked against what its models already committed. -#}

{#- A run's now must not be before what the model already committed: its window would be
    inverted, and its date rules (reprocess_days, the attribute windows) would be evaluated at a
    time the model has already passed. -#}
{% macro refuse_now_before_watermark(model_name, watermark) %}
    {%- if watermark is not none and watermark[:19] > tideline.now() -%}
        {{ tideline._refuse_now_before(["{} ({})".format(model_name, watermark)]) }}
    {%- endif -%}
{% endmacro %}

{% macro _refuse_now_before(watermarks) %}
    {{ exceptions.raise_compiler_error("tideline: now ({} UTC) is before the watermark of {}: everything up to then was already processed. Run with a later tideline__now (or TIDELINE_NOW), or without one; to replay an earlier time, rebuild: dbt run --full-refresh with that now.".format(
        tideline.now(), watermarks | join(', '))) }}
{% endmacro %}

{#- on-run-start (from ensure_state_tables, when tl_state exists): the same check for every
    selected model at once, before any model runs, so that no model of the run writes. Only
    when now is pinned (tideline__now, TIDELINE_NOW): the clock cannot be before a watermark,
    which is at most the now of an earlier run. And only when the run writes more than one
    node: a lone model refuses itself before it writes. One query over the run rows of
    tl_state. -#}
{% macro refuse_now_before_watermarks() %}
    {%- set pinned = tideline.tl_var('tideline__now') not in [none, ''] or env_var('TIDELINE_NOW', '') != '' -%}
    {%- set selected = [] -%}
    {%- set writers = [] -%}
    {%- for uid in selected_resources if uid in graph.nodes -%}
        {%- do selected.append(graph.nodes[uid].name) -%}
        {%- if graph.nodes[uid].resource_type in ['model', 'seed', 'snapshot'] -%}{%- do writers.append(uid) -%}{%- endif -%}
    {%- endfor -%}
    {%- if not pinned or writers | length < 2 or flags.FULL_REFRESH -%}{{ return(none) }}{%- endif -%}
    {% set sql %}
        select model, cast(max(watermark) as string) as watermark
        from {{ tideline.state_table() }}
        where kind = 'run' and model in {{ tideline.string_list(selected) }}
        group by model
        having max(watermark) > {{ tideline.ts(tideline.now()) }}
        order by model
    {% endset %}
    {%- set late = [] -%}
    {%- for row in tideline.query_rows(sql) -%}{%- do late.append("{} ({})".format(row.model, row.watermark)) -%}{%- endfor -%}
    {%- if late -%}{{ tideline._refuse_now_before(late) }}{%- endif -%}
{% endmacro %}

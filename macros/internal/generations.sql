{#- Generations: how a data table that records changes (a derivation's versions, a continual
    task's inserts and deletions) keeps what a run scans proportional to its live contents, not
    to its history. Shared by macros/derivation/ and macros/continual_task/.

    The data table is partitioned by generation (the string column tl_gen; a Hive metastore's
    partition filter parser refuses names that start with `_`). Readers read the live
    generation only: the newest generation a committed run of the model recorded
    (tl_state.generation). Every compact_every runs (steps, for a task), a run writes the live
    contents into the next generation instead of its changes, in its one insert; its commit
    makes that generation live; then the old generations are dropped. A run that dies before
    its commit leaves rows in a generation no commit names (or rows of a run no commit names),
    which nobody reads and the next compaction drops. -#}

{#- The live generation of `model_name`, as a subquery (0 before any commit); `pending_run`: as
    committed_runs_sql. -#}
{% macro live_generation_sql(model_name, pending_run=none) %}
    select coalesce(max(generation), 0) from {{ tideline.state_table() }} where {{ tideline.state_models_sql(model_name, pending_run) }} and kind = 'run'
{%- endmacro %}

{#- The model's compact_every: its config, or the var tideline__compact_every (default 24).
    `error` is the capability's error macro (model, setting, value, accepted). Also the number
    of files a model's state may hold before a commit compacts it (compact_state). -#}
{% macro compact_every_setting(model_name, error=none) %}
    {%- set error = error or tideline._model_config_error -%}
    {%- set value = config.get('compact_every', none) -%}
    {%- set value = tideline.var_int('tideline__compact_every', 1) if value is none else value -%}
    {%- if value is string or value is boolean or value is not number or (value | int) != value or value < 1 -%}
        {{ error(model_name, 'compact_every', value, "an integer >= 1 (runs between compactions)") }}
    {%- endif -%}
    {{- return(value | int) -}}
{% endmacro %}

{#- The generation a run (or step) reads and the one it writes: the next one when the live
    generation has had compact_every runs. -#}
{% macro generation_plan(generation, runs_in_generation, compact_every) %}
    {%- set compact = runs_in_generation >= compact_every -%}
    {{- return({'read_gen': generation, 'write_gen': generation + (1 if compact else 0), 'compact': compact}) -}}
{% endmacro %}

{#- A data table's columns as 'name type' (lower-case names, Spark's type names), to compare
    with the columns a model needs: a rebuild keeps the table when they are the same. -#}
{% macro data_table_layout(relation) %}
    {%- set layout = [] -%}
    {%- for c in adapter.get_columns_in_relation(relation) -%}
        {%- do layout.append((c.name | lower) ~ ' ' ~ tideline.type_name(c.data_type)) -%}
    {%- endfor -%}
    {{- return(layout) -}}
{% endmacro %}

{#- A rebuild's generations (a --full-refresh over a data table of the same layout): it writes
    the whole model into the generation after the live one `generation` and reads nothing
    stored (no committed run has rows there). Its commit, which replaces the model's state,
    makes that generation live: readers see the old rows until that one statement, the new
    rows after it, and a rebuild that dies before it leaves tables and state as they were.
    Then the old generations are dropped, as after a compaction. -#}
{% macro rebuild_plan(generation) %}
    {{- return({'read_gen': generation + 1, 'write_gen': generation + 1, 'compact': false,
                'rebuild': true, 'replaced_gen': generation}) -}}
{% endmacro %}

{#- After a compacting run's commit: drop the generations before the new live one (the one it
    read, and one more left behind by a run that died between its commit and this drop), for
    each value of the table's other partition column `parts` ([column, [values]]) if any. -#}
{% macro drop_old_generations(data, plan, parts=none) %}
    {%- set generations = [] -%}
    {%- for g in [plan.read_gen - 1, plan.read_gen] if g >= 0 -%}{%- do generations.append(g | string) -%}{%- endfor -%}
    {%- set strategy = {'parquet': adapter.dispatch('drop_generations_parquet', 'tideline'),
                         'delta': adapter.dispatch('drop_generations_delta', 'tideline'),
                         'iceberg': adapter.dispatch('drop_generations_iceberg', 'tideline')}[tideline.model_file_format(model.name)] -%}
    {%- do strategy(data, generations, parts) -%}
{% endmacro %}

{#- delta: one delete of the generations' rows (partition columns only: whole files go). -#}
{% macro default__drop_generations_delta(data, generations, parts) %}
    {% call statement('drop_generations', fetch_result=false) %}
        delete from {{ data }}
        where tl_gen in {{ tideline.string_list(generations) }}
    {% endcall %}
{% endmacro %}

{#- iceberg: the same delete as delta. -#}
{% macro default__drop_generations_iceberg(data, generations, parts) %}
    {%- do tideline.default__drop_generations_delta(data, generations, parts) -%}
{% endmacro %}

{#- parquet: drop the generations' partitions (for each value of `parts`, [column, [values]]). -#}
{% macro default__drop_generations_parquet(data, generations, parts) %}
    {%- set partitions = [] -%}
    {%- for g in generations -%}
        {%- for part in (parts[1] if parts else [none]) -%}
            {%- do partitions.append("partition (" ~ (parts[0] ~ " = '" ~ part ~ "', " if parts else "") ~ "tl_gen = '" ~ g ~ "')") -%}
        {%- endfor -%}
    {%- endfor -%}
    {%- do tideline.exec('alter table ' ~ data ~ ' drop if exists ' ~ partitions | join(', ')) -%}
{% endmacro %}

{% macro _model_config_error(model_name, setting, value, accepted) %}
    {{ exceptions.raise_compiler_error("tideline: model " ~ model_name ~ ": config " ~ setting ~ " = "
        ~ (value | tojson if value is not string else value) ~ " is invalid; accepted: " ~ accepted) }}
{% endmacro %}

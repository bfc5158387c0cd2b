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

{#- The generation a run (or step) reads and the one it writes: the next one when the live
    generation has had compact_every runs. -#}
{% macro generation_plan(generation, runs_in_generation, compact_every) %}
    {%- set compact = runs_in_generation >= compact_every -%}
    {{- return({'read_gen': generation, 'write_gen': generation + (1 if compact else 0), 'compact': compact}) -}}
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

{#- A data table's columns as 'name type' (lower-case names, Spark's type names), to compare
    with the columns a model needs: a rebuild keeps the table when they are the same. -#}
{% macro data_table_layout(relation) %}
    {%- set layout = [] -%}
    {%- for c in adapter.get_columns_in_relation(relation) -%}
        {%- do layout.append('{} {}'.format(c.name | lower, tideline.type_name(c.data_type))) -%}
    {%- endfor -%}
    {{- return(layout) -}}
{% endmacro %}

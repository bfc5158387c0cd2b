{#- The old generations of a data table dropped, by a dispatched strategy per format (a
    project may override drop_generations_<format>). -#}

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
            {%- set outer = "{} = '{}', ".format(parts[0], part) if parts else "" -%}
            {%- do partitions.append("partition ({}tl_gen = '{}')".format(outer, g)) -%}
        {%- endfor -%}
    {%- endfor -%}
    {%- do tideline.exec('alter table {} drop if exists {}'.format(data, partitions | join(', '))) -%}
{% endmacro %}

{#- Derivations: the SQL a model hands to its transforms (update expressions, what a publish
    lambda returns) planned against the sources' columns before anything is written, so a column
    that does not resolve or a value of a type the declared one does not take without a cast is
    refused naming the transform and the setting, not met half-way through a run or hidden by
    the run's cast. -#}

{#- Each transform's update expressions: one `explain` of them all over its source (empty); when
    Spark cannot plan that, one per expression finds the one to refuse. Then one `describe query`
    of them: each must return a type its register takes without a cast (first_unfit_column). -#}
{% macro check_update_expressions(settings) %}
    {%- for t in settings.transforms if t.updates -%}
        {%- set probe = tideline._updates_probe_sql(settings, t, t.updates.keys() | list) -%}
        {%- if tideline.analysis_error(probe) is not none -%}
            {%- for r in t.updates -%}
                {%- set error = tideline.analysis_error(tideline._updates_probe_sql(settings, t, [r])) -%}
                {%- if error is not none -%}
                    {{ tideline._derivation_error(settings.name, 'update.{}'.format(r), t.updates[r],
                        "an expression Spark can plan row by row over the columns of {} ({}); Spark says: {}".format(
                            t.source.rendered, t.types.keys() | join(', '), error), t.name) }}
                {%- endif -%}
            {%- endfor -%}
        {%- endif -%}
        {%- set found = [] -%}
        {%- for row in tideline.query_rows('describe query {}'.format(probe)) if row.col_name.startswith('_tl_u_') -%}
            {%- do found.append([row.col_name[6:], tideline.type_name(row.data_type)]) -%}
        {%- endfor -%}
        {%- set registers = [] -%}
        {%- for r in settings.registers -%}{%- do registers.append([r.name, r.type]) -%}{%- endfor -%}
        {%- set unfit = tideline.first_unfit_column(found, registers) -%}
        {%- if unfit is not none -%}
            {{ tideline._derivation_error(settings.name, 'update.{}'.format(unfit.name), t.updates[unfit.name],
                "{} (this expression is of type {})".format(tideline.unfit_column_accepted(unfit, 'the update'), unfit.found), t.name) }}
        {%- endif -%}
    {%- endfor -%}
{% endmacro %}

{#- The updates of registers `names` of transform t over an empty source, as the run computes them
    (before its cast to the register's type), beside the source's own columns as a run reads them
    (so an aggregate, which a run cannot compute row by row, does not plan either). -#}
{% macro _updates_probe_sql(settings, t, names) %}
    select
        {%- for r in settings.registers if r.name in names %}
        ({{ t.updates[r.name] }}) as _tl_u_{{ r.name }},
        {%- endfor %}
        s.*
    from {{ t.source.rendered }} as s
    where false
{%- endmacro %}

{#- Each column a publish lambda returns (`columns`, described) is of a type its declared type
    (derived_columns) takes without a cast; the first that is not is refused. -#}
{% macro _publish_types_fit(settings, t, columns) %}
    {%- set unfit = tideline.first_unfit_column(columns, settings.derived) -%}
    {%- if unfit is not none -%}
        {{ tideline._derivation_error(settings.name, 'publish column {}'.format(unfit.name), unfit.found,
            tideline.unfit_column_accepted(unfit, 'the publish lambda'), t.name) }}
    {%- endif -%}
{% endmacro %}

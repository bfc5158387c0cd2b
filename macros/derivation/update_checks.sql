{#- Derivations: the SQL a model hands to its transforms (update expressions, what a publish
    lambda returns) planned against the sources' columns before anything is written, so a column
    that does not resolve or a value of a type that cannot become the declared one is refused
    naming the transform and the setting, not met half-way through a run. -#}

{#- Each transform's update expressions: one `explain` of them all over its source (empty), each
    cast to its register's type as the run casts it; when Spark cannot plan that, one per
    expression finds the one to refuse. -#}
{% macro check_update_expressions(settings) %}
    {%- for t in settings.transforms if t.updates -%}
        {%- if tideline.analysis_error(tideline._updates_probe_sql(settings, t, t.updates.keys() | list)) is not none -%}
            {%- for r in t.updates -%}
                {%- set error = tideline.analysis_error(tideline._updates_probe_sql(settings, t, [r])) -%}
                {%- if error is not none -%}
                    {%- set type = (settings.registers | selectattr('name', 'equalto', r) | first).type -%}
                    {{ tideline._derivation_error(settings.name, 'update.{}'.format(r), t.updates[r],
                        "an expression Spark can plan over the columns of {} ({}) and cast to {}; Spark says: {}".format(
                            t.source.rendered, t.types.keys() | join(', '), type, error), t.name) }}
                {%- endif -%}
            {%- endfor -%}
        {%- endif -%}
    {%- endfor -%}
{% endmacro %}

{#- The updates of registers `names` of transform t over an empty source, cast as a run casts them,
    beside the source's own columns as a run reads them (so an aggregate, which a run cannot
    compute row by row, does not plan either). -#}
{% macro _updates_probe_sql(settings, t, names) %}
    select
        {%- for r in settings.registers if r.name in names %}
        {{ tideline.checked_cast(t.updates[r.name], r.type, 'update') }} as _tl_u_{{ r.name }},
        {%- endfor %}
        s.*
    from {{ t.source.rendered }} as s
    where false
{%- endmacro %}

{#- Each column a publish lambda returns can become its declared type (derived_columns) as the
    run casts it: checked by one `explain` when a type differs; the first that cannot is refused. -#}
{% macro _publish_types_fit(settings, t, columns) %}
    {%- set declared = {} -%}
    {%- for c in settings.derived -%}{%- do declared.update({c[0]: c[1]}) -%}{%- endfor -%}
    {%- set differ = [] -%}
    {%- for c in columns if c[1] != declared[c[0]] -%}{%- do differ.append(c) -%}{%- endfor -%}
    {%- if differ and tideline.analysis_error(tideline._publish_casts_probe_sql(settings, t, differ, declared)) is not none -%}
        {%- for c in differ if tideline.analysis_error(tideline._publish_casts_probe_sql(settings, t, [c], declared)) is not none -%}
            {%- if loop.first -%}
                {{ tideline._derivation_error(settings.name, 'publish column {}'.format(c[0]), c[1],
                    "a value that can become {}, the column's type in derived_columns".format(declared[c[0]]), t.name) }}
            {%- endif -%}
        {%- endfor -%}
    {%- endif -%}
{% endmacro %}

{#- The publish lambda's columns `columns` over an empty document, cast as a run casts them. -#}
{% macro _publish_casts_probe_sql(settings, t, columns, declared) %}
    select
        {%- for c in columns %}
        {{ tideline.checked_cast(c[0], declared[c[0]], 'publish') }} as {{ c[0] }}{{ ',' if not loop.last }}
        {%- endfor %}
    from ({{ tideline._publish_probe_sql(settings, t) }}) as p
{%- endmacro %}

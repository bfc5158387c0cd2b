{#- Derivations: the SQL a model hands to its transforms (update expressions, what a publish
    lambda returns) planned against the sources' columns before anything is written, so a column
    that does not resolve or a value of a type the declared one does not take without a cast is
    refused naming the transform and the setting, not met half-way through a run or hidden by
    the run's cast. -#}

{#- Each transform's update expressions: one `explain` of them all over its source (empty); when
    Spark cannot plan that, one per expression finds the one to refuse. Then one `describe query`
    of them: each must return a type its register takes without a cast (first_unfit_column).
    Updates that read the register (register_reads.sql) are planned apart, over `_register` and
    `_doc` only, as the fold computes them: a bare column there is refused. -#}
{% macro check_update_expressions(settings) %}
    {%- for t in settings.transforms if t.updates -%}
        {%- set plain = [] -%}
        {%- for r in t.updates if r not in t.reading -%}{%- do plain.append(r) -%}{%- endfor -%}
        {%- for names in [plain, t.reading] if names -%}
            {%- set probe = tideline._updates_probe_sql(settings, t, names) -%}
            {%- if tideline.analysis_error(probe) is not none -%}
                {%- for r in names -%}
                    {%- set error = tideline.analysis_error(tideline._updates_probe_sql(settings, t, [r])) -%}
                    {%- if error is not none -%}
                        {{ tideline._derivation_error(settings.name, 'update.{}'.format(r), t.updates[r],
                            "{}; Spark says: {}".format(tideline._update_accepted(settings, t, r), error), t.name) }}
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
            {#- an update already of its register's type needs no checked cast (_update_value) -#}
            {%- set exact = t.setdefault('exact', []) -%}
            {%- for f in found if [f[0], f[1]] in registers -%}{%- do exact.append(f[0]) -%}{%- endfor -%}
            {%- if unfit is not none -%}
                {{ tideline._derivation_error(settings.name, 'update.{}'.format(unfit.name), t.updates[unfit.name],
                    "{} (this expression is of type {})".format(tideline.unfit_column_accepted(unfit, 'the update'), unfit.found), t.name) }}
            {%- endif -%}
        {%- endfor -%}
    {%- endfor -%}
{% endmacro %}

{#- What an update expression of transform t may be, for the refusal of register r's. -#}
{% macro _update_accepted(settings, t, r) %}
    {%- if r in t.reading -%}
        {{- return("an expression Spark can plan over _register (the registers before the document: {}) and _doc (the document: _doc.<column>, "
            "columns of {}: {}); an update that reads the register names the document's columns through _doc".format(
            settings.registers | map(attribute='name') | join(', '),
            t.source.rendered, t.types.keys() | join(', '))) -}}
    {%- endif -%}
    {{- return("an expression Spark can plan row by row over the columns of {} ({})".format(t.source.rendered, t.types.keys() | join(', '))) -}}
{% endmacro %}

{#- The updates of registers `names` of transform t over an empty source, as the run computes them
    (before its cast to the register's type), beside the source's own columns as a run reads them
    (so an aggregate, which a run cannot compute row by row, does not plan either). Updates that
    read the register see only `_register` (a null of the registers' type) and `_doc`. -#}
{% macro _updates_probe_sql(settings, t, names) %}
    {%- set reading = names[0] in t.reading -%}
    select
        {%- for r in settings.registers if r.name in names %}
        {%- if reading %}
        {{ tideline._let('cast(null as {})'.format(tideline.register_struct_type(settings)), '_register', tideline._let('s._tl_d', '_doc', '({})'.format(t.updates[r.name]))) }} as _tl_u_{{ r.name }},
        {%- else %}
        ({{ t.updates[r.name] }}) as _tl_u_{{ r.name }},
        {%- endif %}
        {%- endfor %}
        {{ 's._tl_d' if reading else 's.*' }}
    from {% if reading %}(select {{ tideline._document_struct(t, 'd') }} as _tl_d from {{ tideline._transform_relation(settings, t) }} as d) {% else %}{{ tideline._transform_relation(settings, t) }} {% endif %}as s
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

{#- Derivations: publish lambdas, their columns checked and their position added. -#}

{#- The publish lambda with the document's position added as the first column of each of its
    top-level selects (the position orders what it publishes). -#}
{% macro _with_position(publish_sql, document) %}
    {%- set sql = publish_sql | replace('_tl_document', document) -%}
    {#- walk strings, comments, parentheses and select keywords; a select outside parentheses is top-level -#}
    {%- set tokens = "'(\\\\.|[^'])*'|\"[^\"]*\"|`[^`]*`|--[^\\n]*|/\\*.*?\\*/|\\(|\\)|\\bselect(\\s+distinct)?\\b" -%}
    {%- set walk = namespace(depth=0, inserts=[]) -%}
    {%- for m in modules.re.finditer(tokens, sql, modules.re.S + modules.re.I) -%}
        {%- if m.group(0) == '(' -%}{%- set walk.depth = walk.depth + 1 -%}
        {%- elif m.group(0) == ')' -%}{%- set walk.depth = walk.depth - 1 -%}
        {%- elif m.group(0)[:6] | lower == 'select' and walk.depth == 0 -%}{%- do walk.inserts.append(m.end()) -%}
        {%- endif -%}
    {%- endfor -%}
    {%- set out = namespace(sql=sql) -%}
    {%- for position in walk.inserts | reverse -%}
        {%- set out.sql = '{} _tl_pos,{}'.format(out.sql[:position], out.sql[position:]) -%}
    {%- endfor -%}
    {{- return(out.sql) -}}
{% endmacro %}

{#- A publish lambda over an empty document: the source's columns, and the registers before and
    after the update when the derivation has registers. Planned, it reads nothing. -#}
{% macro _publish_probe_sql(settings, t) %}
    with _tl_document as (
        select
            s.*
            {%- if settings.registers %},
            cast(null as {{ tideline.register_struct_type(settings) }}) as _register,
            cast(null as {{ tideline.register_struct_type(settings) }}) as _previous
            {%- endif %}
        from {{ tideline._transform_relation(settings, t) }} as s
        where false
    )
    {{ t.publish }}
{%- endmacro %}

{#- The columns a publish lambda returns, from Spark's analysis of it over an empty document:
    refused first, naming the transform, when Spark cannot plan it (explain), then described
    (DESCRIBE QUERY plans it and reads nothing). -#}
{% macro publish_columns(settings, t) %}
    {%- set probe = tideline._publish_probe_sql(settings, t) -%}
    {%- set error = tideline.analysis_error(probe) -%}
    {%- if error is not none -%}
        {%- set seen = "tideline.document()'s columns: those of {}{}".format(t.source.rendered, ", _register and _previous" if settings.registers else "") -%}
        {{ tideline._derivation_error(settings.name, 'publish', tideline.sql_as_defined(t.publish),
            "a select Spark can plan over {}; Spark says: {}".format(seen, error), t.name) }}
    {%- endif -%}
    {%- set columns = [] -%}
    {%- for row in tideline.query_rows('describe query {}'.format(probe)) if row.col_name and not row.col_name.startswith('#') -%}
        {%- do columns.append([row.col_name | lower, tideline.type_name(row.data_type)]) -%}
    {%- endfor -%}
    {{- return(columns) -}}
{% endmacro %}

{#- Each publish lambda's columns, checked against the derived table. -#}
{% macro checked_publish_columns(settings) %}
    {%- set by_transform = {} -%}
    {%- set derived = settings.derived | map('first') | list -%}
    {%- for t in settings.transforms if t.publish -%}
        {%- set columns = tideline.publish_columns(settings, t) -%}
        {%- set names = columns | map('first') | list -%}
        {%- for c in names if c not in derived -%}
            {{ exceptions.raise_compiler_error("tideline: derivation {}, transform {}: the publish lambda returns column {}, which derived_columns lacks ({})".format(
                settings.name, t.name, c, derived | join(', '))) }}
        {%- endfor -%}
        {%- for k in settings.unique_key if k not in names -%}
            {{ exceptions.raise_compiler_error("tideline: derivation {}, transform {}: the publish lambda does not return unique_key column {} (it returns {})".format(
                settings.name, t.name, k, names | join(', '))) }}
        {%- endfor -%}
        {%- do tideline._publish_types_fit(settings, t, columns) -%}
        {%- do by_transform.update({t.name: columns}) -%}
    {%- endfor -%}
    {{- return(by_transform) -}}
{% endmacro %}

{#- Derivations: the passes of a run whose transforms read the derivation's own documents
    (own_documents.sql). A document's publish depends only on the documents before it, and a
    published document comes after the one that published it (one step deeper, at its time), so
    the run's documents are a fixpoint: pass 0 folds the source documents alone and publishes;
    each next pass folds them with what the previous pass published, until a pass publishes
    exactly what it read. A chain of L documents, each published by the one before, settles in
    L + 1 passes. Each pass is written to a table of its own, <model>__tl_pass_<k>, in the model's
    format (a cached view would not do: each pass's plan would hold the plans of all the passes
    before it, read several times over, and grow exponentially); the next pass reads it, the
    run's insert reads the last one, and they are dropped after it (one run at a time: the run
    lock; a run that dies leaves them, and the next run replaces them). -#}

{#- One pass over the run's documents (own_document_passes.sql): every row the publish lambdas
    publish, cast to derived_columns, with the position of the document that published it
    (_tl_pos) and the row as JSON (_tl_prow); the transforms over the derivation's own documents
    read `own`, the previous pass's rows. -#}
{% macro derivation_pass_sql(settings, state, frontier, plan, publish_columns, data, own) %}
    {%- set publishers = settings.transforms | selectattr('publish') | list -%}
    with
    {{- tideline._derivation_document_ctes(settings, state, frontier, plan, data, own) }}
    {{ tideline._derivation_published_cte(settings, publishers, publish_columns) }}

    pass_documents as (
        select * from published
    )

    select * from pass_documents
{% endmacro %}

{#- Finds the run's own documents: the table of the last pass (what the run's insert gives its
    transforms over tideline.own_documents()), the passes made and the documents it holds. A run
    whose published documents still differ after max_passes passes is refused before anything
    is written, naming the passes and how many documents the last one changed. -#}
{% macro own_document_passes(settings, state, frontier, plan, publish_columns, data, view) %}
    {%- set format = tideline.model_file_format(settings.name) -%}
    {%- set passes = namespace(own=none, tables=[], settled=false, change={}) -%}
    {%- for k in range(settings.max_passes) if not passes.settled -%}
        {%- set table = tideline.stored_relation(view.incorporate(path={'identifier': '{}__tl_pass_{}'.format(view.identifier, k)}), format) -%}
        {% call statement('drop_own_documents_pass', fetch_result=false) %}
            drop table if exists {{ table }}
        {% endcall %}
        {% call statement('own_documents_pass', fetch_result=false) %}
            create table {{ table }}
            using {{ format }}
            as {{ tideline.derivation_pass_sql(settings, state, frontier, plan, publish_columns, data, passes.own) }}
        {% endcall %}
        {%- do passes.tables.append(table) -%}
        {%- set passes.change = tideline._pass_change(table, passes.own) -%}
        {%- set passes.settled = passes.change.added == 0 and passes.change.dropped == 0 -%}
        {%- set passes.own = table -%}
    {%- endfor -%}
    {%- if not passes.settled -%}
        {%- do tideline.drop_own_document_passes({'tables': passes.tables}) -%}
        {{ exceptions.raise_compiler_error("tideline: derivation {}: the documents it publishes to its own transforms still change after {} passes (the last pass published {} document(s) the pass before did not, and dropped {}); nothing was written. A cycle that never stops: end it in a publish lambda (a where clause), or raise max_passes (now {})".format(
            settings.name, settings.max_passes, passes.change.added, passes.change.dropped, settings.max_passes)) }}
    {%- endif -%}
    {{- return({'own': passes.own, 'tables': passes.tables, 'passes': passes.tables | length, 'documents': passes.change.documents}) -}}
{% endmacro %}

{#- How a pass's published documents differ from those it read (`before`, none: no documents):
    {added, dropped, documents}, compared by position and row. -#}
{% macro _pass_change(table, before) %}
    {%- set read -%}
        select _tl_pos, _tl_prow from {{ before or table }}{{ '' if before else ' where false' }}
    {%- endset -%}
    {% set sql %}
        select
            (select count(*) from {{ table }}) as documents,
            (select count(*) from (select _tl_pos, _tl_prow from {{ table }} except all {{ read }})) as added,
            (select count(*) from ({{ read }} except all select _tl_pos, _tl_prow from {{ table }})) as dropped
    {% endset %}
    {%- set row = tideline.query_rows(sql)[0] -%}
    {{- return({'documents': row.documents | int, 'added': row.added | int, 'dropped': row.dropped | int}) -}}
{% endmacro %}

{#- Drops the passes' tables. -#}
{% macro drop_own_document_passes(passes) %}
    {%- for table in passes.tables -%}
        {% call statement('drop_own_documents_pass', fetch_result=false) %}
            drop table if exists {{ table }}
        {% endcall %}
    {%- endfor -%}
{% endmacro %}

{#- materialized='derivation' (seed 001, Estuary Flow): a table derived from source rows one by
    one, in commit order, through transforms with registers. The rules live in
    macros/derivation/ (transforms.sql: the model's settings; derivation.sql: the order, the
    frontier, the folds); this page is the run, step by step:

      settings (no statement) -> state (the definition its rows were built with: a changed one is refused) -> frontier -> update and publish SQL planned -> one insert -> commit
      (-> every compact_every runs, the drop of the old generation).

    A --full-refresh over a data table of the same layout is atomic: it writes the whole model
    into the next generation, and its commit replaces the model's state, which makes that
    generation the live one; readers see the old rows until then, and a rebuild that dies
    before its commit changed nothing anyone reads (generations.sql, rebuild_plan). A changed
    layout needs a new table: the rebuild writes it beside the old one and swaps the view onto
    it, as atomically (data_tables.sql).

    The model is a view over its data table (<model>__tl_data or __tl_data_b), which holds the derived rows and the registers,
    each row with its run id: readers keep rows of committed runs only, so a run that dies
    before its commit leaves nothing anyone reads, and the rerun does the same work again. -#}
{% materialization derivation, adapter='spark' %}
    {%- do tideline.prepare_session(this.identifier) -%}
    {%- do tideline.refuse_unknown_configs(this.identifier) -%}
    {%- set format = tideline.model_file_format(this.identifier) -%}
    {%- set settings = tideline.derivation_settings(this.identifier) -%}
    {%- set view = this.incorporate(type='view') -%}
    {%- set existing = adapter.get_relation(database=this.database, schema=this.schema, identifier=this.identifier) -%}
    {#- an incremental run has the same layout and format (refused otherwise); a rebuild of another layout or format
        writes the other slot and swaps readers onto it at the end (data_tables.sql) -#}
    {%- set tables = tideline.find_data_tables(this, format, should_full_refresh(), tideline.derivation_layout(settings)) -%}
    {%- set rebuild, beside, data = tables.rebuild, tables.beside, tables.data -%}
    {%- if not rebuild -%}{%- do tideline.refuse_changed_layout(settings, tables.live) -%}{%- endif -%}

    {#- tl_state: on-run-start creates it, but dbt leaves out a package's hooks when all of its models are disabled -#}
    {%- if not tideline.state_table_known() -%}{%- do tideline.ensure_state_tables() -%}{%- endif -%}
    {{ run_hooks(pre_hooks) }}
    {%- do tideline.finish_swap(settings.name, tables) -%}
    {%- set state = tideline.derivation_state(settings, rebuild) -%}
    {%- if tables.live is none -%}{%- do state.update({'generation': 0}) -%}{%- endif -%}
    {%- do tideline.refuse_now_before_watermark(settings.name, state.frontier) -%}
    {%- do tideline.check_definition('derivation', settings.name, state.definition, settings.definition,
                                     settings.on_definition_change, rebuild, additions=['transform ']) -%}
    {#- the transforms over sources (feeds); those over the derivation's own documents read what its passes find -#}
    {%- set frontier = tideline.commit_frontier(settings.feeds, state, lookback=settings.late_row_lookback) -%}
    {%- do tideline.refuse_unplaced_rows('derivation', settings, settings.feeds, frontier) -%}
    {%- do tideline.refuse_rows_behind_watermark('derivation', settings, settings.feeds, frontier) -%}
    {%- do tideline.quarantine_unplaced_rows(settings, settings.feeds, frontier, view) -%}
    {%- do tideline.quarantine_rows_behind_watermark(settings, settings.feeds, frontier, view) -%}
    {#- documents an earlier run held for their read delay that this run's frontier reaches (held_documents.sql) -#}
    {%- set released = tideline.released_own_documents(settings, state, frontier, none if rebuild else tables.live, state.generation) -%}
    {%- set documents = (frontier.documents.values() | sum) + (released.values() | sum) -%}
    {#- the SQL handed to the transforms, planned against the sources before the first write of a
        run that writes (a run with documents, a first build, a rebuild) -#}
    {%- set writes = documents > 0 or rebuild or tables.live is none -%}
    {%- if writes -%}{%- do tideline.check_update_expressions(settings) -%}{%- endif -%}
    {%- set publish_columns = tideline.checked_publish_columns(settings) if writes else {} -%}

    {%- if tables.live is none or beside -%}
        {%- do tideline.create_derivation_table(settings, data) -%}
        {%- do tideline.checkpoint(settings.name, 'created') -%}
    {%- endif -%}
    {%- if not beside -%}
        {%- do tideline.create_reader_view(view, existing, tideline.derivation_view_sql(settings, data), rebuild, data) -%}
    {%- endif -%}

    {%- set plan = tideline.derivation_plan(settings, state, frontier, rebuild and tables.live is not none) -%}
    {%- set passes = tideline.own_document_passes(settings, state, frontier, plan, publish_columns, data, view)
                     if documents > 0 and settings.feeds | length < settings.transforms | length else {'own': none, 'tables': []} -%}
    {%- if documents > 0 -%}
        {% call statement('write', fetch_result=false) %}
            insert into {{ data }} partition (tl_part, tl_gen)
            {{ tideline.derivation_select_sql(settings, state, frontier, plan, publish_columns, data, passes.own) }}
        {% endcall %}
        {%- do tideline.drop_own_document_passes(passes) -%}
        {%- do tideline.checkpoint(settings.name, 'written') -%}
    {%- endif -%}
    {%- set null_keys = tideline.count_null_keys(settings, data, plan) if documents > 0 else 0 -%}
    {%- do tideline.refuse_null_keys(settings, data, plan, null_keys) -%}
    {%- do tideline.quarantine_null_keys(settings, data, plan, null_keys, view) -%}
    {%- if documents > 0 or rebuild -%}
        {#- a rebuild's commit replaces the model's state (in a new table, from generation 0; beside
            the old table, under the pending key until the swap) -#}
        {%- do tideline.commit_run(tideline.pending_state_key(settings.name) if beside else settings.name,
                                   tideline.derivation_run_row(settings, state, frontier, plan, documents, null_keys),
                                   tideline.derivation_transform_rows(settings, state, frontier), replace=rebuild, files=state.state_files) -%}
        {%- do tideline.checkpoint(settings.name, 'committed') -%}
        {%- if beside -%}
            {%- do tideline.swap_data_table(settings.name, view, tideline.derivation_view_sql(settings, data, tideline.run_id()), data, tables.live) -%}
        {%- elif plan.compact or (rebuild and tables.live is not none) -%}
            {%- do tideline.drop_old_generations(data, {'read_gen': plan.replaced_gen} if rebuild else plan, ['tl_part', ['row', 'register', 'set_aside', 'held']]) -%}
        {%- endif -%}
    {%- endif -%}
    {%- do tideline.log_derivation(settings, state, frontier, null_keys, passes, released) -%}
    {%- do tideline.store_main('tideline: {} documents'.format(documents)) -%}
    {{ run_hooks(post_hooks) }}

    {{ return({'relations': [view]}) }}
{% endmaterialization %}

{#- Table maintenance, run by hand or on a schedule between runs:

      dbt run-operation tideline.maintain_tables --args '{retain_hours: 168}'

    What grows per run, by format (README, "Table formats"):
      - Delta: every commit adds a file to the table's _delta_log (Delta writes a checkpoint every
        10 commits and deletes log entries older than delta.logRetentionDuration, 30 days, by
        itself), and the data files a commit replaced stay on disk for time travel.
      - Iceberg: every commit adds a snapshot (a metadata file, a manifest list and manifests),
        and the data files a commit replaced stay on disk for every snapshot that reads them.
      - parquet: nothing beyond the data; tideline drops its own old generations and compacts
        tl_state as it goes.

    maintain_tables takes the run lock (one run at a time: it never overlaps a dbt run of the
    same target schema), then, for every Delta table of the schema, compacts small files
    (`optimize`) and deletes the files no version of the last `retain_hours` hours reads
    (`vacuum`); for every Iceberg table of the schema's namespace of the Iceberg catalog,
    rewrites small files (`rewrite_data_files`) and expires the snapshots older than
    `retain_hours` (`expire_snapshots`, which deletes the files only they read). tideline reads only the current version of a table, so its state stays
    consistent: tl_state's file count (its compaction trigger) only goes down. Each format's
    operation is a dispatched macro (maintain_table_delta, maintain_table_iceberg, maintain_table_parquet).

    `listing_tasks`: the tasks Delta's vacuum lists a table's folders in. Delta takes Spark's
    spark.sql.sources.parallelPartitionDiscovery.parallelism, 10,000 unless the session states
    it: on a 2-core machine a small table's vacuum then spends about 30 s starting empty tasks
    (measured: 30-38 s, and 4.7 s with 8 tasks). maintain_tables sets it for its vacuums and
    sets the session's value back after; raise it for tables of many thousands of partitions. -#}
{% macro maintain_tables(retain_hours=168, schema=none, listing_tasks=16) %}
    {%- if not execute -%}{{ return('') }}{%- endif -%}
    {%- set schema = schema or target.schema -%}
    {%- if retain_hours is not number or retain_hours is boolean or retain_hours < 168 -%}
        {{ exceptions.raise_compiler_error("tideline: maintain_tables: retain_hours = {} is invalid; accepted: a number of hours >= 168 (Delta refuses to vacuum files younger than 7 days: a reader still on an older version would lose them)".format(retain_hours)) }}
    {%- endif -%}
    {%- if listing_tasks is not integer or listing_tasks is boolean or listing_tasks < 1 -%}
        {{ exceptions.raise_compiler_error("tideline: maintain_tables: listing_tasks = {} is invalid; accepted: a whole number >= 1 (the tasks Delta's vacuum lists a table's files in)".format(listing_tasks)) }}
    {%- endif -%}
    {%- do tideline.take_run_lock() -%}
    {%- set strategies = {'delta': adapter.dispatch('maintain_table_delta', 'tideline'),
                           'iceberg': adapter.dispatch('maintain_table_iceberg', 'tideline'),
                           'parquet': adapter.dispatch('maintain_table_parquet', 'tideline')} -%}
    {%- set tables = tideline.schema_tables(schema) -%}
    {%- set listing = 'spark.sql.sources.parallelPartitionDiscovery.parallelism' -%}
    {%- set session_listing = tideline.session_setting(listing) -%}
    {%- do tideline.set_session_setting(listing, listing_tasks) -%}
    {%- set done = [] -%}
    {%- for table in tables -%}
        {%- do strategies[table.format](table.relation, retain_hours) -%}
        {%- do done.append('{} ({})'.format(table.relation.identifier, table.format)) -%}
    {%- endfor -%}
    {%- do tideline.set_session_setting(listing, session_listing) -%}
    {%- do tideline.release_run_lock() -%}
    {{ log("tideline: maintained {} tables of {}: {}".format(done | length, schema, done | join(', ')), info=true) }}
{% endmacro %}

{#- The tables of `schema` (not its views), each with its format ('delta', or 'parquet' for
    any other), from one `show table extended` (dbt-spark's listing, read by column name); and
    when the schema has Iceberg models, the tables of its Iceberg namespace (one `show tables`). -#}
{% macro schema_tables(schema) %}
    {%- set tables = [] -%}
    {%- for row in list_relations_without_caching(api.Relation.create(schema=schema)) -%}
        {%- set information = row['information'] | lower -%}
        {%- if 'type: view' not in information -%}
            {%- do tables.append({'relation': api.Relation.create(schema=schema, identifier=row['tableName'], type='table'),
                                  'format': 'delta' if 'provider: delta' in information else 'parquet'}) -%}
        {%- endif -%}
    {%- endfor -%}
    {%- if schema in tideline.iceberg_schemas() -%}
        {% set sql %}
            show tables in {{ tideline.iceberg_catalog() }}.{{ schema }}
        {% endset %}
        {%- for row in run_query(sql).rows -%}
            {%- do tables.append({'relation': tideline.stored_relation(api.Relation.create(schema=schema, identifier=row['tableName']), 'iceberg'),
                                  'format': 'iceberg'}) -%}
        {%- endfor -%}
    {%- endif -%}
    {{- return(tables) -}}
{% endmacro %}

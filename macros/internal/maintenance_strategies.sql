{#- Table maintenance by format (maintain_tables): each a dispatched strategy a project may
    override as maintain_table_<format>. -#}

{#- delta: small files compacted into larger ones, then the files that no version of the last
    `retain_hours` hours reads deleted. -#}
{% macro default__maintain_table_delta(relation, retain_hours) %}
    {% call statement('optimize', fetch_result=false) %}
        optimize {{ relation }}
    {% endcall %}
    {% call statement('vacuum', fetch_result=false) %}
        vacuum {{ relation }} retain {{ retain_hours }} hours
    {% endcall %}
{% endmacro %}

{#- iceberg: Iceberg's own procedures: small files rewritten into larger ones (any partition
    with two or more; Iceberg's default waits for five), then the
    snapshots older than `retain_hours` expired (the newest always kept) with the files only they
    read. -#}
{% macro default__maintain_table_iceberg(relation, retain_hours) %}
    {%- set table = '{}.{}'.format(relation.schema.split('.')[-1], relation.identifier) -%}
    {#- the real clock (not tideline__now): retention is about the age of files on disk; a UTC literal whatever the session's zone -#}
    {%- set older_than = (modules.datetime.datetime.utcnow() - modules.datetime.timedelta(hours=retain_hours)).strftime('%Y-%m-%dT%H:%M:%SZ') -%}
    {% call statement('rewrite_data_files', fetch_result=false) %}
        call {{ tideline.iceberg_catalog() }}.system.rewrite_data_files(table => '{{ table }}', options => map('min-input-files', '2'))
    {% endcall %}
    {% call statement('expire_snapshots', fetch_result=false) %}
        call {{ tideline.iceberg_catalog() }}.system.expire_snapshots(
            table => '{{ table }}',
            older_than => {{ tideline.ts(older_than) }},
            retain_last => 1
        )
    {% endcall %}
{% endmacro %}

{#- parquet: nothing to do (tideline drops old generations and compacts tl_state as it goes). -#}
{% macro default__maintain_table_parquet(relation, retain_hours) %}
{% endmacro %}

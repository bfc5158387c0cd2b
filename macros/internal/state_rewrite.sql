{#- tl_state on parquet: a model's partition rewritten beside and swapped in (compaction, migrations). -#}

{#- parquet: the model's partition rewritten into its other folder as `projection` (one select
    expression per column of state_columns but the partition's), then pointed at it. -#}
{% macro rewrite_state_parquet(model_name, projection) %}
    {%- set state = tideline.state_table() -%}
    {% set describe_sql %}
        describe formatted {{ state }} partition (model = '{{ model_name }}')
    {% endset %}
    {%- set described = tideline.query_rows(describe_sql) -%}
    {%- set location = (described | selectattr('col_name', 'equalto', 'Location') | first).data_type | trim -%}
    {%- set compacted = '/tl_compacted/{}'.format(model_name) -%}
    {%- if location.endswith(compacted) -%}
        {%- set target = '{}/model={}'.format(location[:-(compacted | length)], model_name) -%}
    {%- else -%}
        {%- set target = '{}{}'.format(location.rsplit('/', 1)[0], compacted) -%}
    {%- endif -%}
    {% call statement('compact_state', fetch_result=false) %}
        insert overwrite directory '{{ target }}' using parquet
        select /*+ coalesce(1) */ {{ projection | join(', ') }}
        from {{ state }}
        where model = '{{ model_name }}'
    {% endcall %}
    {%- do tideline.checkpoint(model_name, 'state_copied') -%}
    {% call statement('swap_state', fetch_result=false) %}
        alter table {{ state }} partition (model = '{{ model_name }}') set location '{{ target }}'
    {% endcall %}
{% endmacro %}

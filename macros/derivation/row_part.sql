{#- Derivations: the data-table part a derived row is written to, and the columns its part leaves null. -#}

{#- `k1 is null or k2 is null ...` over the unique_key columns. -#}
{% macro null_key_test(settings) %}
    {%- set tests = [] -%}
    {%- for k in settings.unique_key -%}{%- do tests.append('{} is null'.format(k)) -%}{%- endfor -%}
    {{- return(tests | join(' or ')) -}}
{% endmacro %}

{#- The tl_part of a derived row: 'row', which readers and the stored-row reads take, except
    under on_bad_rows='quarantine', where a row under a null key goes to 'set_aside': no reader
    sees it and no later run folds into it; the run copies it to <model>__tl_quarantine
    (quarantine_null_keys), and the drop of its generation removes it. -#}
{% macro _derived_row_part(settings) %}
    {%- if settings.on_bad_rows != 'quarantine' -%}{{ return("'row'") }}{%- endif -%}
    {%- set sql -%}
        case when {{ tideline.null_key_test(settings) }} then 'set_aside' else 'row' end
    {%- endset -%}
    {{- return(sql) -}}
{% endmacro %}

{#- The register key columns and the registers as [name, type] (none without registers): what a
    derived row, a held document or a compaction's copy of a row leaves null. -#}
{% macro register_columns(settings) %}
    {%- set columns = [] -%}
    {%- for t in settings.key_types -%}{%- do columns.append(['_tl_key_{}'.format(loop.index), t]) -%}{%- endfor -%}
    {%- if settings.registers -%}{%- do columns.append(['_register', tideline.register_struct_type(settings)]) -%}{%- endif -%}
    {{- return(columns) -}}
{% endmacro %}

{#- `cast(null as <type>) as <name>` for each [name, type] of `columns`. -#}
{% macro null_columns(columns) %}
    {%- set nulls = [] -%}
    {%- for c in columns -%}{%- do nulls.append('cast(null as {}) as {}'.format(c[1], c[0])) -%}{%- endfor -%}
    {{- return(nulls) -}}
{% endmacro %}

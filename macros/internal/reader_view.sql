{#- A model's reader view over its data table. -#}

{#- The reader's view of a model whose rows live in a table of its own (derivations, continual
    tasks, channels): created when missing, when a table stands in its place, or on a rebuild;
    naming its data table `data` if any (data_tables.sql). -#}
{% macro create_reader_view(view, existing, select_sql, rebuild, data=none) %}
    {%- if existing is none or existing.type != 'view' or rebuild -%}
        {%- if existing is not none and existing.type != 'view' -%}{%- do adapter.drop_relation(existing) -%}{%- endif -%}
        {%- do tideline.replace_reader_view(view, select_sql, data) -%}
    {%- endif -%}
{% endmacro %}

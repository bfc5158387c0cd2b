{#- A tl_state of an earlier version's layout, recognised and migrated on run start. -#}

{#- True when `found` is the layout of an earlier version: this version's columns less those a
    later version added (state_columns_added), in the same order. -#}
{% macro _earlier_state_layout(found, wanted) %}
    {%- set added = [] -%}
    {%- for version, names in tideline.state_columns_added().items() -%}{%- do added.extend(names) -%}{%- endfor -%}
    {{- return(found != wanted and found | reject('in', wanted) | list | length == 0
               and wanted | reject('in', found) | reject('in', added) | list | length == 0
               and found == wanted | select('in', found) | list) -}}
{% endmacro %}

{#- The columns of the state table `relation`, read once on run start: from dbt's relation
    cache (no statement), else described. -#}
{% macro _state_table_columns(relation) %}
    {%- set found = tideline.cached_columns(relation) -%}
    {%- if found is none -%}
        {%- set found = adapter.get_columns_in_relation(relation) | map(attribute='name') | map('lower') | list -%}
    {%- endif -%}
    {{- return(found) -}}
{% endmacro %}

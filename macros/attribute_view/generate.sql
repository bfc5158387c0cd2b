{#- Attribute views: the two generated models.

    A view (meta.attribute_view in the config of its attributes model, see definition.sql)
    gives two models, each a one-line SQL file:
      <daily>.sql      {{ tideline.attribute_view_daily_aggregate('<attributes model>') }}
                       a tideline daily aggregate over the filtered events: per event date and
                       key, the day's part of each attribute (named <attribute>__<part>);
      <attributes>.sql {{ tideline.attribute_view_table('<daily>') }}
                       one pass over the daily aggregate: per key, each attribute over its
                       period, cast to its declared type.
    Both compile to plain SQL built from the helpers in macros/incremental/attributes.sql
    (select_sql.sql), after the checks against the events (schema_checks.sql). -#}

{#- The daily aggregate of a view. The definition is read from the attributes model's config
    through dbt's graph (only at execute time: at parse time the select only names its ref). -#}
{% macro attribute_view_daily_aggregate(view_model) %}
    {{ config(materialized='tideline_daily_aggregate', attribute_view=view_model) }}
    {%- if not execute -%}
        {{- return('select event_date from {}'.format(tideline.filtered_events())) -}}
    {%- endif -%}
    {%- set view = tideline.attribute_view_definition(tideline._attribute_view_config(view_model), view_model) -%}
    {%- set schema = tideline.filtered_events_schema() -%}
    {%- do tideline._check_against_events(view, schema) -%}
    {%- do tideline._refuse_changed_daily_columns(view) -%}
    {{- return(tideline.attribute_view_daily_sql(view, schema)) -}}
{% endmacro %}

{#- The attributes table of a view: the view is this model's own config. -#}
{% macro attribute_view_table(daily_model) %}
    {{ config(materialized='tideline_table') }}
    {%- set daily = ref(daily_model) -%}
    {%- if not execute -%}{{ return('select 1 from {}'.format(daily)) }}{%- endif -%}
    {%- set view = tideline.attribute_view_definition((config.get('meta') or {}).get('attribute_view'), model.name) -%}
    {{- return(tideline.attribute_view_attributes_sql(view, daily)) -}}
{% endmacro %}

{#- meta.attribute_view of the model `view_model` (of this package), from dbt's graph. -#}
{% macro _attribute_view_config(view_model) %}
    {%- for node in graph.nodes.values() if node.resource_type == 'model' and node.name == view_model and node.package_name == model.package_name -%}
        {%- set view = (node.config.get('meta') or {}).get('attribute_view') -%}
        {%- if view is none -%}
            {{ exceptions.raise_compiler_error("tideline: daily aggregate {}: model {} has no meta.attribute_view in its config; see the README's \"Attribute views\"".format(model.name, view_model)) }}
        {%- endif -%}
        {{- return(view) -}}
    {%- endfor -%}
    {{ exceptions.raise_compiler_error("tideline: daily aggregate {}: there is no model {} (the attributes model that declares the view)".format(model.name, view_model)) }}
{% endmacro %}

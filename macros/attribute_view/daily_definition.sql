{#- Attribute views: the definition a view's daily aggregate records with its state. A change of
    an attribute's events, criteria, property or aggregation, or of the view's key or first_last,
    that keeps the daily aggregate's columns would leave the days already aggregated under the
    old definition and the new days under the new one: it is refused by name with the fix, as a
    derivation's or a continual task's (macros/internal/definitions.sql), unless the daily
    aggregate's config on_definition_change is 'ignore'. A change of the columns is refused
    before, by _refuse_changed_daily_columns. -#}

{#- What the daily aggregate's rows depend on, as named parts: the view's key and first_last,
    and per attribute its aggregation, property, events and criteria (its type, period and
    default_value only shape the attributes table, which is rebuilt every run). -#}
{% macro attribute_view_daily_parts(view) %}
    {%- set parts = {'view': {'key': view.key, 'first_last': view.first_last}} -%}
    {%- for a in view.attributes -%}
        {%- do parts.update({'attribute {}'.format(a.name): {'aggregation': a.aggregation, 'property': a.property,
            'events': a.events, 'criteria': a.criteria}}) -%}
    {%- endfor -%}
    {{- return(parts) -}}
{% endmacro %}

{#- The definition text a daily aggregate's run row records (none for one that is not an
    attribute view's), checked against the one its rows were built with before anything is
    written (one query over tl_state, only for a view's daily aggregate that is not rebuilt). -#}
{% macro daily_aggregate_definition(model_name, rebuild) %}
    {%- set view_model = config.get('attribute_view') -%}
    {%- if view_model is none -%}{{ return(none) }}{%- endif -%}
    {%- set view = tideline.attribute_view_definition(tideline._attribute_view_config(view_model), view_model) -%}
    {%- set parts = tideline.attribute_view_daily_parts(view) -%}
    {%- set policy = tideline.on_definition_change_setting('daily aggregate', model_name) -%}
    {%- if not rebuild -%}
        {%- do tideline.check_definition('daily aggregate', model_name, tideline.recorded_definition(model_name), parts, policy, false) -%}
    {%- endif -%}
    {{- return(tideline.definition_text(parts)) -}}
{% endmacro %}

{#- The definition the model's newest committed run recorded; none before one did. -#}
{% macro recorded_definition(model_name) %}
    {% set sql %}
        select max_by(definition, committed_at) as definition
        from {{ tideline.state_table() }}
        where model = '{{ model_name }}' and kind in ('run', 'backfill') and definition is not null
    {% endset %}
    {{- return(tideline.query_rows(sql)[0].definition) -}}
{% endmacro %}

{#- Derivations: the definition recorded with their state (internal/definitions.sql), as named
    parts: the derived table's columns and unique key, each reduction, each register, each
    transform (its source table, shuffle key, updates, order, commit column, read delay,
    priority and publish lambda). Whitespace and comments in a publish lambda are not part of
    it; the schema of a source is not either (the same project run against another target
    reads the same definition). -#}
{% macro derivation_definition(settings) %}
    {%- set parts = {'derived_columns': settings.derived, 'unique_key': settings.unique_key} -%}
    {%- for name, spec in settings.reductions.items() -%}
        {%- do parts.update({'reduce.{}'.format(name): spec}) -%}
    {%- endfor -%}
    {%- for r in settings.registers -%}
        {%- set part = {'strategy': r.strategy, 'type': r.type, 'fields': r.fields, 'initial': r.initial} -%}
        {%- if r.get('key') -%}{%- do part.update({'key': r.key}) -%}{%- endif -%}
        {%- do parts.update({'registers.{}'.format(r.name): part}) -%}
    {%- endfor -%}
    {%- for t in settings.transforms -%}
        {%- do parts.update({'transform {}'.format(t.name): {
            'source': t.source.identifier, 'shuffle': t.shuffle, 'update': t.updates, 'order_by': t.order_by,
            'commit_column': t.commit_column, 'read_delay': t.delay, 'priority': t.priority,
            'publish': tideline.sql_as_defined(t.publish) if t.publish else none}}) -%}
    {%- endfor -%}
    {{- return(parts) -}}
{% endmacro %}

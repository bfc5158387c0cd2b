{#- Mutable time: an item's payload in SQL, as JSON text and cast to the declared types. -#}

{#- The payload as JSON text, its fields in the order of their names (the order of config
    columns is not kept from one parse to the next): part of the id of a write without one, and
    the last tie-breaker of order. -#}
{% macro _payload_json(settings, alias=none) %}
    {%- set fields = [] -%}
    {%- for c in settings.payload | sort -%}
        {%- do fields.append("'{name}', {alias}{name}".format(name=c[0], alias='{}.'.format(alias) if alias else '')) -%}
    {%- endfor -%}
    {{- return('to_json(named_struct({}))'.format(fields | join(', '))) -}}
{% endmacro %}

{#- The payload columns of a relation `alias`, cast to their declared types (a value that does
    not fit stops the run). -#}
{% macro _item_payload(settings, alias) %}
    {%- for c in settings.payload -%}
    {{ tideline.checked_cast('{}.{}'.format(alias, c[0]), c[1], 'tideline: channel {}: column {} is not a {}: '.format(settings.name, c[0], c[1])) }} as {{ c[0] }}{{ ',' if not loop.last }}
    {%- endfor -%}
{%- endmacro %}

{#- Attribute views: a view as Snowplow Signals exports it (the SDK's View / attribute group,
    JSON or YAML), read as it is and turned into tideline's own form, which definition.sql then
    checks like any view. Everything a batch table cannot use (the online store's ttl, the
    publishing state, the batch source Signals would write to) is accepted and left aside; what
    tideline cannot compute is refused with what to do instead. -#}

{#- Whether `view` is in Signals' form: its entity (or attribute key) is an object, or it carries
    the key column as Signals' API returns it. tideline's own form names a column. -#}
{% macro is_signals_view(view) %}
    {{- return(view is mapping and (view.get('entity') is not none or view.get('attribute_key') is mapping
        or view.get('attribute_key_or_name') is not none or view.get('entity_key') is not none)) -}}
{% endmacro %}

{#- The Signals view as tideline's form: {name, version, attribute_key, include_current_day,
    description, attributes}. tideline's own view settings (include_current_day, first_last) may be
    added beside Signals' keys. -#}
{% macro signals_view_as_tideline(where, view) %}
    {%- do tideline._check_keys(where, "the Signals view", view, tideline.signals_view_keys(), ['name']) -%}
    {%- set attributes = view.get('attributes') or [] -%}
    {%- if attributes | length == 0 and view.get('fields') -%}
        {{ tideline._view_error(where, "the view has fields and no attributes: it describes a table that is already in the warehouse, which tideline does not compute; select from that table in a model of your own") }}
    {%- endif -%}
    {%- if attributes is string or attributes is mapping or attributes is not iterable -%}
        {{ tideline._view_error(where, "attributes must be a non-empty list") }}
    {%- endif -%}
    {%- set translated = [] -%}
    {%- for a in attributes -%}
        {%- set at = "{}, attribute {}".format(where, a.name if a is mapping and a.name is string else "#{}".format(loop.index)) -%}
        {%- do translated.append(tideline.signals_attribute_as_tideline(at, a)) -%}
    {%- endfor -%}
    {%- set own = {'name': view.name, 'version': view.get('version', 1), 'attribute_key': tideline._signals_view_key(where, view), 'attributes': translated} -%}
    {%- for key in ['include_current_day', 'first_last', 'description'] if view.get(key) is not none -%}
        {%- do own.update({key: view.get(key)}) -%}
    {%- endfor -%}
    {{- return(own) -}}
{% endmacro %}

{#- The column the attributes are per: the API's attribute_key_or_name (or entity_key) when the
    export has it, else the entity's key, else its name (Signals' rule); Signals' built-in
    entities user and session are domain_userid and domain_sessionid. -#}
{% macro _signals_view_key(where, view) %}
    {%- set given = view.get('attribute_key_or_name') or view.get('entity_key') -%}
    {%- if given is not none -%}{{ return(given) }}{%- endif -%}
    {%- set entity = view.get('attribute_key') if view.get('attribute_key') is mapping else view.get('entity') -%}
    {%- set field = 'attribute_key' if view.get('attribute_key') is mapping else 'entity' -%}
    {%- do tideline._check_keys(where, field, entity, ['name', 'key', 'description', 'tags', 'owner', 'ttl', 'is_published', 'blobl_path', 'property', 'external_column'], ['name']) -%}
    {%- if entity.get('property') is not none -%}
        {{ tideline._view_error(where, "{}.property {} is not supported: tideline's key is a column of the filtered events; add the value as a column there and name it in {}.key".format(field, tojson(entity.get('property')), field)) }}
    {%- endif -%}
    {{- return(entity.get('key') or {'user': 'domain_userid', 'session': 'domain_sessionid'}.get(entity.name, entity.name)) -}}
{% endmacro %}

{#- The keys a Signals view may have: those of the SDK's View and attribute group, as written
    and as the API returns them, and tideline's own view settings. -#}
{% macro signals_view_keys() %}
    {{- return(['name', 'version', 'entity', 'attribute_key', 'attributes', 'description', 'owner', 'tags', 'ttl',
        'batch_source', 'online', 'offline', 'fields', 'is_published', 'entity_key', 'view_or_entity_ttl',
        'attribute_key_or_name', 'attribute_group_or_attribute_key_ttl', 'feast_name', 'full_name',
        'stream_source_name', 'include_current_day', 'first_last']) -}}
{% endmacro %}

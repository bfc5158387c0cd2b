{#- Attribute views: the checks every part of a definition shares. A refusal names the view
    and the attribute (`where`), the value and what is accepted. -#}

{% macro _view_error(where, message) %}
    {{ exceptions.raise_compiler_error("tideline: {}: {}".format(where, message)) }}
{% endmacro %}

{#- `value` a mapping whose keys are all in `allowed` (and `required` present). -#}
{% macro _check_keys(where, what, value, allowed, required) %}
    {%- if value is not mapping -%}
        {{ tideline._view_error(where, "{} = {} is not a mapping (keys: {})".format(what, tojson(value), allowed | join(', '))) }}
    {%- endif -%}
    {%- for key in value if key not in allowed -%}
        {{ tideline._view_error(where, "{} has an unknown key {} (did you mean {}?; keys: {})".format(what, tojson(key), tideline.closest_name(key | string, allowed), allowed | join(', '))) }}
    {%- endfor -%}
    {%- for key in required if value.get(key) is none -%}
        {{ tideline._view_error(where, "{} needs {}".format(what, key)) }}
    {%- endfor -%}
{% endmacro %}

{% macro _is_identifier(value) %}
    {{- return(value is string and modules.re.match('^[A-Za-z_][A-Za-z0-9_]*$', value) is not none) -}}
{% endmacro %}

{% macro _is_property_path(value) %}
    {{- return(value is string and modules.re.match('^[A-Za-z_][A-Za-z0-9_]*(\[[0-9]+\]|\.[A-Za-z_][A-Za-z0-9_]*)*$', value) is not none) -}}
{% endmacro %}

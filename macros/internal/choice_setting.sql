{#- A config whose value is one of a few named choices (a policy), refused by name otherwise. -#}

{#- The model's config `key`, one of `choices` ([{'value', 'means'}, ...], the first the
    default); anything else is refused: "tideline: <kind> <model>: <key> = <value> is invalid;
    accepted: <first> (the default: <what it means>) or <second> (<what it means>)". -#}
{% macro choice_setting(kind, model_name, key, choices) %}
    {%- set default = choices | first -%}
    {%- set value = config.get(key, default.value) -%}
    {%- if value not in choices | map(attribute='value') | list -%}
        {%- set accepted = [] -%}
        {%- for choice in choices -%}
            {%- do accepted.append('{} ({}{})'.format(choice.value, 'the default: ' if choice is sameas default else '', choice.means)) -%}
        {%- endfor -%}
        {{ exceptions.raise_compiler_error("tideline: {} {}: {} = {} is invalid; accepted: {}".format(
            kind, model_name, key, tideline.shown(value), accepted | join(' or '))) }}
    {%- endif -%}
    {{- return(value) -}}
{% endmacro %}

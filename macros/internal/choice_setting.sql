{#- A setting whose value is one of a few named choices (a policy), refused by name otherwise:
    a model's config (choice_setting) or a var (var_choice). -#}

{#- The model's config `key`, one of `choices` ([{'value', 'means'}, ...], the first the
    default); anything else is refused: "tideline: <kind> <model>: <key> = <value> is invalid;
    accepted: <first> (the default: <what it means>) or <second> (<what it means>)". -#}
{% macro choice_setting(kind, model_name, key, choices) %}
    {%- set value = config.get(key, (choices | first).value) -%}
    {%- if value not in choices | map(attribute='value') | list -%}
        {{ exceptions.raise_compiler_error("tideline: {} {}: {} = {} is invalid; accepted: {}".format(
            kind, model_name, key, tideline.shown(value), tideline._accepted_choices(choices))) }}
    {%- endif -%}
    {{- return(value) -}}
{% endmacro %}

{#- The var `name`, one of `choices` as choice_setting takes them (the first the default);
    anything else is refused: "tideline: var <name> = <value> is invalid; accepted: ...". -#}
{% macro var_choice(name, choices) %}
    {%- set value = var(name, (choices | first).value) -%}
    {%- if value not in choices | map(attribute='value') | list -%}
        {{ tideline._var_error(name, value, tideline._accepted_choices(choices)) }}
    {%- endif -%}
    {{- return(value) -}}
{% endmacro %}

{#- `choices` as the refusals list them: "<first> (the default: <means>) or <second> (<means>)". -#}
{% macro _accepted_choices(choices) %}
    {%- set accepted = [] -%}
    {%- for choice in choices -%}
        {%- do accepted.append('{} ({}{})'.format(choice.value, 'the default: ' if loop.first else '', choice.means)) -%}
    {%- endfor -%}
    {{- return(accepted | join(' or ')) -}}
{% endmacro %}

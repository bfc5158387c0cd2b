{#- A config whose value is one of a few named choices (a policy), refused by name otherwise. -#}

{#- The model's config `key`, one of `choices` ([[value, what it does], ...], the first the
    default); anything else is refused: "tideline: <kind> <model>: <key> = <value> is invalid;
    accepted: <first> (the default: <what it does>) or <second> (<what it does>)". -#}
{% macro choice_setting(kind, model_name, key, choices) %}
    {%- set value = config.get(key, choices[0][0]) -%}
    {%- if value not in choices | map('first') | list -%}
        {%- set accepted = ['{} (the default: {})'.format(choices[0][0], choices[0][1])] -%}
        {%- for choice in choices[1:] -%}{%- do accepted.append('{} ({})'.format(choice[0], choice[1])) -%}{%- endfor -%}
        {{ exceptions.raise_compiler_error("tideline: {} {}: {} = {} is invalid; accepted: {}".format(
            kind, model_name, key, tideline.shown(value), accepted | join(' or '))) }}
    {%- endif -%}
    {{- return(value) -}}
{% endmacro %}

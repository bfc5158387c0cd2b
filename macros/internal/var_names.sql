{#- A var's name checked: identifiers, and vars tideline does not know (a misspelling). -#}

{#- A var that names a column (or, with `what`, a schema or table): an identifier, never SQL. -#}
{% macro var_identifier(name, what='a column name') %}
    {%- set value = tideline.tl_var(name) if name in tideline.default_vars() else var(name, none) -%}
    {%- if value is not string or not modules.re.match('^[A-Za-z_][A-Za-z0-9_]*$', value) -%}
        {{ tideline._var_error(name, value, "{} (letters, digits, underscores)".format(what)) }}
    {%- endif -%}
    {{- return(value) -}}
{% endmacro %}

{#- A var that tideline does not know is refused, naming the closest known one, when it is
    meant for tideline: its name starts with tideline__, or is within two edits of a known
    name (tidline__start_date, tideline_reprocess_days). A misspelt var would otherwise be
    ignored without a word. Reads the vars given on the command line; project vars are the
    project's own business. -#}
{% macro refuse_unknown_vars() %}
    {%- set given = invocation_args_dict.get('vars') or {} -%}
    {%- if given is string -%}{%- set given = fromyaml(given) or {} -%}{%- endif -%}
    {%- set known = tideline.known_vars() -%}
    {%- for name in given if name is string and name not in known -%}
        {%- set closest = tideline.closest_name(name, known) -%}
        {%- if name.startswith('tideline__') or tideline.edit_distance(name, closest) <= 2 -%}
            {{ exceptions.raise_compiler_error("tideline: var {} is not a tideline var (did you mean {}?); known: {}".format(
                name, closest, known | sort | join(', '))) }}
        {%- endif -%}
    {%- endfor -%}
{% endmacro %}

{% macro known_vars() %}
    {{- return(tideline.default_vars().keys() | list + ['tideline__events_schema', 'tideline__events_table', 'tideline__fail_at']) -}}
{% endmacro %}

{#- A model's definition, recorded with its state: what its rows mean (a derivation's transforms,
    lambdas, keys, registers and reductions; a continual task's statements, inputs and
    columns), as named parts. Each run row keeps it; a run whose definition differs from the one
    its rows were built with is refused by name, unless the model chose to apply the new
    definition from that run on (on_definition_change, named as dbt's on_schema_change names
    its behaviours). A --full-refresh rebuilds every row under the new definition. -#}

{#- The definition as the state keeps it: its parts ({name: value}) as JSON with sorted keys. -#}
{% macro definition_text(parts) %}
    {{- return(parts | tojson) -}}
{% endmacro %}

{#- The parts that differ between the recorded definition (JSON text, none before tideline
    recorded one) and this run's ({name: value}): ['transform a (changed)', ...], sorted. -#}
{% macro definition_changes(recorded, parts) %}
    {%- if recorded is none or recorded == '' -%}{{ return([]) }}{%- endif -%}
    {%- set before = fromjson(recorded) -%}
    {%- set changes = [] -%}
    {%- for name in (before.keys() | list + parts.keys() | list) | unique | sort -%}
        {%- if name not in parts -%}{%- do changes.append('{} (removed)'.format(name)) -%}
        {%- elif name not in before -%}{%- do changes.append('{} (added)'.format(name)) -%}
        {%- elif before[name] | tojson != parts[name] | tojson -%}{%- do changes.append('{} (changed)'.format(name)) -%}
        {%- endif -%}
    {%- endfor -%}
    {{- return(changes) -}}
{% endmacro %}

{#- on_definition_change: 'fail' (the default: a changed definition is refused, naming what
    changed and the fix) or 'ignore' (the rows built so far stay, the new definition applies
    from this run on, and the run row records it); anything else is refused. -#}
{% macro on_definition_change_setting(kind, model_name) %}
    {{- return(tideline.choice_setting(kind, model_name, 'on_definition_change', [
        {'value': 'fail', 'means': 'a changed definition is refused'},
        {'value': 'ignore', 'means': 'the rows built so far stay and the new definition applies from this run on'}])) -}}
{% endmacro %}

{#- A run under a changed definition: refused before anything is written (policy 'fail'),
    or logged (policy 'ignore'). A rebuild builds every row under the new definition. Parts
    added whose names start with one of `additions` are an evolution the capability defines,
    not a change (a derivation's transform added later: its backlog goes first, at the
    frontier reached); they are logged and recorded, and named with the changes of a refusal. -#}
{% macro check_definition(kind, model_name, recorded, parts, policy, rebuild, additions=[]) %}
    {%- set changes = [] if rebuild else tideline.definition_changes(recorded, parts) -%}
    {%- set evolutions = [] -%}
    {%- for c in changes if c.endswith(' (added)') -%}
        {%- for prefix in additions if c.startswith(prefix) -%}{%- do evolutions.append(c) -%}{%- endfor -%}
    {%- endfor -%}
    {%- if changes and changes | length == evolutions | length -%}
        {{ log("tideline {}: {}: read from the beginning of its source, its backlog first".format(model_name, changes | join(', ')), info=true) }}
    {%- elif changes and policy == 'fail' -%}
        {{ exceptions.raise_compiler_error("tideline: {} {}: its definition changed since its rows were built: {}; its rows would mix the old definition and the new one. Rebuild it under the new one with: dbt run --full-refresh --select {}; or set on_definition_change='ignore' to keep its rows and apply the new definition from this run on".format(
            kind, model_name, changes | join(', '), model_name)) }}
    {%- elif changes -%}
        {{ log("tideline {}: its definition changed ({}); on_definition_change='ignore': the rows built so far stay, the new definition applies from this run on".format(model_name, changes | join(', ')), info=true) }}
    {%- endif -%}
{% endmacro %}

{#- Continual tasks: references read as of a step's commit time (issue 35, item 8).

    A plain ref() or source() in a statement is read as it is when the step runs. A reference
    declared in config references and read with tideline.reference(name) is read as it was at
    the step's commit time, from the history it keeps: its rows carry the time each version
    became valid (valid_from), and at step T it is its rows valid from T or earlier; with a
    key, each key's newest such row. So a stream-table join over several commits gives, in one
    run, in one run per commit and in a --full-refresh replay, the same rows. -#}

{#- In a statement: the reference `name` (a model, or 'source_name.table_name') as of the step's
    commit time; outside a step (dbt compile, the checks before a run) as of now (a
    time-travel reference: as it is). It must be one of config references. -#}
{% macro reference(name) %}
    {%- set relation = tideline._input_relation(name) -%}
    {%- set raw = config.get('references') -%}
    {%- if not execute -%}{{ return('(select * from {})'.format(relation)) }}{%- endif -%}
    {%- if raw is not mapping or name not in raw -%}
        {{ tideline._task_error(model.name, 'tideline.reference', name, "references named in config references ({})".format(
            (raw | list | join(', ')) if raw is mapping else 'none declared')) }}
    {%- endif -%}
    {%- set step = model.get('tideline_task_step') if model is mapping else none -%}
    {%- set at = step.get(name) if step is not none else none -%}
    {%- if at is mapping and 'reference' in at -%}{{ return(at.reference) }}{%- endif -%}
    {%- set spec = raw[name] -%}
    {%- if spec is mapping and spec.time_travel is sameas true -%}{{ return('(select * from {})'.format(relation)) }}{%- endif -%}
    {%- set key = [spec.key] if spec.key is string else (spec.get('key') or []) -%}
    {{- return(tideline.reference_as_of_sql(relation, spec.valid_from, key, tideline.now())) -}}
{% endmacro %}

{#- A reference's rows as of `as_of` (a UTC time; none: the relation whole, as a definition
    records it): those valid from it or earlier, and with a key only each key's newest (a key's
    versions compared by valid_from; keys compared null-safe). -#}
{% macro reference_as_of_sql(relation, valid_from, key, as_of) %}
    {%- if as_of is none -%}{{ return('(select * from {} /* as of the step */)'.format(relation)) }}{%- endif -%}
    {% set sql -%}
    (select tl_version.* from {{ relation }} as tl_version
        {%- if key %}
        left anti join {{ relation }} as tl_newer
            on {% for k in key %}tl_newer.{{ k }} <=> tl_version.{{ k }} and {% endfor -%}
               tl_newer.{{ valid_from }} > tl_version.{{ valid_from }} and tl_newer.{{ valid_from }} <= {{ tideline.ts(as_of) }}
        {%- endif %}
    where tl_version.{{ valid_from }} <= {{ tideline.ts(as_of) }})
    {%- endset %}
    {{- return(sql) -}}
{% endmacro %}

{#- What tideline.reference() gives each of the task's references at one step (as_of: its
    commit time; none: a definition's text, independent of time), by name, beside the inputs'
    entries: a kept history as of the step, or a table by time travel (time_travel.sql) from
    the versions the run listed (settings.reference_versions). -#}
{% macro task_reference_entries(settings, as_of) %}
    {%- set entries = {} -%}
    {%- set listed = settings.get('reference_versions', {}) -%}
    {%- for r in settings.get('references', []) -%}
        {%- set sql = tideline.time_travel_reference_sql(r, listed.get(r.name), as_of) if r.time_travel
                      else tideline.reference_as_of_sql(r.relation, r.valid_from, r.key, as_of) -%}
        {%- do entries.update({r.name: {'reference': sql}}) -%}
    {%- endfor -%}
    {{- return(entries) -}}
{% endmacro %}

{#- Continual tasks: an input's rows at a step, and the refusal of a bad setting. -#}

{#- In a statement: the rows input `name` committed at this step. `name` is a model (ref) or
    'source_name.table_name' (source); it must be one of config inputs. Rendered at a step
    (task_step_text), it is the input's rows with the step's condition on their commit column,
    and only the input's own columns: an input that is a tideline output leaves out tideline's
    (`_tl_*`), so `select *` gives what the model shows its readers. An input that is a
    continual task gives the rows it inserted at the step (upstream_tasks.sql). The step's entry
    for the input: input_rows.sql. In dbt's parse and compile, the input whole. -#}
{% macro input(name) %}
    {%- set call = tideline._input_call(name) -%}
    {%- if call.parsing -%}{{- return('(select * from {})'.format(call.relation)) -}}{%- endif -%}
    {%- if name not in call.inputs -%}
        {{ tideline._task_error(model.name, 'tideline.input', name, "inputs named in config inputs ({})".format(call.inputs | join(', '))) }}
    {%- endif -%}
    {{- return(tideline.input_rows_sql(call.relation, call.step[name] if call.step is not none else 'true', 'where')) -}}
{% endmacro %}

{#- What a statement's tideline.input() or tideline.input_deletes() of `name` is rendered in:
    the relation, the step's entries (none outside a step), whether dbt is parsing or compiling
    (no step, no definition being recorded) and the names of config inputs. -#}
{% macro _input_call(name) %}
    {%- set step = model.get('tideline_task_step') if model is mapping else none -%}
    {%- set raw = config.get('inputs') -%}
    {{- return({'relation': tideline._input_relation(name), 'step': step,
                'parsing': step is none and tideline.model_definitions_collector() is none,
                'inputs': (raw | list) if raw is mapping else raw}) -}}
{% endmacro %}

{#- The task's inputs (config inputs: names, or name -> {commit_column}), each an existing
    table with its commit column. -#}
{% macro _task_inputs(model_name) %}
    {%- set raw = config.get('inputs') -%}
    {%- if raw is string or raw is none or raw is not iterable or not raw -%}
        {{ tideline._task_error(model_name, 'inputs', raw, "a list of input names (models, or 'source.table'), or a mapping name: {commit_column: ...}") }}
    {%- endif -%}
    {%- set inputs = [] -%}
    {%- for name in raw -%}
        {%- set options = raw[name] if raw is mapping else {} -%}
        {%- if options is not mapping and options is not none -%}
            {{ tideline._task_error(model_name, 'inputs.{}'.format(name), options, "a mapping {commit_column: ...}, or nothing") }}
        {%- endif -%}
        {%- set options = options or {} -%}
        {%- do tideline.refuse_unknown_keys(tideline._task_error, model_name, 'inputs.{}'.format(name), options, ['commit_column']) -%}
        {%- if name == model_name -%}
            {{ tideline._task_error(model_name, 'inputs', name, "other models or sources: the task's output is read as {{ this }}, never as an input") }}
        {%- endif -%}
        {%- set found = tideline._task_relation(model_name, 'inputs', name, 'tables') -%}
        {%- set commit_column = (options.get('commit_column') or '_tl_batch') | lower -%}
        {%- set names = tideline.column_names(found) -%}
        {%- if found.type == 'view' and '_tl_batch' not in names -%}
            {{ tideline._task_error(model_name, 'inputs', name, "tables, or tideline's own outputs ({} is a view: its rows have no commit time of their own)".format(found)) }}
        {%- endif -%}
        {%- if commit_column not in names -%}
            {{ tideline._task_error(model_name, 'inputs.{}.commit_column'.format(name), commit_column, "a timestamp column of {} ({})".format(found, names | join(', '))) }}
        {%- endif -%}
        {%- set own = [] -%}
        {%- for c in names if not c.startswith('_tl_') -%}{%- do own.append('`{}`'.format(c)) -%}{%- endfor -%}
        {%- set upstream = tideline.is_continual_task(name) and commit_column == '_tl_batch' -%}
        {%- do inputs.append({'name': name, 'source': {'rendered': tideline.upstream_changes_sql(model_name, found, own) if upstream else found | string},
                              'commit_column': commit_column, 'delay': 0, 'columns': own, 'relation': found, 'upstream': upstream}) -%}
    {%- endfor -%}
    {{- return(inputs) -}}
{% endmacro %}

{% macro _task_error(model_name, setting, value, accepted) %}
    {{ exceptions.raise_compiler_error("tideline: continual task {}: {} = {} is invalid; accepted: {}".format(model_name, setting, tideline.shown(value), accepted)) }}
{% endmacro %}

{#- Continual tasks: an input's rows at a step, and the refusal of a bad setting. -#}

{#- In a statement: the rows input `name` committed at this step. `name` is a model (ref) or
    'source_name.table_name' (source); it must be one of config inputs. -#}
{% macro input(name) %}
    {{- return('(select * from {} where /* tideline:step {} */ true)'.format(tideline._input_relation(name), name)) -}}
{% endmacro %}

{% macro _input_relation(name) %}
    {%- if name is string and name.count('.') == 1 -%}
        {{- return(source(name.split('.')[0], name.split('.')[1])) -}}
    {%- endif -%}
    {{- return(ref(name)) -}}
{% endmacro %}

{% macro _task_error(model_name, setting, value, accepted) %}
    {{ exceptions.raise_compiler_error("tideline: continual task {}: {} = {} is invalid; accepted: {}".format(model_name, setting, value | tojson, accepted)) }}
{% endmacro %}

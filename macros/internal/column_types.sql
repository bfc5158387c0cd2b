{#- Declared columns and their Spark types. -#}

{#- `value` cast to `type`; a value that does not fit (another type, an overflow) stops the
    run with `message` instead of turning into null. -#}
{% macro checked_cast(value, type, message) %}
    {%- set sql -%}
        case when ({{ value }}) is not null and try_cast(({{ value }}) as {{ type }}) is null
            then raise_error({{ tideline.literal(message) }} || cast(({{ value }}) as string))
            else cast(({{ value }}) as {{ type }}) end
    {%- endset -%}
    {{- return(sql) -}}
{% endmacro %}

{#- The columns a model declares (derivation: derived_columns; continual task: columns), as
    [[name, normalised type], ...]; a bad one stops the run naming the model and the setting.
    `kind` is the capability's name in the message ("derivation", "continual task"). -#}
{% macro declared_columns(kind, model_name, setting, columns, example) %}
    {%- set fail = "tideline: {} {}: ".format(kind, model_name) -%}
    {%- if columns is not mapping or not columns -%}
        {{ exceptions.raise_compiler_error("{}{} = {} is invalid; accepted: a mapping of column name to Spark type, e.g. {}".format(fail, setting, tideline.shown(columns), example)) }}
    {%- endif -%}
    {%- set declared = [] -%}
    {%- for name, type in columns.items() -%}
        {%- if not modules.re.match('^[A-Za-z_][A-Za-z0-9_]*$', name) or name.startswith('_tl_') -%}
            {{ exceptions.raise_compiler_error("{}{} = {} is invalid; accepted: column names of letters, digits and underscores, not starting with _tl_".format(fail, setting, tideline.shown(name))) }}
        {%- endif -%}
        {%- if not tideline.is_spark_type(type) -%}
            {{ exceptions.raise_compiler_error("{}{}.{} = {} is invalid; accepted: {}".format(fail, setting, name, tideline.shown(type), tideline.spark_type_accepted(type))) }}
        {%- endif -%}
        {%- do declared.append([name | lower, tideline.type_name(type)]) -%}
    {%- endfor -%}
    {{- return(declared) -}}
{% endmacro %}

{#- Normalised Spark type names, so that 'integer' and 'int' compare equal. -#}
{% macro type_name(type) %}
    {%- set t = (type | string | lower | replace(' ', '')) -%}
    {%- set aliases = {'integer': 'int', 'long': 'bigint', 'short': 'smallint', 'byte': 'tinyint', 'real': 'float'} -%}
    {{- return(aliases.get(t, t)) -}}
{% endmacro %}

{#- `declared` ([[name, type], ...]) in the order of `stored` (a table's columns, the same form),
    or none when the table lacks one of them with its type: dbt does not keep a config mapping's
    order from one parse to the next, and tideline inserts by position, so a model's columns
    follow the table it writes. -#}
{% macro in_stored_order(declared, stored) %}
    {%- set ordered = [] -%}
    {%- for s in stored -%}
        {%- for d in declared if d[0] == s[0] and d[1] == s[1] -%}{%- do ordered.append(d) -%}{%- endfor -%}
    {%- endfor -%}
    {{- return(ordered if ordered | length == declared | length else none) -}}
{% endmacro %}

{#- Attribute views (Snowplow Signals' attribute view, in YAML): the words a definition may use.

    A view is declared in the config of its attributes model (meta.attribute_view), see the
    README's "Attribute views". definition.sql reads and checks it; generate.sql and the files
    beside it turn it into the two models' SQL. -#}

{#- The declared types: Signals' names, with their Spark types. A list type is <scalar>_list. -#}
{% macro attribute_types() %}
    {{- return({
        'int32': 'int', 'int64': 'bigint', 'float': 'float', 'double': 'double', 'string': 'string',
        'bool': 'boolean', 'boolean': 'boolean', 'timestamp': 'timestamp', 'date': 'date'}) -}}
{% endmacro %}

{#- What kind of value a type holds (declared names and the names of Spark's schema tree). -#}
{% macro value_kind(type) %}
    {%- set t = type | lower -%}
    {%- if t in ['int32', 'int64', 'float', 'double', 'integer', 'int', 'long', 'bigint', 'short', 'smallint', 'byte', 'tinyint'] or t.startswith('decimal') -%}
        {{- return('number') -}}
    {%- elif t in ['bool', 'boolean'] -%}{{- return('boolean') -}}
    {%- elif t in ['timestamp', 'timestamp_ntz'] -%}{{- return('timestamp') -}}
    {%- elif t in ['string', 'date'] -%}{{- return(t) -}}
    {%- endif -%}
    {{- return('complex') -}}
{% endmacro %}

{% macro attribute_aggregations() %}
    {{- return(['counter', 'sum', 'min', 'max', 'mean', 'first', 'last', 'unique_list']) -}}
{% endmacro %}

{% macro criteria_operators() %}
    {{- return(['=', '!=', '<', '<=', '>', '>=', 'like', 'in', 'is null', 'is not null']) -}}
{% endmacro %}

{#- Spark type names as a model's config declares them, checked before they reach a statement:
    a misspelt type (`bignit`, `array<strng>`) would otherwise fail a create table with Spark's
    own parse error, naming no model and no setting. -#}

{#- The primitive type names a declared type may use (Spark's, with their aliases). -#}
{% macro spark_primitive_types() %}
    {{- return(['boolean', 'tinyint', 'byte', 'smallint', 'short', 'int', 'integer', 'bigint', 'long', 'float', 'real',
                'double', 'string', 'binary', 'date', 'timestamp', 'timestamp_ltz', 'timestamp_ntz']) -}}
{% endmacro %}

{#- Whether `type` (a string) is a Spark type: a primitive, decimal(p[,s]) (or dec, numeric),
    char(n), varchar(n), array<t>, map<k,v> or struct<name:t,...>, nested to any depth. The
    innermost types are reduced to one placeholder until nothing changes: a type is one that
    reduces to the placeholder alone, and whose decimals have a precision of 1 to 38 and a scale
    no larger. Case does not matter, nor spaces around brackets, commas and colons (between
    two words or numbers a space is refused: `big int`, `decimal(1 2)`, `struct<a int>`). -#}
{% macro is_spark_type(type) %}
    {%- set re = modules.re -%}
    {%- if type is not string or re.search('[A-Za-z0-9_][ ]+[A-Za-z0-9_]', type) -%}{{ return(false) }}{%- endif -%}
    {%- set text = {'now': tideline.type_name(type)} -%}
    {%- set simple = '(^|[<,:])({}|(decimal|dec|numeric)([(][0-9]+(,[0-9]+)?[)])?|(var)?char[(][0-9]+[)])(?=$|[,>])'.format(tideline.spark_primitive_types() | join('|')) -%}
    {%- for _ in range(64) if text.now != 'T' -%}
        {%- set before = text.now -%}
        {%- set t = re.sub(simple, '\\1T', before) -%}
        {%- set t = re.sub('array<T>|map<T,T>|struct<([a-z_][a-z0-9_]*:T(,[a-z_][a-z0-9_]*:T)*)?>', 'T', t) -%}
        {%- do text.update({'now': t if t != before else 'T?'}) -%}
    {%- endfor -%}
    {%- for p, scale in re.findall('(?:decimal|dec|numeric)[(]([0-9]+)(?:,([0-9]+))?[)]', tideline.type_name(type)) -%}
        {%- if (p | int) < 1 or (p | int) > 38 or (scale or '0') | int > (p | int) -%}{%- do text.update({'now': 'T?'}) -%}{%- endif -%}
    {%- endfor -%}
    {{- return(text.now == 'T') -}}
{% endmacro %}

{#- What a refusal of a declared type says is accepted, with the closest primitive name when
    `type` is one word (`bignit`: did you mean bigint?). -#}
{% macro spark_type_accepted(type) %}
    {%- set accepted = "a Spark type: boolean, tinyint, smallint, int, bigint, float, double, decimal(p,s), string, binary, date, timestamp, timestamp_ntz, char(n), varchar(n), array<t>, map<k,v> or struct<name:t,...>" -%}
    {%- set word = tideline.type_name(type) if type is string else '' -%}
    {%- if modules.re.match('^[a-z_]+$', word) -%}
        {{- return("{} (did you mean {}?)".format(accepted, tideline.closest_name(word, tideline.spark_primitive_types()))) -}}
    {%- endif -%}
    {{- return(accepted) -}}
{% endmacro %}

{#- Derivations: update expressions that read the register (issue 35, item 2). Such an update is
    written over `_register` (the key's registers before this document, as a reader sees them)
    and `_doc` (this document: `_doc.<column>`), and is computed by a sequential fold
    (sequential_fold.sql) instead of the window functions of fold.sql. -#}

{#- Whether an update expression reads the register: it names `_register` or `_doc`. -#}
{% macro reads_register(expression) %}
    {{- return(modules.re.search('(?<![A-Za-z0-9_.])(_register|_doc)\\b', expression) is not none) -}}
{% endmacro %}

{#- `body` with `name` bound to `value` (a Spark lambda over a one-element array: SQL has no let). -#}
{% macro _let(value, name, body) %}
    {%- set sql -%}
        element_at(transform(array({{ value }}), {{ name }} -> {{ body }}), 1)
    {%- endset -%}
    {{- return(sql) -}}
{% endmacro %}

{#- A transform's document as one struct (what `_doc` is): its source's columns, from `alias`
    (none: a null of that struct's type). -#}
{% macro _document_struct(t, alias=none) %}
    {%- set fields = [] -%}
    {%- if alias is none -%}
        {%- for name, type in t.types.items() -%}{%- do fields.append('`{}`:{}'.format(name, type)) -%}{%- endfor -%}
        {{- return('cast(null as struct<{}>)'.format(fields | join(','))) -}}
    {%- endif -%}
    {%- for name in t.types -%}{%- do fields.append("'{}', {}.`{}`".format(name, alias, name)) -%}{%- endfor -%}
    {{- return('named_struct({})'.format(fields | join(', '))) -}}
{% endmacro %}

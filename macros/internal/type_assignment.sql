{#- Which types a declared column takes without a cast: Spark's rule for an insert into a table
    under its default store assignment (ANSI), applied by tideline to what a statement, a publish
    lambda or an update returns, because tideline casts explicitly where a table insert would
    have refused (an integer into a boolean). -#}

{#- Whether a value of type `found` may be stored in a column of type `declared` (both Spark type
    names, as `describe query` or a config writes them): the same type; null; a number into a
    number; a date or timestamp into a date or timestamp; any type but an array, map or struct
    into a string; arrays, maps and structs (fields by position) when each part may be. -#}
{% macro type_assignable(found, declared) %}
    {%- set f, d = tideline.type_shape(found), tideline.type_shape(declared) -%}
    {%- if f.name == d.name or f.family == 'void' -%}{{ return(true) }}{%- endif -%}
    {%- if f.family != d.family or f.parts | length != d.parts | length -%}
        {{- return(d.family == 'string' and f.family in ['number', 'datetime', 'boolean', 'binary', 'interval', 'string']) -}}
    {%- endif -%}
    {%- if f.family in ['number', 'datetime', 'string'] -%}{{ return(true) }}{%- endif -%}
    {%- for part in f.parts -%}
        {%- if not tideline.type_assignable(part, d.parts[loop.index0]) -%}{{ return(false) }}{%- endif -%}
    {%- endfor -%}
    {{- return(f.family in ['array', 'map', 'struct']) -}}
{% endmacro %}

{#- A type name's shape: its normalised name, its family (number, string, datetime, boolean,
    binary, interval, void, array, map, struct, or the name itself) and, for an array, a map or a
    struct, its parts' types (a struct's field types in order, names dropped). -#}
{% macro type_shape(type) %}
    {%- set name = tideline.type_name(type) -%}
    {%- set outer = modules.re.match('^(array|map|struct)<(.*)>$', name) -%}
    {%- if outer -%}
        {%- set parts = tideline.type_parts_text(outer.group(2)) -%}
        {%- if outer.group(1) == 'struct' -%}
            {%- set parts = tideline.struct_field_types(parts) -%}
        {%- endif -%}
        {{- return({'name': name, 'family': outer.group(1), 'parts': parts}) -}}
    {%- endif -%}
    {%- set families = [
        ['number', '^(tinyint|smallint|int|bigint|float|double|(decimal|dec|numeric)([(].*[)])?)$'],
        ['string', '^(string|(var)?char[(][0-9]+[)])$'],
        ['datetime', '^(date|timestamp|timestamp_ltz|timestamp_ntz)$'],
        ['interval', '^interval'],
        ['void', '^(void|null)$']] -%}
    {%- for family, pattern in families if modules.re.match(pattern, name) -%}
        {{- return({'name': name, 'family': family, 'parts': []}) -}}
    {%- endfor -%}
    {{- return({'name': name, 'family': name, 'parts': []}) -}}
{% endmacro %}

{#- `text` split at its commas outside brackets and parentheses (the parts of map<k,v> or of a
    struct's field list, where decimal(p,s) and nested types hold commas of their own). -#}
{% macro type_parts_text(text) %}
    {%- set walk = namespace(depth=0, start=0, parts=[]) -%}
    {%- for ch in text -%}
        {%- if ch in '<(' -%}{%- set walk.depth = walk.depth + 1 -%}
        {%- elif ch in '>)' -%}{%- set walk.depth = walk.depth - 1 -%}
        {%- elif ch == ',' and walk.depth == 0 -%}
            {%- do walk.parts.append(text[walk.start:loop.index0]) -%}
            {%- set walk.start = loop.index -%}
        {%- endif -%}
    {%- endfor -%}
    {%- do walk.parts.append(text[walk.start:]) -%}
    {{- return(walk.parts | reject('equalto', '') | list) -}}
{% endmacro %}

{#- A struct's field types in order, from its fields as `name:type` (the name may be quoted with
    backticks and hold a colon). -#}
{% macro struct_field_types(fields) %}
    {%- set types = [] -%}
    {%- for field in fields -%}
        {%- set m = modules.re.match('^(`[^`]*`|[^:]*):(.*)$', field) -%}
        {%- do types.append(m.group(2) if m else field) -%}
    {%- endfor -%}
    {{- return(types) -}}
{% endmacro %}

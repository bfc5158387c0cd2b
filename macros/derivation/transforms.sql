{#- Derivations (seed 001, Estuary Flow): what a model writes, and how its settings are read.

    A derivation model declares its transforms with tideline.transform(), one per transform,
    in the model file; a publish lambda is the body of a {% call %} block:

        {{ config(materialized='derivation', unique_key='id',
                  derived_columns={'id': 'bigint', 'sender': 'string', 'balance': 'double', 'overdrawn': 'boolean'},
                  registers={'balance': {'type': 'double', 'initial': 0, 'reduce': 'sum'}}) }}

        {{ tideline.transform('fromTransferRecipient', source=ref('transfers'), shuffle=['recipient'],
                              order_by='id', update={'balance': 'amount'}) }}

        {% call tideline.transform('fromTransferSender', source=ref('transfers'), shuffle=['sender'],
                                    order_by='id', update={'balance': '-amount'}) %}
            select id, sender, _register.balance as balance, _register.balance < 0 as overdrawn
            from {{ tideline.document() }}
        {% endcall %}

    transform() renders a marked block into the compiled model (a SQL comment holding its
    settings as JSON, then the publish select); the materialization reads the blocks back with
    derivation_settings(). Everything is checked there, before any statement is sent. -#}

{% macro transform(name, source=none, shuffle=none, update=none, order_by=none, commit_column='_tl_batch',
                   read_delay='0s', priority=0) %}
    {%- set publish = caller() if caller is defined else '' -%}
    {%- set spec = {
        'name': name,
        'source': ({'schema': source.schema, 'identifier': source.identifier, 'rendered': source | string}
                   if source is not none and source.identifier is defined else (source | string if source is not none else none)),
        'shuffle': shuffle, 'updates': update, 'order_by': order_by, 'commit_column': commit_column,
        'read_delay': read_delay, 'priority': priority, 'has_publish': publish | trim != '',
    } -%}
    {{- '/* tideline:transform ' ~ (spec | tojson | replace('*/', '*\\/')) ~ ' */\n' ~ publish ~ '\n/* tideline:end */\n' -}}
{% endmacro %}

{#- In a publish lambda: the documents of its transform, one row each: the source row's
    columns, _register (the registers after this document's update) and _previous (before it). -#}
{% macro document() %}
    {{- return('_tl_document') -}}
{% endmacro %}

{% macro _derivation_error(model_name, setting, value, accepted, transform_name=none) %}
    {{ exceptions.raise_compiler_error("tideline: derivation " ~ model_name
        ~ (", transform " ~ transform_name if transform_name else "") ~ ": " ~ setting ~ " = "
        ~ (value | tojson) ~ " is invalid; accepted: " ~ accepted) }}
{% endmacro %}

{#- The reduction strategies, with Flow's names accepted as synonyms. -#}
{% macro _strategy(model_name, setting, value, transform_name=none) %}
    {%- set synonyms = {'minimize': 'min', 'maximize': 'max', 'firstWriteWins': 'first_write_wins',
                        'lastWriteWins': 'last_write_wins'} -%}
    {%- set strategy = synonyms.get(value, value) -%}
    {%- if strategy not in ['sum', 'min', 'max', 'first_write_wins', 'last_write_wins', 'append', 'set', 'merge'] -%}
        {{ tideline._derivation_error(model_name, setting, value,
            "sum, min, max, first_write_wins, last_write_wins, append, set, or merge (a struct, with a strategy per field)") }}
    {%- endif -%}
    {{- return(strategy) -}}
{% endmacro %}

{#- The fields of a struct type: [[name, type], ...]; none for another type. -#}
{% macro _struct_fields(type) %}
    {%- set t = tideline.type_name(type) -%}
    {%- if not (t.startswith('struct<') and t.endswith('>')) -%}{{ return(none) }}{%- endif -%}
    {%- set body = t[7:-1] -%}
    {%- set fields = [] -%}
    {%- set state = {'depth': 0, 'start': 0} -%}
    {%- for i in range(body | length + 1) -%}
        {%- set c = body[i] if i < body | length else ',' -%}
        {%- if c in '<(' -%}{%- do state.update({'depth': state.depth + 1}) -%}
        {%- elif c in '>)' -%}{%- do state.update({'depth': state.depth - 1}) -%}
        {%- elif c == ',' and state.depth == 0 -%}
            {%- set part = body[state.start:i] -%}
            {%- do fields.append([part.split(':', 1)[0], part.split(':', 1)[1] if ':' in part else '']) -%}
            {%- do state.update({'start': i + 1}) -%}
        {%- endif -%}
    {%- endfor -%}
    {{- return(fields) -}}
{% endmacro %}

{#- A SQL literal of a config value (a register's initial value) of a type. -#}
{% macro _literal(value, type) %}
    {%- set t = tideline.type_name(type) -%}
    {%- if value is none -%}{{ return('cast(null as ' ~ t ~ ')') }}{%- endif -%}
    {%- if value is mapping -%}
        {%- set parts = [] -%}
        {%- for f in tideline._struct_fields(t) or [] -%}
            {%- do parts.append("'" ~ f[0] ~ "', " ~ tideline._literal(value.get(f[0]), f[1])) -%}
        {%- endfor -%}
        {{- return('named_struct(' ~ parts | join(', ') ~ ')') -}}
    {%- endif -%}
    {%- if value is string -%}{{ return('cast(' ~ tideline.string_list([value])[1:-1] ~ ' as ' ~ t ~ ')') }}{%- endif -%}
    {%- if value is boolean -%}{{ return('cast(' ~ ('true' if value else 'false') ~ ' as ' ~ t ~ ')') }}{%- endif -%}
    {%- if value is iterable -%}
        {%- set element = t[6:-1] if t.startswith('array<') else 'string' -%}
        {%- set items = [] -%}
        {%- for v in value -%}{%- do items.append(tideline._literal(v, element)) -%}{%- endfor -%}
        {{- return('cast(array(' ~ items | join(', ') ~ ') as ' ~ t ~ ')') -}}
    {%- endif -%}
    {{- return('cast(' ~ value ~ ' as ' ~ t ~ ')') -}}
{% endmacro %}

{#- A reduction's spec: {'strategy', 'type', 'fields': [[name, spec], ...] for merge}. -#}
{% macro _reduction(model_name, setting, strategy_value, type, field_strategies=none) %}
    {%- set strategy = tideline._strategy(model_name, setting ~ '.reduce', strategy_value) -%}
    {%- set spec = {'strategy': strategy, 'type': tideline.type_name(type), 'fields': none} -%}
    {%- set fields = tideline._struct_fields(type) -%}
    {%- if strategy in ['append', 'set'] and not spec.type.startswith('array<') -%}
        {{ tideline._derivation_error(model_name, setting ~ '.type', type, "an array type (array<...>) for " ~ strategy) }}
    {%- endif -%}
    {%- if strategy == 'sum' and not (spec.type in ['tinyint', 'smallint', 'int', 'bigint', 'float', 'double'] or spec.type.startswith('decimal')) -%}
        {{ tideline._derivation_error(model_name, setting ~ '.type', type, "a numeric type for sum") }}
    {%- endif -%}
    {%- if strategy == 'merge' -%}
        {%- if fields is none -%}
            {{ tideline._derivation_error(model_name, setting ~ '.type', type, "a struct type (struct<name:type, ...>) for merge") }}
        {%- endif -%}
        {%- set given = field_strategies or {} -%}
        {%- if given is not mapping -%}
            {{ tideline._derivation_error(model_name, setting ~ '.fields', given, "a mapping of struct field to strategy") }}
        {%- endif -%}
        {%- set names = fields | map('first') | list -%}
        {%- for f in given if f not in names -%}
            {{ tideline._derivation_error(model_name, setting ~ '.fields', f, "a field of " ~ spec.type ~ ": " ~ names | join(', ')) }}
        {%- endfor -%}
        {%- set specs = [] -%}
        {%- for f in fields -%}
            {%- do specs.append([f[0], tideline._reduction(model_name, setting ~ '.fields.' ~ f[0], given.get(f[0], 'last_write_wins'), f[1])]) -%}
        {%- endfor -%}
        {%- do spec.update({'fields': specs}) -%}
    {%- endif -%}
    {{- return(spec) -}}
{% endmacro %}

{#- A read delay in seconds, from '30s', '10m', '2h' or '1d'. -#}
{% macro _delay_seconds(model_name, transform_name, value) %}
    {%- set m = modules.re.match('^(\d+)(s|m|h|d)$', value | string) if value is string else none -%}
    {%- if not m -%}
        {{ tideline._derivation_error(model_name, 'read_delay', value, "a whole number and a unit, s, m, h or d (30s, 10m, 2h, 1d)", transform_name) }}
    {%- endif -%}
    {{- return((m.group(1) | int) * {'s': 1, 'm': 60, 'h': 3600, 'd': 86400}[m.group(2)]) -}}
{% endmacro %}

{#- The column types of a relation ({name: type}), from dbt's relation cache when it has them. -#}
{% macro _column_types(relation) %}
    {%- set types = {} -%}
    {%- for c in adapter.get_columns_in_relation(relation) -%}
        {%- do types.update({c.name | lower: tideline.type_name(c.data_type)}) -%}
    {%- endfor -%}
    {{- return(types) -}}
{% endmacro %}

{#- Everything a derivation run needs, read from the model's config and its compiled SQL and
    checked, before any statement that writes: the first error stops the run, naming the model,
    the transform and the setting. -#}
{% macro derivation_settings(model_name, model_sql) %}
    {%- set unique_key = config.get('unique_key') -%}
    {%- set unique_key = [unique_key] if unique_key is string else unique_key -%}
    {%- set columns = config.get('derived_columns') -%}
    {%- set derived = tideline.declared_columns('derivation', model_name, 'derived_columns', columns, "{'id': 'bigint', 'balance': 'double'}") -%}
    {%- set derived_names = derived | map('first') | list -%}
    {%- if not unique_key or unique_key is not iterable or unique_key is mapping -%}
        {{ tideline._derivation_error(model_name, 'unique_key', unique_key, "a column of derived_columns, or a list of them") }}
    {%- endif -%}
    {%- for k in unique_key if (k | lower) not in derived_names -%}
        {{ tideline._derivation_error(model_name, 'unique_key', unique_key, "columns of derived_columns (" ~ derived_names | join(', ') ~ ")") }}
    {%- endfor -%}

    {#- the derived table's reductions: none means the newest published row replaces the stored one -#}
    {%- set reduce = config.get('reduce') or {} -%}
    {%- if reduce is not mapping -%}
        {{ tideline._derivation_error(model_name, 'reduce', reduce, "a mapping of derived column to strategy, e.g. {'balance': 'sum'}") }}
    {%- endif -%}
    {%- set reductions = {} -%}
    {%- for name, strategy in reduce.items() -%}
        {%- if (name | lower) not in derived_names or (name | lower) in (unique_key | map('lower') | list) -%}
            {{ tideline._derivation_error(model_name, 'reduce', name, "a column of derived_columns that is not part of unique_key") }}
        {%- endif -%}
        {%- set s = strategy if strategy is mapping else {'reduce': strategy} -%}
        {%- do reductions.update({name | lower: tideline._reduction(model_name, 'reduce.' ~ name, s.get('reduce'), columns[name], s.get('fields'))}) -%}
    {%- endfor -%}

    {#- registers: name -> type, initial, reduce (default last_write_wins) -#}
    {%- set given_registers = config.get('registers') or {} -%}
    {%- if given_registers is not mapping -%}
        {{ tideline._derivation_error(model_name, 'registers', given_registers, "a mapping of register name to {type, initial, reduce}") }}
    {%- endif -%}
    {%- set registers = [] -%}
    {%- for name, r in given_registers.items() -%}
        {%- if not modules.re.match('^[A-Za-z_][A-Za-z0-9_]*$', name) -%}
            {{ tideline._derivation_error(model_name, 'registers', name, "register names of letters, digits and underscores") }}
        {%- endif -%}
        {%- if r is not mapping or r.get('type') is not string or r.get('type') | trim == '' -%}
            {{ tideline._derivation_error(model_name, 'registers.' ~ name, r, "{type: <Spark type>, initial: <value>, reduce: <strategy>}: a type is required") }}
        {%- endif -%}
        {%- if 'initial' not in r -%}
            {{ tideline._derivation_error(model_name, 'registers.' ~ name, r, "an initial value (initial: ..., null allowed), the value of a register never updated") }}
        {%- endif -%}
        {%- set spec = tideline._reduction(model_name, 'registers.' ~ name, r.get('reduce', 'last_write_wins'), r.type, r.get('fields')) -%}
        {%- do spec.update({'name': name | lower, 'initial': tideline._literal(r.initial, r.type), 'initial_value': r.initial}) -%}
        {%- do registers.append(spec) -%}
    {%- endfor -%}
    {%- set register_names = registers | map(attribute='name') | list -%}

    {#- transforms, from the marked blocks of the compiled model -#}
    {%- set transforms = [] -%}
    {%- set pattern = '/\* tideline:transform (.*?) \*/\n(.*?)\n/\* tideline:end \*/' -%}
    {%- for m in modules.re.finditer(pattern, model_sql, modules.re.S) -%}
        {%- set spec = fromjson(m.group(1)) -%}
        {%- do spec.update({'publish': m.group(2) if spec.has_publish else none}) -%}
        {%- do transforms.append(spec) -%}
    {%- endfor -%}
    {%- set rest = modules.re.sub(pattern, '', model_sql, flags=modules.re.S) -%}
    {%- set rest = modules.re.sub('--[^\n]*|/\*.*?\*/', '', rest, flags=modules.re.S) -%}
    {%- if not transforms or rest | trim != '' -%}
        {{ exceptions.raise_compiler_error("tideline: derivation " ~ model_name ~ ": the model must consist of tideline.transform(...) blocks only"
            ~ (" (found: " ~ (rest | trim)[:80] ~ ")" if rest | trim != '' else " (none found)")
            ~ "; see the README, Derivations") }}
    {%- endif -%}
    {%- set names = [] -%}
    {%- for t in transforms -%}
        {%- if t.name is not string or not modules.re.match('^[A-Za-z0-9_]+$', t.name) or t.name in names -%}
            {{ tideline._derivation_error(model_name, 'transform name', t.name, "a unique name of letters, digits and underscores") }}
        {%- endif -%}
        {%- do names.append(t.name) -%}
        {%- if t.source is not mapping -%}
            {{ tideline._derivation_error(model_name, 'source', t.source, "ref('<model>') or source('<source>', '<table>')", t.name) }}
        {%- endif -%}
        {%- if t.priority is not number or t.priority is boolean or (t.priority | int) != t.priority or t.priority < 0 -%}
            {{ tideline._derivation_error(model_name, 'priority', t.priority, "an integer >= 0 (higher goes first among documents at the same time)", t.name) }}
        {%- endif -%}
        {%- do t.update({'delay': tideline._delay_seconds(model_name, t.name, t.read_delay)}) -%}
        {%- set update = t.updates or {} -%}
        {%- if update is not mapping -%}
            {{ tideline._derivation_error(model_name, 'update', update, "a mapping of register to SQL expression over the source row", t.name) }}
        {%- endif -%}
        {%- for r, expression in update.items() -%}
            {%- if (r | lower) not in register_names -%}
                {{ tideline._derivation_error(model_name, 'update', r, "a declared register (" ~ (register_names | join(', ') or 'none declared') ~ ")", t.name) }}
            {%- endif -%}
            {%- if expression is not string or expression | trim == '' -%}
                {{ tideline._derivation_error(model_name, 'update.' ~ r, expression, "a SQL expression over the source row, as text", t.name) }}
            {%- endif -%}
        {%- endfor -%}
        {%- set lowered = {} -%}
        {%- for r, expression in update.items() -%}{%- do lowered.update({r | lower: expression}) -%}{%- endfor -%}
        {%- do t.update({'updates': lowered}) -%}
        {%- if not update and not t.publish -%}
            {{ tideline._derivation_error(model_name, 'update and publish', none, "an update, a publish lambda (the call block's body), or both", t.name) }}
        {%- endif -%}
        {%- set shuffle = [t.shuffle] if t.shuffle is string else (t.shuffle or []) -%}
        {%- if registers and not shuffle -%}
            {{ tideline._derivation_error(model_name, 'shuffle', t.shuffle, "the source columns that key the registers, e.g. ['sender']", t.name) }}
        {%- endif -%}
        {%- do t.update({'shuffle': shuffle | map('lower') | list}) -%}

        {#- the source and its columns -#}
        {%- set relation = adapter.get_relation(database=none, schema=t.source.schema, identifier=t.source.identifier) -%}
        {%- if relation is none -%}
            {{ tideline._derivation_error(model_name, 'source', t.source.rendered, "an existing table or view (build it first, or check the name)", t.name) }}
        {%- endif -%}
        {%- set types = tideline._column_types(relation) -%}
        {%- do t.update({'relation': relation, 'types': types}) -%}
        {%- if types.get((t.commit_column or '') | lower) != 'timestamp' -%}
            {{ tideline._derivation_error(model_name, 'commit_column', t.commit_column,
                "a timestamp column of " ~ t.source.rendered ~ " (its columns: " ~ types.keys() | join(', ')
                ~ "); tideline's tables carry _tl_batch, a raw source its load time, e.g. commit_column='load_tstamp'", t.name) }}
        {%- endif -%}
        {%- if t.order_by is not none and (t.order_by | lower) not in types -%}
            {{ tideline._derivation_error(model_name, 'order_by', t.order_by, "a column of " ~ t.source.rendered ~ " (" ~ types.keys() | join(', ') ~ ")", t.name) }}
        {%- endif -%}
        {%- for c in shuffle if (c | lower) not in types -%}
            {{ tideline._derivation_error(model_name, 'shuffle', t.shuffle, "columns of " ~ t.source.rendered ~ " (" ~ types.keys() | join(', ') ~ ")", t.name) }}
        {%- endfor -%}
    {%- endfor -%}

    {#- shuffle keys and order columns must agree between transforms (Flow's rule) -#}
    {%- set first = transforms[0] -%}
    {%- set key_types = [] -%}
    {%- for c in first.shuffle -%}{%- do key_types.append(first.types[c]) -%}{%- endfor -%}
    {%- set order_type = {'type': none} -%}
    {%- for t in transforms -%}
        {%- set these = [] -%}
        {%- for c in t.shuffle -%}{%- do these.append(t.types[c]) -%}{%- endfor -%}
        {%- if registers and these != key_types -%}
            {{ tideline._derivation_error(model_name, 'shuffle', t.shuffle, "a key of the same number and types of components as transform "
                ~ first.name ~ "'s " ~ first.shuffle | tojson ~ " (" ~ key_types | join(', ') ~ "), not (" ~ these | join(', ') ~ ")", t.name) }}
        {%- endif -%}
        {%- if t.order_by is not none -%}
            {%- set ot = t.types[t.order_by | lower] -%}
            {%- if order_type.type is not none and order_type.type != ot -%}
                {{ tideline._derivation_error(model_name, 'order_by', t.order_by, "a column of the same type as the other transforms' order columns (" ~ order_type.type ~ "), not " ~ ot, t.name) }}
            {%- endif -%}
            {%- do order_type.update({'type': ot}) -%}
        {%- endif -%}
    {%- endfor -%}

    {#- compaction: every compact_every runs a run also rewrites the live rows and registers into a
        new generation, so what a run scans stays proportional to the live keys -#}
    {%- set compact_every = tideline.compact_every_setting(model_name, tideline._derivation_error) -%}

    {{- return({'name': model_name, 'unique_key': unique_key | map('lower') | list, 'derived': derived, 'compact_every': compact_every,
                'reductions': reductions, 'registers': registers, 'transforms': transforms,
                'key_types': key_types if registers else [], 'order_type': order_type.type or 'string'}) -}}
{% endmacro %}

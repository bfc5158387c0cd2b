{#- Derivations: the transforms of a model, as its tideline.transform() calls declare them, checked. -#}

{#- The transforms, in the order the model declares them (collected: internal/model_definitions.sql);
    the model's file may hold nothing else but its config and comments. -#}
{% macro _transforms_of(model_name) %}
    {%- set collected = tideline.collect_model_definitions() -%}
    {%- set transforms = collected.definitions -%}
    {%- set rest = modules.re.sub('--[^\n]*|/\*.*?\*/', '', collected.rest, flags=modules.re.S) | trim -%}
    {%- if not transforms or rest != '' -%}
        {{ exceptions.raise_compiler_error("tideline: derivation {}: the model must consist of tideline.transform(...) blocks only{}; see the README, Derivations".format(
            model_name, " (found: {})".format(rest[:80]) if rest != '' else " (none found)")) }}
    {%- endif -%}
    {%- set names = [] -%}
    {%- for t in transforms -%}
        {%- if t.name is not string or not modules.re.match('^[A-Za-z0-9_]+$', t.name) or t.name in names -%}
            {{ tideline._derivation_error(model_name, 'transform name', t.name, "a unique name of letters, digits and underscores") }}
        {%- endif -%}
        {%- do names.append(t.name) -%}
    {%- endfor -%}
    {{- return(transforms) -}}
{% endmacro %}

{#- One transform's own settings, checked and normalised in place: source, priority, read
    delay, clock, update (lower-case registers), shuffle (a list). -#}
{% macro _check_transform(model_name, t, register_names) %}
    {%- if t.source is not mapping -%}
        {{ tideline._derivation_error(model_name, 'source', t.source, "ref('<model>'), source('<source>', '<table>') or tideline.own_documents()", t.name) }}
    {%- endif -%}
    {%- do t.update({'own': t.source.get('own_documents') is sameas true}) -%}
    {%- if t.priority is not number or t.priority is boolean or (t.priority | int) != t.priority or t.priority < 0 -%}
        {{ tideline._derivation_error(model_name, 'priority', t.priority, "an integer >= 0 (higher goes first among documents at the same time)", t.name) }}
    {%- endif -%}
    {%- do t.update({'delay': tideline._delay_seconds(model_name, t.name, t.read_delay)}) -%}
    {%- if t.clock is not boolean -%}
        {{ tideline._derivation_error(model_name, 'clock', t.clock, "true (the source's commit column is its writer's clock: a row committed later carries a later time than now, so the frontier reaches now and read delays are released by the clock) or false (the default: the source's newest commit time bounds the frontier)", t.name) }}
    {%- endif -%}
    {%- set update = t.updates or {} -%}
    {%- if update is not mapping -%}
        {{ tideline._derivation_error(model_name, 'update', update, "a mapping of register to SQL expression over the source row", t.name) }}
    {%- endif -%}
    {%- set lowered = {} -%}
    {%- for r, expression in update.items() -%}
        {%- if (r | lower) not in register_names -%}
            {{ tideline._derivation_error(model_name, 'update', r, "a declared register ({})".format(register_names | join(', ') or 'none declared'), t.name) }}
        {%- endif -%}
        {%- if expression is not string or expression | trim == '' -%}
            {{ tideline._derivation_error(model_name, 'update.{}'.format(r), expression, "a SQL expression over the source row, as text", t.name) }}
        {%- endif -%}
        {%- do lowered.update({r | lower: expression}) -%}
    {%- endfor -%}
    {%- set reading = [] -%}
    {%- for r, expression in lowered.items() if tideline.reads_register(expression) -%}{%- do reading.append(r) -%}{%- endfor -%}
    {%- do t.update({'updates': lowered, 'reading': reading}) -%}
    {%- if not update and not t.publish -%}
        {{ tideline._derivation_error(model_name, 'update and publish', none, "an update, a publish lambda (the call block's body), or both", t.name) }}
    {%- endif -%}
    {%- set shuffle = [t.shuffle] if t.shuffle is string else (t.shuffle or []) -%}
    {%- if register_names and not shuffle -%}
        {{ tideline._derivation_error(model_name, 'shuffle', t.shuffle, "the source columns that key the registers, e.g. ['sender']", t.name) }}
    {%- endif -%}
    {%- do t.update({'shuffle': shuffle | map('lower') | list, 'key_columns': shuffle | map('lower') | list}) -%}
{% endmacro %}

{#- A transform's source and its columns: the commit column, the order and shuffle columns.
    source_types: the column types of the sources described so far, by relation (filled here). -#}
{% macro _check_transform_source(model_name, t, derived, source_types) %}
    {%- if t.source.get('own_documents') -%}
        {{- return(tideline._check_own_documents_transform(model_name, t, derived)) -}}
    {%- endif -%}
    {%- set relation = adapter.get_relation(database=none, schema=t.source.schema, identifier=t.source.identifier) -%}
    {%- if relation is none -%}
        {{ tideline._derivation_error(model_name, 'source', t.source.rendered, "an existing table or view (build it first, or check the name)", t.name) }}
    {%- endif -%}
    {%- if relation | string not in source_types -%}
        {%- do source_types.update({relation | string: tideline._column_types(relation)}) -%}
    {%- endif -%}
    {%- set types = source_types[relation | string] -%}
    {%- set listed = types.keys() | join(', ') -%}
    {%- do t.update({'relation': relation, 'types': types}) -%}
    {%- if types.get((t.commit_column or '') | lower) != 'timestamp' -%}
        {{ tideline._derivation_error(model_name, 'commit_column', t.commit_column,
            "a timestamp column of {} (its columns: {}); tideline's tables carry _tl_batch, a raw source its load time, e.g. commit_column='load_tstamp'".format(t.source.rendered, listed), t.name) }}
    {%- endif -%}
    {%- if t.order_by is not none and (t.order_by | lower) not in types -%}
        {{ tideline._derivation_error(model_name, 'order_by', t.order_by, "a column of {} ({})".format(t.source.rendered, listed), t.name) }}
    {%- endif -%}
    {%- for c in t.shuffle if c not in types -%}
        {{ tideline._derivation_error(model_name, 'shuffle', t.shuffle, "columns of {} ({})".format(t.source.rendered, listed), t.name) }}
    {%- endfor -%}
{% endmacro %}

{#- Shuffle keys and order columns must agree between transforms (Flow's rule): {key_types,
    order_type}. -#}
{% macro _transforms_agree(model_name, transforms, registers) %}
    {%- set first = transforms[0] -%}
    {%- set key_types = [] -%}
    {%- for c in first.shuffle -%}{%- do key_types.append(first.types[c]) -%}{%- endfor -%}
    {%- set order_type = {'type': none} -%}
    {%- for t in transforms -%}
        {%- set these = [] -%}
        {%- for c in t.shuffle -%}{%- do these.append(t.types[c]) -%}{%- endfor -%}
        {%- if registers and these != key_types -%}
            {{ tideline._derivation_error(model_name, 'shuffle', t.shuffle, "a key of the same number and types of components as transform {}'s {} ({}), not ({})".format(
                first.name, first.shuffle | tojson, key_types | join(', '), these | join(', ')), t.name) }}
        {%- endif -%}
        {%- if t.order_by is not none -%}
            {%- set ot = t.types[t.order_by | lower] -%}
            {%- if order_type.type is not none and order_type.type != ot -%}
                {{ tideline._derivation_error(model_name, 'order_by', t.order_by, "a column of the same type as the other transforms' order columns ({}), not {}".format(order_type.type, ot), t.name) }}
            {%- endif -%}
            {%- do order_type.update({'type': ot}) -%}
        {%- endif -%}
    {%- endfor -%}
    {{- return({'key_types': key_types, 'order_type': order_type.type}) -}}
{% endmacro %}

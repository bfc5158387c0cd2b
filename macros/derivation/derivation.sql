{#- Derivations: the rules of a run. The materialization (macros/materializations/derivation.sql)
    calls these in order: state, frontier, publish columns, the run's select, commit.

    THE ORDER. Every document (a source row of a transform) has a position, compared field by
    field:
      1. greatest(commit time + read delay, F_prev): its time; F_prev is the frontier the
         derivation had reached, so the backlog of a transform added later goes first, at F_prev;
      2. commit time + read delay;
      3. the transform's order_by column (rows committed together);
      4. higher priority first;
      5. the transform's name;
      6. the row itself (its JSON) and, for identical rows, their number: a total order.
    For each document in that order its update is reduced into the register of its shuffle key,
    then its publish lambda sees the register before (_previous) and after (_register).

    THE FRONTIER. A run processes every document whose time (1.) is at or before the frontier F
    (macros/internal/frontier.sql, shared with the continual tasks; a transform is a feed, its
    read delay the feed's delay), so the same arrivals give the same order whatever the runs
    they are split into.

    Folds are set-wise: Flow's update lambdas never read the register, so every strategy is an
    associative fold, computed with window functions over the new documents of a key, started
    from the stored register.

    STORAGE. Runs append new versions of rows and registers; readers keep the newest committed
    version of each key. The versions live in generations (partition tl_gen). The partition
    columns (tl_part, tl_gen) are strings without a leading underscore: a Hive metastore
    filters partitions by string keys only, and its filter parser rejects names starting
    with `_`. Every
    compact_every runs (default 24) a run also copies the newest version of every key into a
    new generation, commits it as the live one (tl_state.generation), then drops the old one.
    So a run scans at most the live keys plus compact_every runs' worth of versions (the
    mechanism is macros/internal/generations.sql, shared with the continual tasks). -#}

{#- The data table's columns: the derived table's, the register key and registers, and the
    commit columns. One table holds both kinds of rows (tl_part 'row' or 'register'), so a run
    writes both with one insert, and readers of the rows never scan the registers. -#}
{% macro derivation_data_columns(settings) %}
    {%- set columns = [] -%}
    {%- for c in settings.derived -%}{%- do columns.append([c[0], c[1]]) -%}{%- endfor -%}
    {%- for t in settings.key_types -%}{%- do columns.append(['_tl_key_' ~ loop.index, t]) -%}{%- endfor -%}
    {%- if settings.registers -%}{%- do columns.append(['_register', tideline.register_struct_type(settings)]) -%}{%- endif -%}
    {%- do columns.extend([['_tl_batch', 'timestamp'], ['_tl_run', 'string'], ['tl_part', 'string'], ['tl_gen', 'string']]) -%}
    {{- return(columns) -}}
{% endmacro %}

{% macro register_struct_type(settings) %}
    {%- set fields = [] -%}
    {%- for r in settings.registers -%}{%- do fields.append(r.name ~ ':' ~ r.type) -%}{%- endfor -%}
    {{- return('struct<' ~ fields | join(',') ~ '>') -}}
{% endmacro %}

{#- The reader's view: the newest committed row of each unique key, with its commit time
    (`pending_run`: a rebuild into a new table, data_tables.sql). -#}
{% macro derivation_view_sql(settings, data, pending_run=none) %}
    {%- set columns = settings.derived | map('first') | list -%}
    {% set sql %}
        select {{ columns | join(', ') }}, _tl_batch, _tl_run
        from (
            select
                *,
                row_number() over (partition by {{ settings.unique_key | join(', ') }} order by _tl_batch desc) as _tl_newest
            from {{ data }}
            where tl_part = 'row' and tl_gen = cast(({{ tideline.live_generation_sql(settings.name, pending_run) }}) as string)
                and _tl_run in ({{ tideline.committed_runs_sql(settings.name, pending_run=pending_run) }})
        ) as newest
        where _tl_newest = 1
    {% endset %}
    {{- return(sql) -}}
{% endmacro %}

{#- The derivation's committed state: F_prev, the newest batch written, the live generation and
    how many runs wrote to it, each transform's watermark (the newest commit time it has
    processed), and the files of its state. A rebuild (rebuild=true) starts from nothing but
    the live generation, which its own comes after, and the newest batch, which its rows come
    after (consumers keep watermarks over _tl_batch). -#}
{% macro derivation_state(settings, rebuild) %}
    {%- set state = {'frontier': none, 'batch': none, 'generation': 0, 'runs_in_generation': 0, 'watermarks': {}, 'state_files': none} -%}
    {% set sql %}
        with runs as (
            select *, {{ tideline.state_file_column() }} as state_file
            from {{ tideline.state_table() }}
            where model = '{{ settings.name }}' and kind in ('run', 'transform')
        )

        select
            kind,
            transform,
            cast(max(watermark) as string) as watermark,
            cast(max(batch) as string) as batch,
            max(generation) as generation,
            count_if(generation = (select max(generation) from runs where kind = 'run')) as runs_in_generation,
            {{ tideline.state_files_sql(settings.name, 'state_file') }} as state_files
        from runs
        group by kind, transform
    {% endset %}
    {%- for row in tideline.query_rows(sql) -%}
        {%- if row[0] == 'run' -%}
            {%- do state.update({'frontier': row[2], 'batch': row[3], 'generation': row[4] | int, 'runs_in_generation': row[5] | int,
                                 'state_files': row[6] | int}) -%}
        {%- else -%}
            {%- do state.watermarks.update({row[1]: row[2]}) -%}
        {%- endif -%}
    {%- endfor -%}
    {%- if rebuild -%}
        {{- return({'frontier': none, 'batch': state.batch, 'generation': state.generation, 'runs_in_generation': 0, 'watermarks': {}, 'state_files': none}) -}}
    {%- endif -%}
    {{- return(state) -}}
{% endmacro %}

{#- What this run writes: its batch (the frontier, or just after the previous batch when the
    frontier did not move, as when a transform added later reads its backlog: every run's rows
    are newer than the last run's, for readers of the newest version and for downstream
    watermarks), the generation it reads and the one it writes (the next one when it compacts, and
    always on a rebuild: rebuild_plan). -#}
{% macro derivation_plan(settings, state, frontier, rebuild) %}
    {%- set f = tideline.shift_time(frontier.frontier, 0) -%}
    {%- set batch = f if state.batch is none or f > tideline.shift_time(state.batch, 0) else tideline.shift_time(state.batch, 0.000001) -%}
    {%- set plan = tideline.rebuild_plan(state.generation) if rebuild
                   else tideline.generation_plan(state.generation, state.runs_in_generation, settings.compact_every) -%}
    {%- do plan.update({'batch': batch}) -%}
    {{- return(plan) -}}
{% endmacro %}

{#- The publish lambda with the document's position added as the first column of each of its
    top-level selects (the position orders what it publishes). -#}
{% macro _with_position(publish_sql, document) %}
    {%- set sql = publish_sql | replace('_tl_document', document) -%}
    {#- walk strings, comments, parentheses and select keywords; a select outside parentheses is top-level -#}
    {%- set tokens = "'(\\\\.|[^'])*'|\"[^\"]*\"|`[^`]*`|--[^\\n]*|/\\*.*?\\*/|\\(|\\)|\\bselect(\\s+distinct)?\\b" -%}
    {%- set walk = namespace(depth=0, inserts=[]) -%}
    {%- for m in modules.re.finditer(tokens, sql, modules.re.S + modules.re.I) -%}
        {%- if m.group(0) == '(' -%}{%- set walk.depth = walk.depth + 1 -%}
        {%- elif m.group(0) == ')' -%}{%- set walk.depth = walk.depth - 1 -%}
        {%- elif m.group(0)[:6] | lower == 'select' and walk.depth == 0 -%}{%- do walk.inserts.append(m.end()) -%}
        {%- endif -%}
    {%- endfor -%}
    {%- set out = namespace(sql=sql) -%}
    {%- for position in walk.inserts | reverse -%}
        {%- set out.sql = out.sql[:position] ~ ' _tl_pos,' ~ out.sql[position:] -%}
    {%- endfor -%}
    {{- return(out.sql) -}}
{% endmacro %}

{#- The columns a publish lambda returns, from Spark's analysis of it over an empty document
    (DESCRIBE QUERY plans it and reads nothing). -#}
{% macro publish_columns(settings, t) %}
    {% set sql %}
        describe query
        with _tl_document as (
            select
                s.*
                {%- if settings.registers %},
                cast(null as {{ tideline.register_struct_type(settings) }}) as _register,
                cast(null as {{ tideline.register_struct_type(settings) }}) as _previous
                {%- endif %}
            from {{ t.source.rendered }} as s
            where false
        )
        {{ t.publish }}
    {% endset %}
    {%- set columns = [] -%}
    {%- for row in tideline.query_rows(sql) if row[0] and not row[0].startswith('#') -%}
        {%- do columns.append([row[0] | lower, tideline.type_name(row[1])]) -%}
    {%- endfor -%}
    {{- return(columns) -}}
{% endmacro %}

{#- The value after folding `update` (a column, null where a document does not update it)
    into `stored` (the value before this run's documents, null for never written) over the
    window `w` (a key's documents in order, up to the current one). -#}
{% macro _fold(spec, stored, update, initial, w, what) %}
    {%- set s = spec.strategy -%}
    {%- set t = spec.type -%}
    {%- if s == 'sum' -%}
        {%- set wide = 'decimal(38,0)' if t in ['tinyint', 'smallint', 'int', 'bigint']
            else ('decimal(38,' ~ (modules.re.findall('\d+', t)[1] if modules.re.findall('\d+', t) | length > 1 else '0') ~ ')' if t.startswith('decimal') else 'double') -%}
        {%- set total -%}
            case when coalesce({{ stored }}, {{ initial }}) is null and sum(cast({{ update }} as {{ wide }})) over {{ w }} is null then null
                else cast(coalesce({{ stored }}, {{ initial }}, 0) as {{ wide }}) + coalesce(sum(cast({{ update }} as {{ wide }})) over {{ w }}, 0) end
        {%- endset -%}
        {{- return(tideline.checked_cast(total, t, 'tideline: ' ~ what ~ ': the sum overflows ' ~ t ~ ': ')) -}}
    {%- elif s in ['min', 'max'] -%}
        {{- return(('least' if s == 'min' else 'greatest') ~ '(coalesce(' ~ stored ~ ', ' ~ initial ~ '), ' ~ s ~ '(' ~ update ~ ') over ' ~ w ~ ')') -}}
    {%- elif s == 'last_write_wins' -%}
        {{- return('coalesce(last(' ~ update ~ ', true) over ' ~ w ~ ', ' ~ stored ~ ')') -}}
    {%- elif s == 'first_write_wins' -%}
        {{- return('coalesce(' ~ stored ~ ', first(' ~ update ~ ', true) over ' ~ w ~ ')') -}}
    {%- elif s in ['append', 'set'] -%}
        {#- never written, no initial value and no update yet: still null (it reads as its initial value) -#}
        {%- set appended -%}
            case when coalesce({{ stored }}, {{ initial }}) is null and count({{ update }}) over {{ w }} = 0 then null
                else concat(coalesce({{ stored }}, {{ initial }}, cast(array() as {{ t }})), flatten(collect_list({{ update }}) over {{ w }})) end
        {%- endset -%}
        {{- return(appended if s == 'append' else 'array_distinct(' ~ appended ~ ')') -}}
    {%- else -%}
        {#- merge: a fold per field of the struct -#}
        {%- set parts = [] -%}
        {%- for f in spec.fields -%}
            {%- set field_initial = tideline._literal((spec.initial_value or {}).get(f[0]) if spec.initial_value is mapping else none, f[1].type) -%}
            {%- do parts.append("'" ~ f[0] ~ "', " ~ tideline._fold(f[1], '(' ~ stored ~ ').' ~ f[0], '(' ~ update ~ ').' ~ f[0], field_initial, w, what ~ '.' ~ f[0])) -%}
        {%- endfor -%}
        {{- return('named_struct(' ~ parts | join(', ') ~ ')') -}}
    {%- endif -%}
{% endmacro %}

{#- What a reader of a register sees: a last/first_write_wins value never written is its
    initial value (the others fold the initial value in). -#}
{% macro _exposed(spec, raw, initial) %}
    {%- if spec.strategy in ['last_write_wins', 'first_write_wins'] -%}
        {{- return('coalesce(' ~ raw ~ ', ' ~ initial ~ ')') -}}
    {%- elif spec.strategy == 'merge' -%}
        {%- set parts = [] -%}
        {%- for f in spec.fields -%}
            {%- set field_initial = tideline._literal(spec.initial_value.get(f[0]) if spec.initial_value is mapping else none, f[1].type) -%}
            {%- do parts.append("'" ~ f[0] ~ "', " ~ tideline._exposed(f[1], '(' ~ raw ~ ').' ~ f[0], field_initial)) -%}
        {%- endfor -%}
        {{- return('named_struct(' ~ parts | join(', ') ~ ')') -}}
    {%- endif -%}
    {{- return('coalesce(' ~ raw ~ ', ' ~ initial ~ ')') -}}
{% endmacro %}

{#- The newest committed version, in the data table's part `part` ('row' or 'register') and
    generation `generation`, of each key (`keys`) that `touched` (a CTE of the run's select)
    holds, or of every key (touched none: a compaction's copy): what a run reads of the stored
    state, only for the keys it touches. -#}
{% macro _newest_stored(data, part, keys, touched, columns, committed, generation) %}
    {% set sql %}
        select {{ columns | join(', ') }}
        from (
            select
                d.*,
                row_number() over (partition by {{ keys | join(', ') }} order by d._tl_batch desc) as _tl_newest
            from {{ data }} as d
            {%- if touched %}
            left semi join (select distinct {{ keys | join(', ') }} from {{ touched }}) as touched
                on {% for k in keys %}d.{{ k }} <=> touched.{{ k }}{{ ' and ' if not loop.last }}{% endfor %}
            {%- endif %}
            where d.tl_part = '{{ part }}' and d.tl_gen = '{{ generation }}' and d._tl_run in ({{ committed }})
        ) as versions
        where _tl_newest = 1
    {% endset %}
    {{- return(sql) -}}
{% endmacro %}

{#- The windows of a fold over each key's documents (`alias`.`keys`) in the order `order`: w up
    to the current document, w_order for numbering, w_key the whole key. -#}
{% macro _key_windows(alias, keys, order) %}
    {%- set partition -%}
        partition by {% for k in keys %}{{ alias }}.{{ k }}{{ ', ' if not loop.last }}{% endfor %}
    {%- endset -%}
    {% set sql %}
        window
            w as ({{ partition }} order by {{ order }} rows between unbounded preceding and current row),
            w_order as ({{ partition }} order by {{ order }}),
            w_key as ({{ partition }})
    {% endset %}
    {{- return(sql) -}}
{% endmacro %}

{#- The run's select: every row it writes to the data table, the derived rows (tl_part 'row')
    and the registers of the keys it updated (tl_part 'register'), for one insert. -#}
{% macro derivation_select_sql(settings, state, frontier, plan, publish_columns, data) %}
    {%- set keys = [] -%}
    {%- for t in settings.key_types -%}{%- do keys.append('_tl_key_' ~ loop.index) -%}{%- endfor -%}
    {%- set ukeys = settings.unique_key -%}
    {%- set derived = settings.derived -%}
    {%- set registers = settings.registers -%}
    {%- set publishers = settings.transforms | selectattr('publish') | list -%}
    {%- set committed = tideline.committed_runs_sql(settings.name) -%}
    with
    {%- for t in settings.transforms %}
    {%- set watermark = state.watermarks.get(t.name) %}
    {%- set at = 's.' ~ t.commit_column ~ ' + interval ' ~ t.delay ~ ' seconds' %}
    src_{{ loop.index0 }} as (
        select
            s.*,
            named_struct(
                'time', {{ 'greatest(' ~ at ~ ', ' ~ tideline.ts(state.frontier) ~ ')' if state.frontier else at }},
                'at', {{ at }},
                'ord', cast({{ 's.' ~ t.order_by if t.order_by else 'null' }} as {{ settings.order_type }}),
                'priority', {{ -(t.priority | int) }},
                'transform', '{{ t.name }}',
                'row', s._tl_row,
                'dup', row_number() over (partition by s._tl_row order by s._tl_row)
            ) as _tl_pos
        from (
            select *, to_json(struct(*)) as _tl_row
            from {{ t.source.rendered }}
            where {{ t.commit_column }} <= {{ tideline.ts(tideline.shift_time(frontier.frontier, -t.delay)) }}
                {%- if watermark %} and {{ t.commit_column }} > {{ tideline.ts(watermark) }}{% endif %}
        ) as s
    ),
    {%- endfor %}
    {%- if registers %}

    -- each document's register key and updates (null: no update of that register)
    docs as (
        {%- for t in settings.transforms %}
        select
            {%- for c in t.shuffle %}
            cast({{ c }} as {{ settings.key_types[loop.index0] }}) as _tl_key_{{ loop.index }},
            {%- endfor %}
            {%- for r in registers %}
            {%- set expression = t.updates.get(r.name) %}
            {{ tideline.checked_cast(expression, r.type, 'tideline: derivation ' ~ settings.name ~ ', transform ' ~ t.name ~ ': the update of register ' ~ r.name ~ ' is not a ' ~ r.type ~ ': ') if expression else 'cast(null as ' ~ r.type ~ ')' }} as _tl_u_{{ r.name }},
            {%- endfor %}
            _tl_pos
        from src_{{ loop.index0 }}
        {{- '\n        union all' if not loop.last }}
        {%- endfor %}
    ),

    -- the stored registers of the keys this run touches (newest committed version)
    stored as (
        {{ tideline._newest_stored(data, 'register', keys, 'docs', keys + ['_register as _tl_stored'], committed, plan.read_gen) }}
    ),

    -- each register after each document: a fold over the key's documents in order
    folded as (
        select
            d.*,
            st._tl_stored,
            {%- for r in registers %}
            {{ tideline._fold(r, 'st._tl_stored.' ~ r.name, 'd._tl_u_' ~ r.name, r.initial, 'w', 'derivation ' ~ settings.name ~ ', register ' ~ r.name) }} as _tl_after_{{ r.name }},
            {%- endfor %}
            row_number() over w_order as _tl_n,
            count(*) over w_key as _tl_count,
            max({% for r in registers %}d._tl_u_{{ r.name }} is not null{{ ' or ' if not loop.last }}{% endfor %}) over w_key as _tl_updated
        from docs as d
        left join stored as st on {% for k in keys %}d.{{ k }} <=> st.{{ k }}{{ ' and ' if not loop.last }}{% endfor %}
        {{ tideline._key_windows('d', keys, 'd._tl_pos') }}
    ),

    -- what a publish lambda sees: the registers after (_register) and before (_previous)
    registered as (
        select
            _tl_pos,
            named_struct(
                {%- for r in registers %}
                '{{ r.name }}', {{ tideline._exposed(r, '_tl_after_' ~ r.name, r.initial) }}{{ ',' if not loop.last }}
                {%- endfor %}
            ) as _register,
            named_struct(
                {%- for r in registers %}
                '{{ r.name }}', case when _tl_n = 1 then {{ tideline._exposed(r, '_tl_stored.' ~ r.name, r.initial) }}
                    else lag({{ tideline._exposed(r, '_tl_after_' ~ r.name, r.initial) }}) over w_order end{{ ',' if not loop.last }}
                {%- endfor %}
            ) as _previous
        from folded
        window w_order as (partition by {{ keys | join(', ') }} order by _tl_pos)
    ),

    register_rows as (
        select
            {{ keys | join(', ') }},
            named_struct({% for r in registers %}'{{ r.name }}', _tl_after_{{ r.name }}{{ ', ' if not loop.last }}{% endfor %}) as _register
        from folded
        where _tl_n = _tl_count and _tl_updated
    ){{ ',' if publishers }}
    {%- endif %}
    {%- for t in publishers %}
    {%- set i = settings.transforms.index(t) %}

    _tl_document_{{ i }} as (
        {%- if registers %}
        select s.*, r._register, r._previous
        from src_{{ i }} as s
        inner join registered as r on s._tl_pos = r._tl_pos
        {%- else %}
        select * from src_{{ i }}
        {%- endif %}
    ),

    published_{{ i }} as (
        {{ tideline._with_position(t.publish, '_tl_document_' ~ i) }}
    ),
    {%- endfor %}
    {%- if publishers %}

    published as (
        {%- for t in publishers %}
        {%- set i = settings.transforms.index(t) %}
        {%- set returned = publish_columns[t.name] | map('first') | list %}
        select
            {%- for c in derived %}
            {{ tideline.checked_cast(c[0], c[1], 'tideline: derivation ' ~ settings.name ~ ', transform ' ~ t.name ~ ': published column ' ~ c[0] ~ ' is not a ' ~ c[1] ~ ': ') if c[0] in returned else 'cast(null as ' ~ c[1] ~ ')' }} as {{ c[0] }},
            {%- endfor %}
            _tl_pos,
            to_json(named_struct({% for c in derived if c[0] in returned %}'{{ c[0] }}', {{ c[0] }}{{ ', ' if not loop.last }}{% endfor %})) as _tl_prow
        from published_{{ i }}
        {{- '\n        union all' if not loop.last }}
        {%- endfor %}
    ),
    {%- if settings.reductions %}

    -- accumulate in the table: the stored rows of the keys published to, and a fold per column
    stored_rows as (
        {{ tideline._newest_stored(data, 'row', ukeys, 'published', derived | map('first') | list, committed, plan.read_gen) }}
    ),

    reduced as (
        select
            {%- for c in derived %}
            {%- if c[0] in ukeys %}
            p.{{ c[0] }},
            {%- elif c[0] in settings.reductions %}
            {{ tideline._fold(settings.reductions[c[0]], 'sr.' ~ c[0], 'p.' ~ c[0], 'null', 'w', 'derivation ' ~ settings.name ~ ', column ' ~ c[0]) }} as {{ c[0] }},
            {%- else %}
            coalesce(last(p.{{ c[0] }}, true) over w, sr.{{ c[0] }}) as {{ c[0] }},
            {%- endif %}
            {%- endfor %}
            row_number() over w_order as _tl_n,
            count(*) over w_key as _tl_count
        from published as p
        left join stored_rows as sr on {% for k in ukeys %}p.{{ k }} <=> sr.{{ k }}{{ ' and ' if not loop.last }}{% endfor %}
        {{ tideline._key_windows('p', ukeys, 'p._tl_pos, p._tl_prow') }}
    ),

    derived_rows as (
        select {{ derived | map('first') | join(', ') }} from reduced where _tl_n = _tl_count
    )
    {%- else %}

    -- the newest published row of each key replaces the stored one
    derived_rows as (
        select {{ derived | map('first') | join(', ') }}
        from (
            select
                *,
                row_number() over (partition by {{ ukeys | join(', ') }} order by _tl_pos desc, _tl_prow desc) as _tl_last
            from published
        ) as last_published
        where _tl_last = 1
    )
    {%- endif %}
    {%- endif %}

    {%- if publishers %}
    select
        {{ derived | map('first') | join(', ') }},
        {%- for k in keys %}
        cast(null as {{ settings.key_types[loop.index0] }}) as {{ k }},
        {%- endfor %}
        {%- if registers %}
        cast(null as {{ tideline.register_struct_type(settings) }}) as _register,
        {%- endif %}
        {{ tideline.ts(plan.batch) }} as _tl_batch,
        '{{ tideline.run_id() }}' as _tl_run,
        'row' as tl_part,
        '{{ plan.write_gen }}' as tl_gen
    from derived_rows
    {%- endif %}
    {%- if registers %}
    {{ 'union all' if publishers }}
    select
        {%- for c in derived %}
        cast(null as {{ c[1] }}) as {{ c[0] }},
        {%- endfor %}
        {{ keys | join(', ') }},
        _register,
        {{ tideline.ts(plan.batch) }},
        '{{ tideline.run_id() }}',
        'register',
        '{{ plan.write_gen }}'
    from register_rows
    {%- endif %}
    {%- if plan.compact %}
    union all
    {{ tideline._compaction_copies(settings, data, plan, committed) }}
    {%- endif %}
{% endmacro %}

{#- A compacting run's copy of the live generation into the next one: the newest committed
    version of every row and register, with its own batch (readers still take this run's new
    versions over them) and this run's id (a run that dies before its commit copied nothing
    anyone reads). -#}
{% macro _compaction_copies(settings, data, plan, committed) %}
    {%- set keys = [] -%}
    {%- for t in settings.key_types -%}{%- do keys.append('_tl_key_' ~ loop.index) -%}{%- endfor -%}
    {%- set derived = settings.derived | map('first') | list -%}
    {% set sql %}
    select
        {%- for c in settings.derived %}
        {{ c[0] }},
        {%- endfor %}
        {%- for k in keys %}
        cast(null as {{ settings.key_types[loop.index0] }}),
        {%- endfor %}
        {%- if settings.registers %}
        cast(null as {{ tideline.register_struct_type(settings) }}),
        {%- endif %}
        _tl_batch, '{{ tideline.run_id() }}', 'row', '{{ plan.write_gen }}'
    from ({{ tideline._newest_stored(data, 'row', settings.unique_key, none, derived + ['_tl_batch'], committed, plan.read_gen) }}) as live_rows
    {%- if settings.registers %}
    union all
    select
        {%- for c in settings.derived %}
        cast(null as {{ c[1] }}),
        {%- endfor %}
        {{ keys | join(', ') }}, _register, _tl_batch, '{{ tideline.run_id() }}', 'register', '{{ plan.write_gen }}'
    from ({{ tideline._newest_stored(data, 'register', keys, none, keys + ['_register', '_tl_batch'], committed, plan.read_gen) }}) as live_registers
    {%- endif %}
    {% endset %}
    {{- return(sql) -}}
{% endmacro %}

{#- The run's steps around the select (called in order by the materialization). -#}

{#- The data table's layout now ('name type'), and whether the table `existing_data` has it. -#}
{% macro derivation_layout(settings) %}
    {%- set layout = [] -%}
    {%- for c in tideline.derivation_data_columns(settings) -%}{%- do layout.append(c[0] ~ ' ' ~ c[1]) -%}{%- endfor -%}
    {{- return(layout) -}}
{% endmacro %}

{#- An incremental run needs the data table it wrote before: registers, derived columns or the
    shuffle key's types changed since then need a rebuild. -#}
{% macro refuse_changed_layout(settings, existing_data) %}
    {%- set wanted = tideline.derivation_layout(settings) -%}
    {%- set found = tideline.data_table_layout(existing_data) -%}
    {%- if found != wanted -%}
        {{ exceptions.raise_compiler_error("tideline: derivation " ~ settings.name ~ ": its registers, derived_columns or shuffle key types changed since "
            ~ existing_data ~ " was built (it has " ~ found | join(', ') ~ "; the model now needs " ~ wanted | join(', ')
            ~ "). Registers cannot be carried over: rebuild with dbt run --full-refresh --select " ~ settings.name) }}
    {%- endif -%}
{% endmacro %}

{#- Each publish lambda's columns, checked against the derived table. -#}
{% macro checked_publish_columns(settings) %}
    {%- set by_transform = {} -%}
    {%- set derived = settings.derived | map('first') | list -%}
    {%- for t in settings.transforms if t.publish -%}
        {%- set columns = tideline.publish_columns(settings, t) -%}
        {%- set names = columns | map('first') | list -%}
        {%- for c in names if c not in derived -%}
            {{ exceptions.raise_compiler_error("tideline: derivation " ~ settings.name ~ ", transform " ~ t.name ~ ": the publish lambda returns column "
                ~ c ~ ", which derived_columns lacks (" ~ derived | join(', ') ~ ")") }}
        {%- endfor -%}
        {%- for k in settings.unique_key if k not in names -%}
            {{ exceptions.raise_compiler_error("tideline: derivation " ~ settings.name ~ ", transform " ~ t.name ~ ": the publish lambda does not return "
                ~ "unique_key column " ~ k ~ " (it returns " ~ names | join(', ') ~ ")") }}
        {%- endfor -%}
        {%- do by_transform.update({t.name: columns}) -%}
    {%- endfor -%}
    {{- return(by_transform) -}}
{% endmacro %}

{% macro create_derivation_table(settings, data) %}
    {%- set defs = [] -%}
    {%- for c in tideline.derivation_data_columns(settings) -%}{%- do defs.append(c[0] ~ ' ' ~ c[1]) -%}{%- endfor -%}
    {% call statement('create_data', fetch_result=false) %}
        create table {{ data }} ({{ defs | join(', ') }}) using {{ tideline.model_file_format(settings.name) }} partitioned by (tl_part, tl_gen)
        {{ tideline.table_properties_sql(tideline.model_file_format(settings.name)) }}
    {% endcall %}
{% endmacro %}

{% macro derivation_run_row(state, frontier, plan, documents) %}
    {{- return({'kind': 'run', 'batch': plan.batch, 'watermark': frontier.frontier, 'lower_limit': state.frontier,
                'upper_limit': frontier.frontier, 'rows_read': documents, 'generation': plan.write_gen}) -}}
{% endmacro %}

{#- One state row per transform: the newest commit time it has processed (its watermark). -#}
{% macro derivation_transform_rows(settings, state, frontier) %}
    {%- set rows = [] -%}
    {%- for t in settings.transforms -%}
        {%- set reached = tideline.shift_time(frontier.frontier, -t.delay) -%}
        {%- set before = state.watermarks.get(t.name) -%}
        {%- do rows.append({'kind': 'transform', 'transform': t.name, 'lower_limit': before, 'upper_limit': reached,
                            'watermark': [before, reached] | max if before else reached, 'rows_read': frontier.documents[t.name]}) -%}
    {%- endfor -%}
    {{- return(rows) -}}
{% endmacro %}

{% macro log_derivation(settings, state, frontier) %}
    {%- set parts = [] -%}
    {%- for t in settings.transforms -%}{%- do parts.append(t.name ~ ' ' ~ frontier.documents[t.name]) -%}{%- endfor -%}
    {{ log("tideline " ~ settings.name ~ ": documents up to " ~ frontier.frontier
        ~ (" (after " ~ state.frontier ~ ")" if state.frontier else " (first run)") ~ ", read " ~ frontier.documents.values() | sum
        ~ " (" ~ parts | join(', ') ~ ")", info=true) }}
{% endmacro %}

{#- Channels (seed 003, FlightStats Hub mutableTime): a time-keyed table of items with a movable
    boundary, mutable_time, between mutable history and stable data. The run is
    macros/materializations/channel.sql; the epoch queries are macros/channel/epochs.sql.

    An item is keyed by (item_time, item_id): item_time a UTC timestamp kept to the
    millisecond, item_id given by a column or the SHA-256 of the item's payload as JSON.
      * Items AFTER mutable_time are stable (IMMUTABLE): real-time items from the model's own
        select, appended in item-time order, never rewritten.
      * Items AT OR BEFORE mutable_time are mutable (MUTABLE): the change relations insert and
        delete them, in any order, from any number of writers.
      * mutable_time only moves earlier. A move first checks the items about to become stable
        (config checks); then they are copied as stable rows in the same insert as the run's
        other rows, so they reach downstream readers once, by the move's commit time.

    Storage: <channel>__tl_items (parquet, partitioned by item_date) holds versions, appended
    by each run with its run id and commit time (_tl_run, _tl_batch), and two flags:
      _tl_stable   the item's one stable row (a real-time item, or the copy a move made);
      _tl_deleted  a mutable item's deletion.
    A mutable item is its newest committed version; a stable item is its stable row, so the
    channel's view (the IMMUTABLE epoch: what ref() of the channel reads) needs no window and
    is pruned by item_date and _tl_batch. The run's state is its tl_state run row:
      batch        the run's commit time (its now): _tl_batch of every row it wrote;
      upper_limit  mutable_time in force after the run (null: the channel has none);
      lower_limit  the newest real-time arrival read (the select is read after it);
      watermark    the change frontier (change rows are applied up to it, in order);
      rows_rejected deletes of items that did not exist (counted and warned, not applied). -#}

{% macro _channel_error(model_name, setting, value, accepted) %}
    {{ exceptions.raise_compiler_error("tideline: channel " ~ model_name ~ ": " ~ setting ~ " = "
        ~ (value | tojson if value is not string else value) ~ " is invalid; accepted: " ~ accepted) }}
{% endmacro %}

{% macro _channel_refusal(model_name, message) %}
    {{ exceptions.raise_compiler_error("tideline: channel " ~ model_name ~ ": " ~ message) }}
{% endmacro %}

{#- The channel's settings, checked before anything is written. -#}
{% macro channel_settings(model_name) %}
    {%- set fail = tideline._channel_error -%}
    {%- set payload = tideline.declared_columns('channel', model_name, 'columns', config.get('columns'), "{'value': 'int', 'text': 'string'}") -%}
    {%- set names = {} -%}
    {%- for setting, default in [['item_time', 'item_time'], ['item_id', none], ['change_time', 'changed_at'], ['arrival_column', none]] -%}
        {%- set value = config.get(setting, default) -%}
        {%- if value is not none and (value is not string or not modules.re.match('^[A-Za-z_][A-Za-z0-9_]*$', value)) -%}
            {{ fail(model_name, setting, value, "a column name (letters, digits, underscores)") }}
        {%- endif -%}
        {%- do names.update({setting: value | lower if value is not none else none}) -%}
    {%- endfor -%}
    {%- for c in payload if c[0] in [names.item_time, names.item_id, names.arrival_column, 'item_date', 'op', names.change_time] -%}
        {{ fail(model_name, 'columns', c[0], "payload columns other than the item time, the item id, the arrival column, item_date, op and the change time") }}
    {%- endfor -%}

    {%- set raw_time = config.get('mutable_time', none) -%}
    {%- set mutable_time = tideline.parse_utc_time(raw_time) if raw_time is not none else none -%}
    {%- if raw_time is not none and mutable_time is none -%}
        {{ fail(model_name, 'mutable_time', raw_time, "a UTC time written YYYY-MM-DD[ HH:MM[:SS[.fff]]] that exists on the calendar") }}
    {%- endif -%}
    {%- if mutable_time is not none and mutable_time > tideline.now() -%}
        {{ fail(model_name, 'mutable_time', raw_time, "a time in the past (now is " ~ tideline.now() ~ " UTC)") }}
    {%- endif -%}
    {%- set retention = config.get('retention_days', none) -%}
    {%- if retention is not none and (retention is string or retention is boolean or retention is not number or (retention | int) != retention or retention < 1) -%}
        {{ fail(model_name, 'retention_days', retention, "an integer >= 1 (days of items kept), or none") }}
    {%- endif -%}
    {%- if retention is not none and raw_time is not none -%}
        {{ tideline._channel_refusal(model_name, "mutable_time and retention_days cannot be combined: a channel with mutable_time keeps its history for good (as the Hub refuses ttlDays and maxItems)") }}
    {%- endif -%}

    {%- set checks = config.get('checks', {}) -%}
    {%- if checks is not mapping -%}
        {{ fail(model_name, 'checks', checks, "a mapping of check name to a SQL condition every item must meet, e.g. {'value_present': 'value is not null'}") }}
    {%- endif -%}
    {%- for name, condition in checks.items() if not modules.re.match('^[A-Za-z_][A-Za-z0-9_]*$', name) or condition is not string or condition | trim == '' -%}
        {{ fail(model_name, 'checks.' ~ name, condition, "names of letters, digits and underscores, each a SQL condition over the item's columns") }}
    {%- endfor -%}

    {%- set raw_changes = config.get('changes', []) -%}
    {%- if raw_changes is string or raw_changes is mapping or raw_changes is not iterable -%}
        {{ fail(model_name, 'changes', raw_changes, "a list of change relations: models or seeds, or 'source_name.table_name'") }}
    {%- endif -%}
    {%- set changes = [] -%}
    {%- for name in raw_changes -%}
        {%- set relation = tideline._input_relation(name) -%}
        {%- set found = adapter.get_relation(database=relation.database, schema=relation.schema, identifier=relation.identifier) -%}
        {%- if found is none -%}
            {{ fail(model_name, 'changes', name, "existing relations (" ~ relation ~ " does not exist)") }}
        {%- endif -%}
        {%- set columns = tideline.cached_columns(found) or (adapter.get_columns_in_relation(found) | map(attribute='name') | map('lower') | list) -%}
        {%- set needed = ['op', names.item_time, names.change_time] + ([names.item_id] if names.item_id else []) + payload | map('first') | list -%}
        {%- set missing = needed | reject('in', columns) | list -%}
        {%- if missing -%}
            {{ fail(model_name, 'changes', name, "relations with the columns op, " ~ names.item_time ~ ", " ~ names.change_time
                ~ (", " ~ names.item_id if names.item_id else "") ~ " and the payload columns (" ~ found ~ " lacks " ~ missing | join(', ') ~ ")") }}
        {%- endif -%}
        {%- do changes.append({'name': name, 'source': {'rendered': found | string}, 'commit_column': names.change_time, 'delay': 0, 'clock': true}) -%}
    {%- endfor -%}
    {{- return({'name': model_name, 'payload': payload, 'item_time': names.item_time, 'item_id': names.item_id,
                'change_time': names.change_time, 'arrival': names.arrival_column or names.item_time, 'mutable_time': mutable_time, 'retention_days': retention,
                'checks': checks, 'changes': changes}) -}}
{% endmacro %}

{% macro channel_items_relation(relation) %}
    {{- return(relation.incorporate(path={'identifier': relation.identifier ~ '__tl_items'}, type='table')) -}}
{% endmacro %}

{#- The channel's committed state (see the top of this file). -#}
{% macro channel_state(settings) %}
    {% set sql %}
        select
            cast(max(batch) as string),
            cast(max_by(upper_limit, batch) as string),
            cast(max_by(lower_limit, batch) as string),
            cast(max(watermark) as string),
            count(*),
            {{ tideline.state_files_sql(settings.name) }}
        from {{ tideline.state_table() }}
        where model = '{{ settings.name }}' and kind = 'run'
    {% endset %}
    {%- set row = tideline.query_rows(sql)[0] -%}
    {%- set watermarks = {} -%}
    {%- for c in settings.changes if row[3] -%}{%- do watermarks.update({c.name: row[3]}) -%}{%- endfor -%}
    {{- return({'last_batch': row[0], 'mutable_time': tideline._millis_text(row[1]), 'realtime_after': row[2],
                'frontier': row[3], 'watermarks': watermarks, 'runs': row[4] | int, 'state_files': row[5] | int}) -}}
{% endmacro %}

{#- 'YYYY-MM-DD HH:MM:SS.ffffff' as the channel writes times: to the millisecond, no zeros. -#}
{% macro _millis_text(text) %}
    {%- if text is none -%}{{ return(none) }}{%- endif -%}
    {%- set millis = (text ~ '.000')[20:23] if '.' in text else '000' -%}
    {{- return(text[:19] ~ ('.' ~ millis if millis != '000' else '')) -}}
{% endmacro %}

{#- An item's key, from a relation's columns: the item time truncated to the millisecond, and
    the given id or the SHA-256 of the payload as JSON. -#}
{% macro _item_key(settings, alias) %}
    timestamp_millis(unix_millis({{ alias }}.{{ settings.item_time }})) as item_time,
    {{ 'cast(' ~ alias ~ '.' ~ settings.item_id ~ ' as string)' if settings.item_id else 'sha2(' ~ tideline._payload_json(settings, alias) ~ ', 256)' }} as item_id
{%- endmacro %}

{#- The mutable items as committed: the newest committed version of each key, unless it is a
    deletion. `where` narrows the versions read (item_date first, so that it prunes). -#}
{% macro channel_mutable_items_sql(items, model_name, where='true') %}
    select * from (
        select
            *,
            row_number() over (partition by item_date, item_time, item_id order by _tl_batch desc) as tl_newest
        from {{ items }}
        where not _tl_stable and _tl_run in ({{ tideline.committed_runs_sql(model_name) }}) and ({{ where }})
    ) as versions
    where tl_newest = 1 and not _tl_deleted
{%- endmacro %}

{#- The stable items: their stable rows of committed runs. -#}
{% macro channel_stable_items_sql(items, model_name, where='true') %}
    select * from {{ items }}
    where _tl_stable and _tl_run in ({{ tideline.committed_runs_sql(model_name) }}) and ({{ where }})
{%- endmacro %}

{#- The channel's view: its stable items (the IMMUTABLE epoch), what ref() of it reads. -#}
{% macro channel_view_sql(settings, items) %}
    select item_time, item_id, {{ settings.payload | map('first') | join(', ') }}, item_date, _tl_batch, _tl_run
    from ({{ tideline.channel_stable_items_sql(items, settings.name) }}) as stable_items
{%- endmacro %}

{#- The empty items table, with the channel's columns. -#}
{% macro create_channel_items(settings, items) %}
    {% call statement('create_items', fetch_result=false) %}
        create table {{ items }} (
            item_time timestamp,
            item_id string,
            {%- for c in settings.payload %}
            {{ c[0] }} {{ c[1] }},
            {%- endfor %}
            _tl_deleted boolean,
            _tl_stable boolean,
            _tl_batch timestamp,
            _tl_run string,
            item_date date
        )
        using {{ tideline.model_file_format(settings.name) }}
        partitioned by (item_date)
        {{ tideline.table_properties_sql(tideline.model_file_format(settings.name)) }}
    {% endcall %}
{% endmacro %}

{#- The boundary this run leaves, and the move it makes (none, or {'from', 'to'}); refuses a
    forward move, the removal of mutable_time, and a first mutable_time on a channel with
    stable items at or before it. -#}
{% macro channel_boundary(settings, items, state) %}
    {%- set wanted = settings.mutable_time -%}
    {%- set current = state.mutable_time -%}
    {%- if state.runs == 0 or (current is none and wanted is none) -%}
        {{ return({'boundary': wanted, 'move': none}) }}
    {%- endif -%}
    {%- if wanted is none -%}
        {{ tideline._channel_refusal(settings.name, "mutable_time " ~ current ~ " cannot be removed; to make every item stable, move it earlier than the earliest item") }}
    {%- endif -%}
    {%- if current is none -%}
        {#- an existing channel given a mutable_time: only if no stable item is at or before it -#}
        {%- set found = tideline.query_rows("select count(*), cast(max(item_time) as string) from ("
            ~ tideline.channel_stable_items_sql(items, settings.name, "item_date <= date'" ~ wanted[:10] ~ "' and item_time <= " ~ tideline.ts(wanted)) ~ ") as s")[0] -%}
        {%- if found[0] | int > 0 -%}
            {{ tideline._channel_refusal(settings.name, "mutable_time = " ~ wanted ~ " would make " ~ found[0] ~ " stable items (up to "
                ~ found[1] ~ ") mutable again, after downstream models have read them; give it a mutable_time before its earliest item") }}
        {%- endif -%}
        {{ return({'boundary': wanted, 'move': none}) }}
    {%- endif -%}
    {%- if wanted > current -%}
        {{ tideline._channel_refusal(settings.name, "mutable_time can only move earlier: " ~ current ~ " to " ~ wanted
            ~ " is a move forward, which would make stable items mutable again") }}
    {%- endif -%}
    {{- return({'boundary': wanted, 'move': {'from': current, 'to': wanted} if wanted < current else none}) -}}
{% endmacro %}

{#- A channel with retention_days (never with mutable_time): drop the item days before it. -#}
{% macro channel_retention(settings, items) %}
    {%- if settings.retention_days is none -%}{{ return(0) }}{%- endif -%}
    {%- set cutoff = (modules.datetime.datetime.strptime(tideline.now()[:10], '%Y-%m-%d') - modules.datetime.timedelta(days=settings.retention_days)).strftime('%Y-%m-%d') -%}
    {%- set format = tideline.model_file_format(settings.name) -%}
    {%- set old = [] -%}
    {%- if format == 'parquet' -%}
        {#- the metastore lists the days without reading a file -#}
        {% set partitions_sql %}
            show partitions {{ items }}
        {% endset %}
        {%- for row in run_query(partitions_sql).rows -%}
            {%- set day = row['partition'].split('=')[1] -%}
            {%- if day < cutoff -%}{%- do old.append(day) -%}{%- endif -%}
        {%- endfor -%}
    {%- else -%}
        {% set days_sql %}
            select distinct cast(item_date as string) as day from {{ items }} where item_date < date'{{ cutoff }}'
        {% endset %}
        {%- for row in run_query(days_sql).rows -%}{%- do old.append(row['day']) -%}{%- endfor -%}
    {%- endif -%}
    {%- do tideline.delete_dates(items, 'item_date', old, format) -%}
    {{- return(old | length) -}}
{% endmacro %}

{#- Mutable time: an item's key (issue 36, item 5). As the Hub gives every write its own key,
    an item written without an id (no item_id configured, or a null one) gets an id of its own
    write: the SHA-256 of the write's identity, written
        <kind>|<writer>|<commit time>|<item time>|<payload as JSON>|<occurrence>
    kind 'realtime' (writer '', commit time the arrival) or 'change' (writer the change
    relation's name as config changes lists it, commit time the change time), the times as UTC
    epoch milliseconds, and the occurrence numbering identical writes of one commit time
    (1, 2, ...). So identical payloads written as separate inserts stay separate items, and a
    rerun or a rebuild, which reads each commit time's writes together, gives them the same ids
    (with change_arrival_column, in the order they were loaded: change_rows.sql).
    A delete names its item by id: a delete without one is a bad change row (bad_changes.sql). -#}

{#- An item's key from a relation `alias`: the item time truncated to the millisecond, and the
    given id or the id of its write. `write`: {kind, writer, at (the commit time's column)}. -#}
{% macro _item_key(settings, alias, write) %}
    timestamp_millis(unix_millis({{ alias }}.{{ settings.item_time }})) as item_time,
    {%- set generated = tideline._write_id_sql(settings, alias, write) %}
    {%- set given = 'cast({}.{} as string)'.format(alias, settings.item_id) if settings.item_id else none %}
    {%- set inserted = "lower({}.op) = 'insert'".format(alias) if write.kind == 'change' else none %}
    {%- if given and inserted %}
    coalesce({{ given }}, case when {{ inserted }} then {{ generated }} end) as item_id
    {%- elif given %}
    coalesce({{ given }}, {{ generated }}) as item_id
    {%- elif inserted %}
    case when {{ inserted }} then {{ generated }} end as item_id
    {%- else %}
    {{ generated }} as item_id
    {%- endif %}
{%- endmacro %}

{#- The id of a write (see above): the occurrence numbers the rows of `alias` alike in commit
    time, item time, payload and (given ids) a null id, in the order of `write.order` (a column:
    the change relations' load time, late_changes.sql) when given. -#}
{% macro _write_id_sql(settings, alias, write) %}
    {%- set at = 'unix_millis({}.{})'.format(alias, write.at) -%}
    {%- set t = 'unix_millis({}.{})'.format(alias, settings.item_time) -%}
    {%- set payload = tideline._payload_json(settings, alias) -%}
    {%- set alike = [at, t, payload] + (['{}.{} is null'.format(alias, settings.item_id)] if settings.item_id else []) -%}
    {% set sql %}
        sha2(concat_ws('|', {{ tideline.literal(write.kind) }}, {{ tideline.literal(write.writer) }},
            cast({{ at }} as string), cast({{ t }} as string), {{ payload }},
            cast(row_number() over (partition by {{ alike | join(', ') }} order by {{ '{}.{}'.format(alias, write.order) if write.get('order') else at }}) as string)), 256)
    {%- endset %}
    {{- return(sql | trim) -}}
{% endmacro %}

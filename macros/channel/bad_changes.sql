{#- Mutable time: change rows a run cannot apply (issue 36, item 6): an op other than insert or
    delete, a delete without the id of its item (item_ids.sql), or an item after the
    mutable_time in force when the row was committed. Each is located by its writer, its item's
    key and its commit time. Per on_bad_rows, the run is refused before anything is written,
    naming the first ('fail', the default), or the other rows are applied and each bad one is
    set aside, once, in <channel>__tl_quarantine with the reason, and counted in the run line
    and the run row's rows_rejected ('quarantine'). So one writer's bad row need not stop every
    writer, and no row is lost without a count. -#}

{#- on_bad_rows of a channel: fail (the default) or quarantine. -#}
{% macro channel_on_bad_rows(model_name) %}
    {{- return(tideline.choice_setting('channel', model_name, 'on_bad_rows', [
        {'value': 'fail', 'means': 'a run with a change row it cannot apply is refused before anything is written, naming the first by its writer, key and commit time'},
        {'value': 'quarantine', 'means': 'the other change rows are applied, and each bad one is set aside once in <channel>__tl_quarantine with the reason and counted'}])) -}}
{% endmacro %}

{#- A change row's location as the decide query reports it (judged_ops' columns). -#}
{% macro _change_location() %}
    {{- return("named_struct('writer', writer, 'item_time', cast(item_time as string), 'item_id', item_id, 'changed_at', cast(changed_at as string), 'op', op, 'in_force', cast(in_force as string))") -}}
{% endmacro %}

{#- That location as text: the writer (the change relation), the item's key, the commit time, the op
    (to_json leaves out a null id or op). -#}
{% macro _change_located(settings, location) %}
    {{- return("writer {}, item {} {}, committed {}, op {}".format(settings.changes[location.writer | int].name, location.item_time,
        location.get('item_id') or '(no id)', location.changed_at, tideline.shown(location.get('op')))) -}}
{% endmacro %}

{#- Under on_bad_rows='quarantine', each writer's bad change rows of this run, as they are in its
    relation, set aside in the quarantine (quarantine_rows: each once, with the writer as its feed
    and the reason). Nothing is sent when the run found none. -#}
{% macro quarantine_bad_changes(settings, state, frontier, limits, view, run) %}
    {%- if settings.on_bad_rows != 'quarantine' or run.rejected == 0 -%}{{ return(none) }}{%- endif -%}
    {%- set ct = 'c.{}'.format(settings.change_time) -%}
    {%- set bad_op = "(lower(c.op) not in ('insert', 'delete') or c.op is null)" -%}
    {%- set in_force = tideline.channel_boundary_at_sql(limits.history, limits.changes, ct) -%}
    {%- set item_time = 'timestamp_millis(unix_millis(c.{}))'.format(settings.item_time) -%}
    {%- set no_id = "(lower(c.op) = 'delete'{})".format(' and c.{} is null'.format(settings.item_id) if settings.item_id else '') -%}
    {%- set reasons = [{'text': 'an op other than insert or delete', 'where': bad_op},
                       {'text': 'a delete without the id of its item', 'where': 'not {} and {}'.format(bad_op, no_id)},
                       {'text': 'an item after the mutable_time in force when it was committed',
                        'where': 'not {} and not {} and (({}) is null or {} > ({}))'.format(bad_op, no_id, in_force, item_time, in_force)}] -%}
    {%- for c in settings.changes -%}
        {%- for reason in reasons -%}
            {% set bad_sql %}
                select c.* from {{ c.source.rendered }} as c
                where {{ ct }} <= {{ tideline.ts(frontier) }}
                    {%- if state.frontier %} and {{ ct }} > {{ tideline.ts(state.frontier) }}{% endif %}
                    and {{ reason.where }}
            {% endset %}
            {%- do tideline.quarantine_rows(settings.name, view, c.name, reason.text, bad_sql) -%}
        {%- endfor -%}
    {%- endfor -%}
{% endmacro %}

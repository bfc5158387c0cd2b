{#- Derivations: transforms over the derivation's own documents (source=tideline.own_documents(),
    Flow's self-referencing and cyclic derivations): their settings, and their documents as a
    CTE of the run's select. The passes that find them are own_document_passes.sql. -#}

{#- A transform over tideline.own_documents(): its columns are derived_columns; its documents take
    their time from the document that published them (plus its read delay), so it has no commit
    column and no clock of its own. -#}
{% macro _check_own_documents_transform(model_name, t, derived) %}
    {%- set types = {} -%}
    {%- for c in derived -%}{%- do types.update({c[0]: c[1]}) -%}{%- endfor -%}
    {%- set listed = types.keys() | join(', ') -%}
    {%- do t.update({'relation': none, 'types': types}) -%}
    {%- if t.commit_column != '_tl_batch' -%}
        {{ tideline._derivation_error(model_name, 'commit_column', t.commit_column,
            "none: a document the derivation publishes is read at the time of the document that published it", t.name) }}
    {%- endif -%}
    {%- if t.clock -%}
        {{ tideline._derivation_error(model_name, 'clock', t.clock, "false: the derivation's own documents have no writer's clock", t.name) }}
    {%- endif -%}
    {%- if t.order_by is not none and (t.order_by | lower) not in types -%}
        {{ tideline._derivation_error(model_name, 'order_by', t.order_by, "a column of derived_columns ({})".format(listed), t.name) }}
    {%- endif -%}
    {%- for c in t.shuffle if c not in types -%}
        {{ tideline._derivation_error(model_name, 'shuffle', t.shuffle, "columns of derived_columns ({}): the derivation's own documents".format(listed), t.name) }}
    {%- endfor -%}
{% endmacro %}

{#- max_passes (config, default 10): how many passes a run makes to find the documents a
    derivation publishes to itself before it refuses to go on. -#}
{% macro _max_passes_setting(model_name, transforms) %}
    {%- set value = config.get('max_passes', 10) -%}
    {%- if value is not number or value is boolean or (value | int) != value or value < 2 -%}
        {{ tideline._derivation_error(model_name, 'max_passes', value,
            "an integer >= 2: the passes a run makes over the documents the derivation publishes to its own transforms") }}
    {%- endif -%}
    {%- if config.get('max_passes') is not none and not (transforms | selectattr('own') | list) -%}
        {{ tideline._derivation_error(model_name, 'max_passes', value, "no setting: no transform reads tideline.own_documents()") }}
    {%- endif -%}
    {{- return(value | int) -}}
{% endmacro %}

{#- What a transform's documents are read from: its source, or for a transform over its own
    documents an empty relation of derived_columns (to plan its lambdas against). -#}
{% macro _transform_relation(settings, t) %}
    {%- if not t.own -%}{{- return(t.source.rendered) -}}{%- endif -%}
    {%- set columns = [] -%}
    {%- for name, type in t.types.items() -%}{%- do columns.append('cast(null as {}) as `{}`'.format(type, name)) -%}{%- endfor -%}
    {{- return('(select {} where false)'.format(columns | join(', '))) -}}
{% endmacro %}

{#- src_<i> of a transform over the derivation's own documents: every row the previous pass
    published (`own`, a pass's table; none: no rows), each one step deeper than the document that
    published it and at its time + the transform's read delay, ordered after the other documents
    of that time and depth by the position of the document that published it, then by its values
    (document_order.sql). With a read delay, those whose time is after the run's frontier wait
    (held_documents.sql) and `held`, those earlier runs held until this one, join them. -#}
{% macro _own_documents_cte(settings, t, i, own, frontier, held) %}
    {%- set delay = ' + interval {} seconds'.format(t.delay) if t.delay else '' %}
    src_{{ i }} as (
        select
            {%- for name in t.types %}
            s.`{{ name }}`,
            {%- endfor %}
            s._tl_row,
            named_struct(
                'time', s._tl_trigger.time{{ delay }},
                'depth', s._tl_trigger.depth + 1,
                'at', s._tl_trigger.at{{ delay }},
                'ord', cast({% if t.order_by %}s.{{ t.order_by }}{% else %}null{% endif %} as {{ settings.order_type }}),
                'priority', {{ -(t.priority | int) }},
                'transform', '{{ t.name }}',
                'row', dense_rank() over (partition by s._tl_trigger.time order by s._tl_trigger, {{ tideline._document_value_order(t, 's') | join(', ') }}),
                'dup', row_number() over (partition by s._tl_trigger, s._tl_row order by s._tl_row)
            ) as _tl_pos
        from (
            {%- if own %}
            select {% for name in t.types %}`{{ name }}`, {% endfor %}_tl_prow as _tl_row, _tl_pos as _tl_trigger
            from {{ own }}
            {%- if t.delay %}
            where _tl_pos.time{{ delay }} <= {{ tideline.ts(frontier.frontier) }}
            {%- endif %}
            {%- else %}
            select *, cast(null as string) as _tl_row, cast(null as {{ tideline.document_position_type(settings) }}) as _tl_trigger
            from {{ tideline._transform_relation(settings, t) }}
            {%- endif %}
            {%- if held %}
            union all
            {{ held }}
            {%- endif %}
        ) as s
    ),
{%- endmacro %}

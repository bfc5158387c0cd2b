{#- The recounts behind the watermark that a model's last runs recorded (behind_watermark.sql), read
    in the model's state query. -#}

{#- Each feed's recount, as recorded by the model's newest committed run that recorded one, from
    its state rows of `kind` ('transform' of a derivation, 'input' of a continual task or a
    channel): a scalar subquery giving them as JSON, for a column of the model's state query (so
    no statement of its own); recorded_recounts reads it. `lookback`: whether the model recounts
    at all (its late_row_lookback; a channel's only with changes): without one, a null column
    and no read of the state. -#}
{% macro recorded_recounts_sql(model_name, kind, lookback) %}
    {%- if not lookback -%}
        {{- return('cast(null as string)') -}}
    {%- endif -%}
    {% set sql %}
        (
            select to_json(collect_list(named_struct(
                'feed', feed, 'watermark', watermark, 'recount_from', recount_from, 'recount_rows', recount_rows, 'read_at', read_at)))
            from (
                select
                    transform as feed,
                    cast(max_by(watermark, batch) as string) as watermark,
                    cast(max_by(recount_from, batch) as string) as recount_from,
                    max_by(recount_rows, batch) as recount_rows,
                    cast(max_by(committed_at, batch) as string) as read_at
                from {{ tideline.state_table() }}
                where model = '{{ model_name }}' and kind = '{{ kind }}' and recount_rows is not null
                group by transform
            ) as recorded
        )
    {% endset %}
    {{- return(sql) -}}
{% endmacro %}

{#- The recorded recounts from recorded_recounts_sql's JSON: {feed: {watermark, recount_from,
    recount_rows, read_at (that run's commit time, by the clock)}}; {} for none. -#}
{% macro recorded_recounts(recorded_json) %}
    {%- set recorded = {} -%}
    {%- for r in fromjson(recorded_json or '[]') -%}
        {#- to_json leaves a null field out -#}
        {%- do recorded.update({r.feed: {'watermark': r.get('watermark'), 'recount_from': r.get('recount_from'), 'recount_rows': r.recount_rows | int,
                                     'read_at': r.get('read_at')}}) -%}
    {%- endfor -%}
    {{- return(recorded) -}}
{% endmacro %}

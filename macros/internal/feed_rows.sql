{#- A run's state rows of its feeds (behind_watermark.sql). -#}

{#- One state row per feed of a continual task or a channel (kind 'input', committed with the
    run's last commit): the watermark it was read up to and its recount behind it
    (feed_recount_columns), which the next run compares. A derivation's transform rows carry
    the same columns (derivation_transform_rows). -#}
{% macro input_state_rows(feeds, watermark, frontier, lookback) %}
    {%- set rows = [] -%}
    {%- for f in feeds -%}
        {%- set row = {'kind': 'input', 'transform': f.name, 'watermark': watermark, 'rows_read': frontier.documents.get(f.name, 0)} -%}
        {%- do row.update(tideline.feed_recount_columns(f, watermark, frontier, lookback)) -%}
        {%- do rows.append(row) -%}
    {%- endfor -%}
    {{- return(rows) -}}
{% endmacro %}

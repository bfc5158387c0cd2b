{#- Where the rows found behind a watermark are (behind_watermark.sql counts them): the source's
    rows in the recounted range that were written after the run that read up to the watermark
    committed (read_at, by the clock), found by the source's format (rows_written_after). The
    count says how many arrived; these say which, by key and commit time. A row written while
    that run ran, between its read and its commit, is counted but not located. -#}

{#- The located rows, shown in messages: at most this many, then the count. -#}
{% macro located_rows_shown() %}
    {{- return(10) -}}
{% endmacro %}

{#- The rows of `feed`'s source behind its watermark that arrived after the read (`found`: its
    entry of behind_watermark_found), whole: rows_written_after's {'sql', 'why'}. -#}
{% macro behind_watermark_rows_sql(feed, found) %}
    {%- if feed.get('relation') is none or not found.read_at -%}
        {{- return({'sql': none, 'why': 'no table or no time of the read recorded'}) -}}
    {%- endif -%}
    {% set in_range %}
        {{ feed.commit_column }} > {{ tideline.ts(found.recount_from) }} and {{ feed.commit_column }} <= {{ tideline.ts(found.watermark) }}
    {% endset %}
    {{- return(tideline.rows_written_after(feed.relation, found.read_at, in_range | trim)) -}}
{% endmacro %}

{#- Each entry of `found` ({feed: {rows, ...}}) with the rows located: 'located' (each row's
    key_columns, or the whole row when its feed has none, as JSON, and its commit time; at most
    located_rows_shown()), 'located_rows' (how many in all) and 'rows_sql' (the select of them
    all, for the quarantine), or 'not_located' (why). One query
    per feed found, only when rows were found. -#}
{% macro located_behind_watermark(feeds, found) %}
    {%- for feed in feeds if feed.name in found -%}
        {%- set entry = found[feed.name] -%}
        {%- set written = tideline.behind_watermark_rows_sql(feed, entry) -%}
        {%- set rows_sql = written.sql -%}
        {%- if rows_sql is none -%}
            {%- do entry.update({'not_located': written.why}) -%}
        {%- else -%}
            {%- set keys = feed.get('key_columns') or [] -%}
            {% set sql %}
                select
                    {% if keys -%}
                    to_json(named_struct({% for k in keys %}'{{ k }}', `{{ k }}`{{ ', ' if not loop.last }}{% endfor %}))
                    {%- else -%}
                    to_json(struct(*))
                    {%- endif %} as located_key,
                    cast({{ feed.commit_column }} as string) as committed,
                    count(*) over () as located_rows
                from ({{ rows_sql }}) as located
                order by committed, located_key
                limit {{ tideline.located_rows_shown() }}
            {% endset %}
            {%- set located = [] -%}
            {%- set total = {'rows': 0} -%}
            {%- for row in tideline.query_rows(sql) -%}
                {%- do located.append('{} at {}'.format(row.located_key, row.committed)) -%}
                {%- do total.update({'rows': row.located_rows | int}) -%}
            {%- endfor -%}
            {%- do entry.update({'located': located, 'located_rows': total.rows, 'rows_sql': rows_sql}) -%}
        {%- endif -%}
    {%- endfor -%}
    {{- return(found) -}}
{% endmacro %}

{#- Where a finding's rows are (located_behind_watermark): 'written since that run read: <key> at
    <commit time>, ...', or why they cannot be located. -#}
{% macro behind_watermark_location(b) %}
    {%- if b.get('not_located') -%}{{ return('not located: {}'.format(b.not_located)) }}{%- endif -%}
    {%- set more = b.located_rows - b.located | length -%}
    {{- return('written since that run read: {}{}'.format(b.located | join(', ') if b.located else 'none found',
                                                          ' and {} more'.format(more) if more > 0 else '')) -}}
{% endmacro %}

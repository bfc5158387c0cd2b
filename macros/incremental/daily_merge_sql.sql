{#- Daily aggregates, merge path: the SQL of its parts (see daily_merge.sql). -#}

{#- The rows of the parts table `data` that committed runs wrote (`runs_sql`), merged: one row
    per key (every column of the select that is not a measure), each measure merged by its
    kind, in the select's column order, with the newest batch as _tl_batch. `where`: a
    predicate on the parts (dates); `run`: the run the merged rows are tagged with (_tl_run),
    for a compaction. -#}
{% macro merged_parts_sql(data, columns, measures, runs_sql, where='true', run=none) %}
    {%- set merges = tideline.measure_merges() -%}
    {%- set keys = columns | map(attribute='name') | reject('in', measures) | list -%}
    {% set sql %}
        select
            {%- for c in columns %}
            {% if c.name in measures %}{{ merges[measures[c.name]] }}({{ c.name }}) as {{ c.name }}{% else %}{{ c.name }}{% endif %},
            {%- endfor %}
            max(_tl_batch) as _tl_batch
            {%- if run %},
            '{{ run }}' as _tl_run
            {%- endif %}
        from {{ data }}
        where _tl_run in ({{ runs_sql }})
            and {{ where }}
        group by {{ keys | join(', ') }}
    {% endset %}
    {{- return(sql) -}}
{% endmacro %}

{#- Which filtered events a run's partial aggregate reads: of each processed date, the rows
    committed after the batch the date was last processed at (all of them for a date never
    processed), up to the batch the run reads up to. When every date was processed before, the
    oldest of those batches bounds them all too: a predicate Spark pushes into the files' column
    statistics, so that the files of older batches are skipped unread. -#}
{% macro new_rows_of_dates_sql(dates, reads_up_to) %}
    {%- set batches = dates | map(attribute='processed_batch') | list -%}
    {% set sql %}
        event_date in {{ tideline.date_list(dates | map(attribute='event_date') | list) }}
        and _tl_batch <= {{ tideline.ts(reads_up_to) }}
        {%- if none not in batches %}
        and _tl_batch > {{ tideline.ts(batches | min) }}
        {%- endif %}
        and (
            {%- for d in dates %}
            {{ 'or ' if not loop.first }}(event_date = date'{{ d.event_date }}' {%- if d.processed_batch %} and _tl_batch > {{ tideline.ts(d.processed_batch) }}{% endif %})
            {%- endfor %}
        )
    {% endset %}
    {{- return(sql | trim) -}}
{% endmacro %}

{#- Which first copies of the source a run's part over source_events() counts: of each processed
    date, those loaded after the batch the date was last processed at (all of them for a date
    never processed). -#}
{% macro new_source_rows_of_dates_sql(dates) %}
    {% set sql %}
        to_date(derived_tstamp) in {{ tideline.date_list(dates | map(attribute='event_date') | list) }}
        and (
            {%- for d in dates %}
            {{ 'or ' if not loop.first }}(to_date(derived_tstamp) = date'{{ d.event_date }}' {%- if d.processed_batch %} and load_tstamp > {{ tideline.ts(d.processed_batch) }}{% endif %})
            {%- endfor %}
        )
    {% endset %}
    {{- return(sql | trim) -}}
{% endmacro %}

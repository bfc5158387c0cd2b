{#- What a run does with rows found committed behind a feed's watermark (behind_watermark.sql),
    per on_bad_rows: counted in its line and state (warn), refused (fail), or listed (quarantine). -#}

{#- Each finding as '<feed> <n> (<source>.<column> in (<from>, <to>]: <then> rows when read, <now>
    now; <where they are>)'. -#}
{% macro behind_watermark_text(feeds, frontier) %}
    {%- set found = [] -%}
    {%- for f in feeds if f.name in frontier.behind -%}
        {%- set b = frontier.behind[f.name] -%}
        {%- do found.append('{} {} ({}.{} in ({}, {}]: {} rows when read, {} now; {})'.format(
            f.name, b.rows, f.source.rendered, f.commit_column, b.recount_from, b.watermark, b.then, b.now,
            tideline.behind_watermark_location(b))) -%}
    {%- endfor -%}
    {{- return(found) -}}
{% endmacro %}

{#- The run line's warning (nothing when none were found). -#}
{% macro behind_watermark_warning(feeds, frontier) %}
    {%- set found = tideline.behind_watermark_text(feeds, frontier) -%}
    {{- return(", WARNING: source rows committed behind the watermark (never read): {}".format(found | join(', ')) if found else '') -}}
{% endmacro %}

{#- Under on_bad_rows='fail', a run that found any is refused before anything is written. The
    recount is against the last committed run's, so every rerun refuses until the rows are
    dealt with. The way on is 'warn', or for a channel (which has no 'warn') 'quarantine'. -#}
{% macro refuse_rows_behind_watermark(kind, settings, feeds, frontier) %}
    {%- if settings.on_bad_rows != 'fail' or not frontier.behind -%}{{ return(none) }}{%- endif -%}
    {%- set instead = "on_bad_rows='quarantine' to list them and go on" if kind == 'channel' else "on_bad_rows='warn' to count them and go on" -%}
    {{ exceptions.raise_compiler_error("tideline: {} {}: on_bad_rows = fail and its sources hold rows committed behind the watermark since the last run read them, which no run reads: {}. Give them a commit time after the watermark so that the next run reads them, or rebuild with --full-refresh, which reads every row, or set {}".format(
        kind, settings.name, tideline.behind_watermark_text(feeds, frontier) | join('; '), instead)) }}
{% endmacro %}

{#- Under on_bad_rows='quarantine', the rows of each finding, each whole as JSON, with the feed and
    the reason; where they cannot be located (behind_watermark_rows_sql), one row per finding
    instead: the range recounted, the rows then and now. A rerun finds the same and lists
    nothing twice. -#}
{% macro quarantine_rows_behind_watermark(settings, feeds, frontier, view) %}
    {%- if settings.on_bad_rows != 'quarantine' -%}{{ return(none) }}{%- endif -%}
    {%- for f in feeds if f.name in frontier.behind -%}
        {%- set b = frontier.behind[f.name] -%}
        {% set range_sql %}
            select {{ tideline.ts(b.recount_from) }} as after, {{ tideline.ts(b.watermark) }} as up_to,
                {{ b.then }} as rows_when_read, {{ b.now }} as rows_now
        {% endset %}
        {%- set found_sql = b.rows_sql if b.get('located_rows') else range_sql -%}
        {%- do tideline.quarantine_rows(settings.name, view, tideline.found_rows_sql(f.name,
            '{} row(s) committed behind the watermark ({}.{}): no run reads them'.format(b.rows, f.source.rendered, f.commit_column), found_sql)) -%}
    {%- endfor -%}
{% endmacro %}

{#- on_bad_rows='quarantine': which rows a derivation or a continual task sets aside in its
    quarantine (quarantine.sql). -#}

{#- Under on_bad_rows='quarantine', each feed's source rows without a commit time (the frontier
    query's count, `unplaced`; nothing is sent when it is 0) that the quarantine table does not
    hold yet. They stay in the source (tideline does not own it) and no run reads them: the
    quarantine is where they are listed, with their feed, the reason and the run that found
    them. -#}
{% macro quarantine_unplaced_rows(settings, feeds, frontier, view) %}
    {%- if settings.on_bad_rows != 'quarantine' -%}{{ return(none) }}{%- endif -%}
    {%- for f in feeds if frontier.unplaced.get(f.name, 0) > 0 -%}
        {% set bad_sql %}
            select * from {{ f.source.rendered }} where {{ f.commit_column }} is null
        {% endset %}
        {%- do tideline.quarantine_rows(settings.name, view, tideline.found_rows_sql(f.name,
            'no commit time ({}.{} is null): no run reads it'.format(f.source.rendered, f.commit_column), bad_sql)) -%}
    {%- endfor -%}
{% endmacro %}

{#- Under on_bad_rows='quarantine', the rows this run published under a unique_key with a null
    (null_key_rows; `null_keys` their count, nothing is sent when 0), recorded with their commit
    time: they stay in the derivation, reduced under that key as with 'warn', and each version
    is listed in the quarantine once. -#}
{% macro quarantine_null_keys(settings, data, plan, null_keys, view) %}
    {%- if settings.on_bad_rows != 'quarantine' or null_keys == 0 -%}{{ return(none) }}{%- endif -%}
    {% set bad_sql %}
        select {{ settings.derived | map('first') | join(', ') }}, _tl_batch
        from {{ data }}
        where {{ tideline.null_key_rows(settings, plan) }}
    {% endset %}
    {%- do tideline.quarantine_rows(settings.name, view, tideline.found_rows_sql('publish',
        'a null in the unique_key ({})'.format(settings.unique_key | join(', ')), bad_sql)) -%}
{% endmacro %}

{#- on_bad_rows: what a derivation or a continual task does with rows it cannot place. -#}

{#- on_bad_rows: 'warn' (the default: every run counts them in its line and its state rows and
    goes on; a source row without a commit time is never read, a derivation's row under a null
    unique_key is kept under that key) or 'fail' (a run that finds any refuses, naming them, before
    it commits; source rows without a commit time before it writes anything) or 'quarantine' (as
    'warn', and each such row is listed once in the model's quarantine table with the reason:
    quarantine.sql). Anything else is refused. -#}
{% macro on_bad_rows_setting(kind, model_name) %}
    {{- return(tideline.choice_setting(kind, model_name, 'on_bad_rows', [
        {'value': 'warn', 'means': 'bad rows are counted in the run line and the state, and the run goes on'},
        {'value': 'fail', 'means': 'a run that finds a bad row is refused, naming it'},
        {'value': 'quarantine', 'means': 'as warn, and each bad row is listed once in the table <model>__tl_quarantine with the reason'}])) -}}
{% endmacro %}

{#- Under on_bad_rows='fail', a run whose sources hold rows without a commit time (the frontier
    query's count, `unplaced`) is refused before anything is written, naming each feed, its
    count and the first such rows as they are (one query, only then). -#}
{% macro refuse_unplaced_rows(kind, settings, feeds, frontier) %}
    {%- if settings.on_bad_rows != 'fail' or not (frontier.unplaced.values() | sum) -%}{{ return(none) }}{%- endif -%}
    {%- set found = [] -%}
    {%- for f in feeds if frontier.unplaced.get(f.name, 0) > 0 -%}
        {%- do found.append('{} {} ({}.{} is null; first: {})'.format(f.name, frontier.unplaced[f.name], f.source.rendered, f.commit_column,
                                                                     tideline.first_rows_where(f.source.rendered, '{} is null'.format(f.commit_column)) | join(', '))) -%}
    {%- endfor -%}
    {{ exceptions.raise_compiler_error("tideline: {} {}: on_bad_rows = fail and its sources hold rows without a commit time, which no run reads: {}. Give them a commit time, or set on_bad_rows='warn' to count them in every run and go on".format(
        kind, settings.name, found | join('; '))) }}
{% endmacro %}

{#- Up to `limit` rows of `relation` where `condition` holds, each as JSON (to_json of the row,
    or of `columns` when given), in a stable order: to locate bad rows in a refusal. -#}
{% macro first_rows_where(relation, condition, columns=['*'], limit=3) %}
    {% set sql %}
        select to_json(struct({{ columns | join(', ') }})) as found
        from {{ relation }}
        where {{ condition }}
        order by found
        limit {{ limit }}
    {% endset %}
    {{- return(tideline.query_rows(sql) | map(attribute='found') | list) -}}
{% endmacro %}

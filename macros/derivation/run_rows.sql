{#- Derivations: a run's state rows and its line in the log. -#}

{% macro derivation_run_row(settings, state, frontier, plan, documents, null_keys=0) %}
    {{- return({'kind': 'run', 'batch': plan.batch, 'watermark': frontier.frontier, 'lower_limit': state.frontier,
                'upper_limit': frontier.frontier, 'rows_read': documents, 'generation': plan.write_gen, 'rows_rejected': null_keys,
                'rows_without_load_time': frontier.unplaced.values() | sum, 'definition': tideline.definition_text(settings.definition),
                'rows_behind_watermark': frontier.behind.values() | sum(attribute='rows')}) -}}
{% endmacro %}

{#- One state row per transform: the newest commit time it has processed (its watermark) and its
    recount behind it (feed_recount_columns). -#}
{% macro derivation_transform_rows(settings, state, frontier) %}
    {%- set rows = [] -%}
    {%- for t in settings.feeds -%}
        {%- set reached = tideline.shift_time(frontier.frontier, -t.delay) -%}
        {%- set before = state.watermarks.get(t.name) -%}
        {%- set watermark = [before, reached] | max if before else reached -%}
        {%- set row = {'kind': 'transform', 'transform': t.name, 'lower_limit': before, 'upper_limit': reached,
                       'watermark': watermark, 'rows_read': frontier.documents[t.name],
                       'rows_without_load_time': frontier.unplaced.get(t.name, 0)} -%}
        {%- do row.update(tideline.feed_recount_columns(t, watermark, frontier, settings.late_row_lookback)) -%}
        {%- do rows.append(row) -%}
    {%- endfor -%}
    {{- return(rows) -}}
{% endmacro %}

{#- The run line: documents read per transform (and the derivation's own documents, with the
    passes that found them), a warning naming each transform's source rows
    without a commit time (never read: unplaced_rows_warning), and one with the count of
    rows written under a unique_key with a null (null_keys_warning). -#}
{% macro log_derivation(settings, state, frontier, null_keys=0, passes={}, released={}) %}
    {%- set parts = [] -%}
    {%- for t in settings.feeds -%}{%- do parts.append('{} {}'.format(t.name, frontier.documents[t.name])) -%}{%- endfor -%}
    {%- if passes.get('passes') -%}
        {%- do parts.append('own documents {} in {} passes'.format(passes.documents, passes.passes)) -%}
    {%- endif -%}
    {%- if released.values() | sum -%}
        {%- do parts.append('{} held by a read delay until this run'.format(released.values() | sum)) -%}
    {%- endif -%}
    {%- set since = " (after {})".format(state.frontier) if state.frontier else " (first run)" -%}
    {{ log("tideline {}: documents up to {}{}, read {} ({}){}{}{}".format(settings.name, frontier.frontier, since, (frontier.documents.values() | sum) + (released.values() | sum),
        parts | join(', '), tideline.unplaced_rows_warning(settings.feeds, frontier), tideline.behind_watermark_warning(settings.feeds, frontier),
        tideline.null_keys_warning(settings, null_keys)), info=true) }}
{% endmacro %}

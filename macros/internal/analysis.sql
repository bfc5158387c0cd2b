{#- Spark's analysis of a statement before anything is written. `explain` plans a statement
    and, where its analysis fails (a column or function that does not resolve, a cast Spark
    cannot make, a missing group by), returns the exception's text as the plan instead of
    raising it: a caller can refuse the statement naming its model and setting, where the
    statement itself would have failed with Spark's words alone, after earlier statements had
    written. A syntax error is still raised by Spark's parser, before the plan. -#}

{#- Spark's reason why `sql` (a query) cannot be planned, on one line without the plan and the
    position (none when it plans). One `explain`; nothing is read. -#}
{% macro analysis_error(sql) %}
    {%- set plan = tideline.query_rows('explain {}'.format(sql))[0].plan -%}
    {%- set found = modules.re.match('^== Physical Plan ==\\s*[A-Za-z0-9_.$]*Exception: (.*)$', plan, modules.re.S) -%}
    {%- if not found -%}{{ return(none) }}{%- endif -%}
    {%- set reason = found.group(1).split(';\n')[0] -%}
    {%- set reason = modules.re.sub('; line [0-9]+ pos [0-9]+.*$', '', reason, flags=modules.re.S) -%}
    {{- return(modules.re.sub('\\s+', ' ', reason) | trim) -}}
{% endmacro %}

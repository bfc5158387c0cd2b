{#- Validated access to tideline's vars. Each accessor fails at compile time naming the var,
    the value given and what is accepted; `validate_vars` (an on-run-start hook) checks them all
    before any node runs, so a bad value writes nothing. -#}

{#- The defaults, in one place. They live here and not in dbt_project.yml because a project
    that installs tideline as a package does not see the package's vars in its own models
    (its daily aggregates call these accessors too); set any of them with --vars or in your
    dbt_project.yml. -#}
{% macro default_vars() %}
    {{- return({
        'tideline__start_date': '2025-01-01',
        'tideline__backfill_limit_days': 30,
        'tideline__reprocess_days': 7,
        'tideline__min_rows_to_process': 1,
        'tideline__dedupe_lookback_days': 3,
        'tideline__app_id': [],
        'tideline__events_to_include': [],
        'tideline__attribute_key': 'domain_userid',
        'tideline__now': none,
        'tideline__backfill_dates': none,
        'tideline__run_lock_minutes': 120,
        'tideline__compact_every': 24,
        'tideline__include_current_day': true,
        'tideline__attributes_as_of': none,
        'tideline__state_file_format': env_var('TIDELINE_FILE_FORMAT', 'delta'),
        'tideline__iceberg_catalog': 'tideline_iceberg',
    }) -}}
{% endmacro %}

{% macro tl_var(name) %}
    {{- return(var(name, tideline.default_vars()[name])) -}}
{% endmacro %}

{% macro _var_error(name, value, accepted) %}
    {{ exceptions.raise_compiler_error("tideline: var " ~ name ~ " = " ~ (value | tojson) ~ " is invalid; accepted: " ~ accepted) }}
{% endmacro %}

{% macro var_date(name) %}
    {%- set value = tideline.tl_var(name) -%}
    {%- set text = value | string -%}
    {%- set m = modules.re.match('^(\d{4})-(\d{2})-(\d{2})$', text) -%}
    {%- if not m or not tideline._is_calendar_date(m.group(1) | int, m.group(2) | int, m.group(3) | int) -%}
        {{ tideline._var_error(name, value, "a date written YYYY-MM-DD") }}
    {%- endif -%}
    {{- return(text) -}}
{% endmacro %}

{% macro _is_calendar_date(y, m, d) %}
    {%- if m < 1 or m > 12 or d < 1 or y < 1 -%}{{ return(false) }}{%- endif -%}
    {%- set leap = (y % 4 == 0 and y % 100 != 0) or y % 400 == 0 -%}
    {%- set days = [31, 29 if leap else 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][m - 1] -%}
    {{- return(d <= days) -}}
{% endmacro %}

{% macro var_int(name, minimum) %}
    {%- set value = tideline.tl_var(name) -%}
    {%- if value is string or value is boolean or value is not number or (value | int) != value or value < minimum -%}
        {{ tideline._var_error(name, value, "an integer >= " ~ minimum) }}
    {%- endif -%}
    {{- return(value | int) -}}
{% endmacro %}

{% macro var_bool(name) %}
    {%- set value = tideline.tl_var(name) -%}
    {%- if value is not boolean -%}
        {{ tideline._var_error(name, value, "true or false") }}
    {%- endif -%}
    {{- return(value) -}}
{% endmacro %}

{% macro var_string_list(name) %}
    {%- set value = tideline.tl_var(name) -%}
    {%- if value is string or value is not iterable or value is mapping -%}
        {{ tideline._var_error(name, value, "a list of strings, [] for all") }}
    {%- endif -%}
    {%- for item in value if item is not string or item == '' -%}
        {{ tideline._var_error(name, value, "a list of non-empty strings, [] for all") }}
    {%- endfor -%}
    {{- return(value | list) -}}
{% endmacro %}

{#- A var that names a column (or, with `what`, a schema or table): an identifier, never SQL. -#}
{% macro var_identifier(name, what='a column name') %}
    {%- set value = tideline.tl_var(name) if name in tideline.default_vars() else var(name, none) -%}
    {%- if value is not string or not modules.re.match('^[A-Za-z_][A-Za-z0-9_]*$', value) -%}
        {{ tideline._var_error(name, value, what ~ " (letters, digits, underscores)") }}
    {%- endif -%}
    {{- return(value) -}}
{% endmacro %}

{#- "Now" for every rule that needs it: tideline__now when set (tests, replays), else the
    environment variable TIDELINE_NOW (a scheduler replaying a logical date: unlike a var, it
    keeps dbt's partial parsing), else the run's start. Returned as 'YYYY-MM-DD HH:MM:SS' in UTC.
    While dbt parses, the run's start: the SQL rendered then is never run, and a model that read
    TIDELINE_NOW while parsed (an attributes table's last-N-days window) would be parsed again
    every time it changes. -#}
{% macro now() %}
    {%- set value = tideline.tl_var('tideline__now') if execute else none -%}
    {%- if execute and value in [none, ''] -%}{%- set value = env_var('TIDELINE_NOW', '') -%}{%- endif -%}
    {%- if value in [none, ''] -%}
        {{- return(run_started_at.astimezone(modules.pytz.utc).strftime('%Y-%m-%d %H:%M:%S')) -}}
    {%- endif -%}
    {%- set parsed = tideline.parse_utc_time(value) -%}
    {%- if parsed is none or '.' in parsed -%}
        {{ tideline._var_error('tideline__now' if tideline.tl_var('tideline__now') not in [none, ''] else 'TIDELINE_NOW (environment)',
            value, "a UTC time written YYYY-MM-DD[ HH:MM[:SS]] that exists on the calendar") }}
    {%- endif -%}
    {{- return(parsed) -}}
{% endmacro %}

{#- A UTC time written YYYY-MM-DD[ HH:MM[:SS[.fff]]] (or with a T), as 'YYYY-MM-DD HH:MM:SS'
    (with '.fff' when milliseconds are given); none when it is not such a time on the calendar. -#}
{% macro parse_utc_time(value) %}
    {%- set text = value | string -%}
    {%- set m = modules.re.match('^(\d{4})-(\d{2})-(\d{2})([ T](\d{2}):(\d{2})(:(\d{2})(\.(\d{1,3}))?)?)?$', text) -%}
    {%- if not m or not tideline._is_calendar_date(m.group(1) | int, m.group(2) | int, m.group(3) | int)
            or (m.group(5) or '0') | int > 23 or (m.group(6) or '0') | int > 59 or (m.group(8) or '0') | int > 59 -%}
        {{- return(none) -}}
    {%- endif -%}
    {{- return(text[:10] ~ ' ' ~ (m.group(5) or '00') ~ ':' ~ (m.group(6) or '00') ~ ':' ~ (m.group(8) or '00')
        ~ ('.' ~ (m.group(10) ~ '00')[:3] if m.group(10) else '')) -}}
{% endmacro %}

{#- A run's now must not be before what the model already committed: its window would be
    inverted, and its date rules (reprocess_days, the attribute windows) would be evaluated at a
    time the model has already passed. -#}
{% macro refuse_now_before_watermark(model_name, watermark) %}
    {%- if watermark is not none and watermark[:19] > tideline.now() -%}
        {{ tideline._refuse_now_before([model_name ~ " (" ~ watermark ~ ")"]) }}
    {%- endif -%}
{% endmacro %}

{% macro _refuse_now_before(watermarks) %}
    {{ exceptions.raise_compiler_error("tideline: now (" ~ tideline.now() ~ " UTC) is before the watermark of "
        ~ watermarks | join(', ') ~ ": everything up to then was already processed. Run with a later tideline__now"
        ~ " (or TIDELINE_NOW), or without one; to replay an earlier time, rebuild: dbt run --full-refresh with that now.") }}
{% endmacro %}

{#- on-run-start (from ensure_state_tables, when tl_state exists): the same check for every
    selected model at once, before any model runs, so that no model of the run writes. Only
    when now is pinned (tideline__now, TIDELINE_NOW): the clock cannot be before a watermark,
    which is at most the now of an earlier run. And only when the run writes more than one
    node: a lone model refuses itself before it writes. One query over the run rows of
    tl_state. -#}
{% macro refuse_now_before_watermarks() %}
    {%- set pinned = tideline.tl_var('tideline__now') not in [none, ''] or env_var('TIDELINE_NOW', '') != '' -%}
    {%- set selected = [] -%}
    {%- set writers = [] -%}
    {%- for uid in selected_resources if uid in graph.nodes -%}
        {%- do selected.append(graph.nodes[uid].name) -%}
        {%- if graph.nodes[uid].resource_type in ['model', 'seed', 'snapshot'] -%}{%- do writers.append(uid) -%}{%- endif -%}
    {%- endfor -%}
    {%- if not pinned or writers | length < 2 or flags.FULL_REFRESH -%}{{ return(none) }}{%- endif -%}
    {% set sql %}
        select model, cast(max(watermark) as string) as watermark
        from {{ tideline.state_table() }}
        where kind = 'run' and model in {{ tideline.string_list(selected) }}
        group by model
        having max(watermark) > {{ tideline.ts(tideline.now()) }}
        order by model
    {% endset %}
    {%- set late = [] -%}
    {%- for row in tideline.query_rows(sql) -%}{%- do late.append(row[0] ~ " (" ~ row[1] ~ ")") -%}{%- endfor -%}
    {%- if late -%}{{ tideline._refuse_now_before(late) }}{%- endif -%}
{% endmacro %}

{% macro validate_vars() %}
    {%- if not execute -%}{{ return('') }}{%- endif -%}
    {%- do tideline.refuse_unknown_vars() -%}
    {%- do tideline.var_date('tideline__start_date') -%}
    {%- do tideline.var_int('tideline__backfill_limit_days', 1) -%}
    {%- do tideline.var_int('tideline__reprocess_days', 0) -%}
    {%- do tideline.var_int('tideline__min_rows_to_process', 1) -%}
    {%- do tideline.var_int('tideline__dedupe_lookback_days', 0) -%}
    {%- do tideline.var_string_list('tideline__app_id') -%}
    {%- do tideline.var_string_list('tideline__events_to_include') -%}
    {%- do tideline.var_identifier('tideline__attribute_key') -%}
    {%- if tideline.var_date('tideline__start_date') > tideline.now()[:10] -%}
        {{ tideline._var_error('tideline__start_date', tideline.tl_var('tideline__start_date'),
            "a date on or before now (" ~ tideline.now() ~ " UTC): nothing after now can have been loaded") }}
    {%- endif -%}
    {%- for name in ['tideline__events_schema', 'tideline__events_table'] if var(name, none) is not none -%}
        {%- do tideline.var_identifier(name, 'a schema or table name') -%}
    {%- endfor -%}
    {%- do tideline._daily_backfill_dates() -%}
    {%- do tideline.var_int('tideline__run_lock_minutes', 1) -%}
    {%- do tideline.var_bool('tideline__include_current_day') -%}
    {%- do tideline.attributes_reference_date() -%}
    {%- do tideline.state_file_format() -%}
    {%- do tideline.var_identifier('tideline__iceberg_catalog', 'a Spark catalog name') -%}
    {#- renders to nothing, so dbt sends no statement for this hook -#}
{% endmacro %}

{#- A var that tideline does not know is refused, naming the closest known one, when it is
    meant for tideline: its name starts with tideline__, or is within two edits of a known
    name (tidline__start_date, tideline_reprocess_days). A misspelt var would otherwise be
    ignored without a word. Reads the vars given on the command line; project vars are the
    project's own business. -#}
{% macro refuse_unknown_vars() %}
    {%- set given = invocation_args_dict.get('vars') or {} -%}
    {%- if given is string -%}{%- set given = fromyaml(given) or {} -%}{%- endif -%}
    {%- set known = tideline.known_vars() -%}
    {%- for name in given if name is string and name not in known -%}
        {%- set closest = tideline._closest(name, known) -%}
        {%- if name.startswith('tideline__') or tideline._edit_distance(name, closest) <= 2 -%}
            {{ exceptions.raise_compiler_error("tideline: var " ~ name ~ " is not a tideline var (did you mean "
                ~ closest ~ "?); known: " ~ known | sort | join(', ')) }}
        {%- endif -%}
    {%- endfor -%}
{% endmacro %}

{% macro known_vars() %}
    {{- return(tideline.default_vars().keys() | list + ['tideline__events_schema', 'tideline__events_table', 'tideline__fail_at']) -}}
{% endmacro %}

{#- The candidate with the smallest edit distance to `word`. -#}
{% macro _closest(word, candidates) %}
    {%- set best = {'name': none, 'distance': 1000} -%}
    {%- for candidate in candidates -%}
        {%- set distance = tideline._edit_distance(word, candidate) -%}
        {%- if distance < best.distance -%}{%- do best.update({'name': candidate, 'distance': distance}) -%}{%- endif -%}
    {%- endfor -%}
    {{- return(best.name) -}}
{% endmacro %}

{#- Levenshtein distance (insertions, deletions, substitutions), one row at a time. -#}
{% macro _edit_distance(word, candidate) %}
    {%- set previous = range(candidate | length + 1) | list -%}
    {%- for i in range(1, word | length + 1) -%}
        {%- set current = [i] -%}
        {%- for j in range(1, candidate | length + 1) -%}
            {%- set cost = 0 if word[i - 1] == candidate[j - 1] else 1 -%}
            {%- do current.append([previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost] | min) -%}
        {%- endfor -%}
        {%- do previous.clear() -%}{%- do previous.extend(current) -%}
    {%- endfor -%}
    {{- return(previous[-1]) -}}
{% endmacro %}

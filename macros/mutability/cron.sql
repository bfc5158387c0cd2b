{#- Cron schedules, evaluated in macros (dbt's Jinja cannot import croniter; python_tests checks
    these against it). Five fields: minute hour day-of-month month day-of-week. Each field is a
    comma list of `*`, `N`, `A-B`, with an optional step (`*/4`, `1-30/10`, `5/15` = `5-max/15`;
    the seed's bare `/4` = `*/4`). Months take jan..dec, days of week sun..sat; day of week is
    0-7 with both 0 and 7 Sunday (`fri-sun` and `5-7` both end on Sunday). When both
    day-of-month and day-of-week are restricted (none of their items is a lone `*`) a day
    matching either counts, as in POSIX cron. All times are UTC, to the minute. -#}

{% macro _cron_fields() %}
    {{- return([
        {'name': 'minute', 'low': 0, 'high': 59, 'names': []},
        {'name': 'hour', 'low': 0, 'high': 23, 'names': []},
        {'name': 'day-of-month', 'low': 1, 'high': 31, 'names': []},
        {'name': 'month', 'low': 1, 'high': 12, 'names': ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec']},
        {'name': 'day-of-week', 'low': 0, 'high': 7, 'names': ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat']},
    ]) -}}
{% endmacro %}

{% macro _cron_error(setting, expression, field, why) %}
    {{ exceptions.raise_compiler_error("tideline: " ~ setting ~ " = " ~ (expression | tojson) ~ " is not a valid cron expression: "
        ~ field ~ " " ~ why ~ "; accepted: five fields 'minute hour day-of-month month day-of-week' of *, N, A-B, lists and /steps, e.g. '0 13 * * *'") }}
{% endmacro %}

{#- One value of a field (a number or, for months and days of week, a name) as an integer. -#}
{% macro _cron_value(text, spec, setting, expression) %}
    {%- set t = text | lower -%}
    {%- if t in spec.names -%}
        {{- return(spec.names.index(t) + (1 if spec.name == 'month' else 0)) -}}
    {%- endif -%}
    {%- if not modules.re.match('^[0-9]+$', t) or (t | int) < spec.low or (t | int) > spec.high -%}
        {{ tideline._cron_error(setting, expression, spec.name, "value '" ~ text ~ "' is not in " ~ spec.low ~ "-" ~ spec.high
            ~ (" or " ~ spec.names[0] ~ ".." ~ spec.names[-1] if spec.names else "")) }}
    {%- endif -%}
    {{- return(t | int) -}}
{% endmacro %}

{#- Parse an expression: {'minute': [..], 'hour': [..], 'dom': [..], 'month': [..], 'dow': [0..6],
    'dom_star': bool, 'dow_star': bool}. Fails naming the setting, the value and the field. -#}
{% macro parse_cron(expression, setting='update_cron') %}
    {%- if expression is not string -%}
        {{ tideline._cron_error(setting, expression, 'the expression', 'is not a string') }}
    {%- endif -%}
    {%- set parts = expression.strip().split() -%}
    {%- if parts | length != 5 -%}
        {{ tideline._cron_error(setting, expression, 'the expression', 'has ' ~ parts | length ~ ' fields, not 5') }}
    {%- endif -%}
    {%- set sets = [] -%}
    {%- for spec in tideline._cron_fields() -%}
        {%- set field = parts[loop.index0] -%}
        {%- set values = [] -%}
        {%- for item in field.split(',') -%}
            {%- set m = modules.re.match('^(\*|[0-9a-zA-Z]+(-[0-9a-zA-Z]+)?)?(/([0-9]+))?$', item) -%}
            {%- if item == '' or not m or (m.group(1) is none and m.group(3) is none) -%}
                {{ tideline._cron_error(setting, expression, spec.name, "item '" ~ item ~ "' is not *, N, A-B or one of them with /step") }}
            {%- endif -%}
            {%- set step = (m.group(4) | int) if m.group(3) else 1 -%}
            {%- if step < 1 -%}
                {{ tideline._cron_error(setting, expression, spec.name, "step in '" ~ item ~ "' must be at least 1") }}
            {%- endif -%}
            {%- set base = m.group(1) or '*' -%}
            {%- if base == '*' -%}
                {%- set low, high = spec.low, (6 if spec.name == 'day-of-week' else spec.high) -%}
            {%- elif '-' in base -%}
                {%- set ends = base.split('-') -%}
                {%- set low = tideline._cron_value(ends[0], spec, setting, expression) -%}
                {%- set high = tideline._cron_value(ends[1], spec, setting, expression) -%}
                {%- if spec.name == 'day-of-week' and high == 0 and low > 0 -%}{%- set high = 7 -%}{%- endif -%}
                {%- if low > high -%}
                    {{ tideline._cron_error(setting, expression, spec.name, "range '" ~ base ~ "' goes backwards") }}
                {%- endif -%}
            {%- else -%}
                {%- set low = tideline._cron_value(base, spec, setting, expression) -%}
                {%- set high = low if not m.group(3) else (6 if spec.name == 'day-of-week' else spec.high) -%}
            {%- endif -%}
            {%- for v in range(low, high + 1, step) -%}
                {%- do values.append(0 if spec.name == 'day-of-week' and v == 7 else v) -%}
            {%- endfor -%}
        {%- endfor -%}
        {%- do sets.append(values | unique | sort | list) -%}
    {%- endfor -%}
    {%- set parsed = {'minute': sets[0], 'hour': sets[1], 'dom': sets[2], 'month': sets[3], 'dow': sets[4],
                      'dom_star': '*' in parts[2].split(','), 'dow_star': '*' in parts[4].split(',')} -%}
    {#- A schedule that can never fire (day 30 of February only) is refused too. -#}
    {%- if parsed.dow_star and not parsed.dom_star -%}
        {%- set month_days = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31] -%}
        {%- set possible = [] -%}
        {%- for mo in parsed.month if parsed.dom[0] <= month_days[mo - 1] -%}{%- do possible.append(mo) -%}{%- endfor -%}
        {%- if not possible -%}
            {{ tideline._cron_error(setting, expression, 'day-of-month', 'never occurs in the months given') }}
        {%- endif -%}
    {%- endif -%}
    {{- return(parsed) -}}
{% endmacro %}

{% macro _cron_day_matches(c, day) %}
    {%- set dom_ok = day.day in c.dom -%}
    {%- set dow_ok = ((day.weekday() + 1) % 7) in c.dow -%}
    {%- if not c.dom_star and not c.dow_star -%}{{ return(dom_ok or dow_ok) }}{%- endif -%}
    {{- return(dom_ok and dow_ok) -}}
{% endmacro %}

{% macro _cron_time(value) %}
    {%- if value is string -%}
        {%- set text = value.replace('T', ' ') -%}
        {{- return(modules.datetime.datetime.strptime(text[:16], '%Y-%m-%d %H:%M') if text | length >= 16
                   else modules.datetime.datetime.strptime(text[:10], '%Y-%m-%d')) -}}
    {%- endif -%}
    {{- return(value.replace(tzinfo=none)) -}}
{% endmacro %}

{#- The first tick strictly after `t` (a datetime or 'YYYY-MM-DD HH:MM[:SS]' text), as a datetime.
    It walks months, days, hours and minutes that do not match, enough steps for any schedule that fires at least once in 8 years (29 February). -#}
{% macro cron_next(expression, t, setting='update_cron') %}
    {%- set c = tideline.parse_cron(expression, setting) -%}
    {%- set td = modules.datetime.timedelta -%}
    {%- set ns = namespace(t=tideline._cron_time(t).replace(second=0, microsecond=0) + td(minutes=1), found=none) -%}
    {%- for _ in range(2000) if ns.found is none -%}
        {%- set x = ns.t -%}
        {%- if x.month not in c.month -%}
            {%- set ns.t = x.replace(year=x.year + (1 if x.month == 12 else 0), month=(x.month % 12) + 1, day=1, hour=0, minute=0) -%}
        {%- elif not tideline._cron_day_matches(c, x) -%}
            {%- set ns.t = x.replace(hour=0, minute=0) + td(days=1) -%}
        {%- elif x.hour not in c.hour -%}
            {%- set ns.t = x.replace(minute=0) + td(hours=1) -%}
        {%- elif x.minute not in c.minute -%}
            {%- set ns.t = x + td(minutes=1) -%}
        {%- else -%}
            {%- set ns.found = x -%}
        {%- endif -%}
    {%- endfor -%}
    {{- return(ns.found) -}}
{% endmacro %}

{#- The last tick at or before `t`, as a datetime (none when there is none within the same bound). -#}
{% macro cron_last(expression, t, setting='update_cron') %}
    {%- set c = tideline.parse_cron(expression, setting) -%}
    {%- set td = modules.datetime.timedelta -%}
    {%- set ns = namespace(t=tideline._cron_time(t).replace(second=0, microsecond=0), found=none) -%}
    {%- for _ in range(2000) if ns.found is none -%}
        {%- set x = ns.t -%}
        {%- if x.month not in c.month -%}
            {%- set ns.t = x.replace(day=1, hour=0, minute=0) - td(minutes=1) -%}
        {%- elif not tideline._cron_day_matches(c, x) -%}
            {%- set ns.t = x.replace(hour=0, minute=0) - td(minutes=1) -%}
        {%- elif x.hour not in c.hour -%}
            {%- set ns.t = x.replace(minute=0) - td(minutes=1) -%}
        {%- elif x.minute not in c.minute -%}
            {%- set ns.t = x - td(minutes=1) -%}
        {%- else -%}
            {%- set ns.found = x -%}
        {%- endif -%}
    {%- endfor -%}
    {{- return(ns.found) -}}
{% endmacro %}

{#- For python_tests: evaluate many [expression, time] cases in one dbt call and log the answers
    as one JSON line ("tideline cron cases: [...]"): [last at or before, next after] per case,
    or the error text. `dbt run-operation tideline.cron_cases --args '{cases: [["0 13 * * *", "2025-01-01 12:00"]]}'` -#}
{% macro cron_cases(cases) %}
    {%- set out = [] -%}
    {%- for case in cases -%}
        {%- set last = tideline.cron_last(case[0], case[1]) -%}
        {%- set next = tideline.cron_next(case[0], case[1]) -%}
        {%- do out.append([last.strftime('%Y-%m-%d %H:%M') if last else none, next.strftime('%Y-%m-%d %H:%M') if next else none]) -%}
    {%- endfor -%}
    {%- do log('tideline cron cases: ' ~ (out | tojson), info=true) -%}
{% endmacro %}

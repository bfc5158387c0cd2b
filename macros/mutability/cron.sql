{#- Cron schedules, evaluated in macros (dbt's Jinja cannot import croniter; python_tests checks
    these against it). Five fields: minute hour day-of-month month day-of-week. Each field is a
    comma list of `*`, `N`, `A-B`, with an optional step (`*/4`, `1-30/10`, `5/15` = `5-max/15`;
    the seed's bare `/4` = `*/4`). Months take jan..dec, days of week sun..sat; day of week is
    0-7 with both 0 and 7 Sunday (`fri-sun` and `5-7` both end on Sunday). When both
    day-of-month and day-of-week are restricted (none of their items is a lone `*`) a day
    matching either counts, as in POSIX cron. All times are UTC, to the minute. -#}

{#- Parse an expression: {'minute': [..], 'hour': [..], 'dom': [..], 'month': [..], 'dow': [0..6],
    'dom_star': bool, 'dow_star': bool}. Fails naming the setting, the value and the field. -#}
{% macro parse_cron(expression, setting='update_cron') %}
    {%- if expression is not string -%}
        {{ tideline._cron_error(setting, expression, 'the expression', 'is not a string') }}
    {%- endif -%}
    {%- set parts = expression.strip().split() -%}
    {%- if parts | length != 5 -%}
        {{ tideline._cron_error(setting, expression, 'the expression', 'has {} fields, not 5'.format(parts | length)) }}
    {%- endif -%}
    {%- set sets = [] -%}
    {%- for spec in tideline._cron_fields() -%}
        {%- set field = parts[loop.index0] -%}
        {%- set values = [] -%}
        {%- for item in field.split(',') -%}
            {%- set m = modules.re.match('^(\*|[0-9a-zA-Z]+(-[0-9a-zA-Z]+)?)?(/([0-9]+))?$', item) -%}
            {%- if item == '' or not m or (m.group(1) is none and m.group(3) is none) -%}
                {{ tideline._cron_error(setting, expression, spec.name, "item '{}' is not *, N, A-B or one of them with /step".format(item)) }}
            {%- endif -%}
            {%- set step = (m.group(4) | int) if m.group(3) else 1 -%}
            {%- if step < 1 -%}
                {{ tideline._cron_error(setting, expression, spec.name, "step in '{}' must be at least 1".format(item)) }}
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
                    {{ tideline._cron_error(setting, expression, spec.name, "range '{}' goes backwards".format(base)) }}
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
    {{ exceptions.raise_compiler_error("tideline: {} = {} is not a valid cron expression: {} {}; accepted: five fields 'minute hour day-of-month month day-of-week' of *, N, A-B, lists and /steps, e.g. '0 13 * * *'".format(
        setting, expression | tojson, field, why)) }}
{% endmacro %}

{#- One value of a field (a number or, for months and days of week, a name) as an integer. -#}
{% macro _cron_value(text, spec, setting, expression) %}
    {%- set t = text | lower -%}
    {%- if t in spec.names -%}
        {{- return(spec.names.index(t) + (1 if spec.name == 'month' else 0)) -}}
    {%- endif -%}
    {%- if not modules.re.match('^[0-9]+$', t) or (t | int) < spec.low or (t | int) > spec.high -%}
        {%- set names = " or {}..{}".format(spec.names[0], spec.names[-1]) if spec.names else "" -%}
        {{ tideline._cron_error(setting, expression, spec.name, "value '{}' is not in {}-{}{}".format(text, spec.low, spec.high, names)) }}
    {%- endif -%}
    {{- return(t | int) -}}
{% endmacro %}

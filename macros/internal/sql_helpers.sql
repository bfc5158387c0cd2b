{#- Small helpers shared by every capability. -#}

{#- Run a statement that returns no rows. Over Thrift, run_query() of such a statement fails
    inside PyHive, so DDL and DML go through adapter.execute(fetch=False). -#}
{% macro exec(sql) %}
    {%- do adapter.execute(sql, auto_begin=False, fetch=False) -%}
{% endmacro %}

{#- The rows of a query as a list of lists (empty list when none). Times come back as text
    ('YYYY-MM-DD HH:MM:SS.ffffff', dates 'YYYY-MM-DD') whatever the adapter or agate made of
    them, so they can go straight back into SQL through ts() and date_list(). -#}
{% macro query_rows(sql) %}
    {%- set result = run_query(sql) -%}
    {%- set rows = [] -%}
    {%- for row in result.rows -%}
        {%- set values = [] -%}
        {%- for v in row.values() -%}
            {%- if v is not none and v is not string and v.hour is defined -%}
                {%- do values.append(v.strftime('%Y-%m-%d %H:%M:%S.%f')) -%}
            {%- elif v is not none and v is not string and v.isoformat is defined -%}
                {%- do values.append(v.strftime('%Y-%m-%d')) -%}
            {%- else -%}
                {%- do values.append(v) -%}
            {%- endif -%}
        {%- endfor -%}
        {%- do rows.append(values) -%}
    {%- endfor -%}
    {{- return(rows) -}}
{% endmacro %}

{#- A SQL timestamp literal from 'YYYY-MM-DD HH:MM:SS[.ffffff]' text or a datetime. -#}
{% macro ts(value) %}
    {%- if value is none -%}{{ return('cast(null as timestamp)') }}{%- endif -%}
    {%- set text = value.strftime('%Y-%m-%d %H:%M:%S.%f') if value is not string else value -%}
    {{- return("timestamp'" ~ text ~ "'") -}}
{% endmacro %}

{#- A SQL list of date literals, e.g. (date'2025-01-01', date'2025-01-02'); `(null)` when empty,
    so that `x in {{ date_list([]) }}` is valid SQL that matches nothing. -#}
{% macro date_list(dates) %}
    {%- if dates | length == 0 -%}{{ return('(cast(null as date))') }}{%- endif -%}
    {%- set items = [] -%}
    {%- for d in dates -%}{%- do items.append("date'" ~ (d | string)[:10] ~ "'") -%}{%- endfor -%}
    {{- return('(' ~ items | join(', ') ~ ')') -}}
{% endmacro %}

{% macro string_list(values) %}
    {%- set items = [] -%}
    {%- for v in values -%}{%- do items.append("'" ~ (v | replace("\\", "\\\\") | replace("'", "\\'")) ~ "'") -%}{%- endfor -%}
    {{- return('(' ~ items | join(', ') ~ ')') -}}
{% endmacro %}

{#- `value` cast to `type`; a value that does not fit (another type, an overflow) stops the
    run with `message` instead of turning into null. -#}
{% macro checked_cast(value, type, message) %}
    {%- set sql -%}
        case when ({{ value }}) is not null and try_cast(({{ value }}) as {{ type }}) is null
            then raise_error({{ tideline.string_list([message])[1:-1] }} || cast(({{ value }}) as string))
            else cast(({{ value }}) as {{ type }}) end
    {%- endset -%}
    {{- return(sql) -}}
{% endmacro %}

{#- The columns a model declares (derivation: derived_columns; continual task: columns), as
    [[name, normalised type], ...]; a bad one stops the run naming the model and the setting.
    `kind` is the capability's name in the message ("derivation", "continual task"). -#}
{% macro declared_columns(kind, model_name, setting, columns, example) %}
    {%- set fail = "tideline: " ~ kind ~ " " ~ model_name ~ ": " -%}
    {%- if columns is not mapping or not columns -%}
        {{ exceptions.raise_compiler_error(fail ~ setting ~ " = " ~ (columns | tojson) ~ " is invalid; accepted: a mapping of column name to Spark type, e.g. " ~ example) }}
    {%- endif -%}
    {%- set declared = [] -%}
    {%- for name, type in columns.items() -%}
        {%- if not modules.re.match('^[A-Za-z_][A-Za-z0-9_]*$', name) or name.startswith('_tl_') -%}
            {{ exceptions.raise_compiler_error(fail ~ setting ~ " = " ~ (name | tojson) ~ " is invalid; accepted: column names of letters, digits and underscores, not starting with _tl_") }}
        {%- endif -%}
        {%- if type is not string or type | trim == '' -%}
            {{ exceptions.raise_compiler_error(fail ~ setting ~ "." ~ name ~ " = " ~ (type | tojson) ~ " is invalid; accepted: a Spark type, e.g. 'int'") }}
        {%- endif -%}
        {%- do declared.append([name | lower, tideline.type_name(type)]) -%}
    {%- endfor -%}
    {{- return(declared) -}}
{% endmacro %}

{#- Normalised Spark type names, so that 'integer' and 'int' compare equal. -#}
{% macro type_name(type) %}
    {%- set t = (type | string | lower | replace(' ', '')) -%}
    {%- set aliases = {'integer': 'int', 'long': 'bigint', 'short': 'smallint', 'byte': 'tinyint', 'real': 'float'} -%}
    {{- return(aliases.get(t, t)) -}}
{% endmacro %}

{#- A timestamp text ('YYYY-MM-DD HH:MM:SS[.ffffff]') moved by a number of seconds, as
    'YYYY-MM-DD HH:MM:SS.ffffff': texts of that one form compare as the times do. -#}
{% macro shift_time(text, seconds) %}
    {%- set t = modules.datetime.datetime.strptime(text[:26] if '.' in text else text[:19], '%Y-%m-%d %H:%M:%S.%f' if '.' in text else '%Y-%m-%d %H:%M:%S') -%}
    {{- return((t + modules.datetime.timedelta(seconds=seconds)).strftime('%Y-%m-%d %H:%M:%S.%f')) -}}
{% endmacro %}

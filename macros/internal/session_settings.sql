{#- The Spark session settings that change what tideline writes, and how a run makes sure of
    them. Spark's defaults and a user's own profile can differ from what tideline's SQL means:
    a static partition overwrite replaces a whole aggregate, a session zone east of UTC leaves
    loads unread. So every run and every tideline model starts with prepare_session(): one
    `set` that lists the settings the session states, then
      - a setting the session does not state: tideline sets it (`set key = value`) for its
        statements, as dbt-spark's insert_overwrite sets partitionOverwriteMode;
      - a setting the session states with a value tideline cannot work with (`strict`):
        the run is refused before it writes, naming the setting, the value and the fix. On
        `method: session` dbt-spark applies the profile's server_side_parameters again before
        every statement, so a value the profile states cannot be overridden for a statement;
      - a setting the session states otherwise (not `strict`: it changes the cost of a run,
        not its result): left as the session has it.
    Settings tideline sets stay set for the rest of the session (as dbt-spark's do); state them
    in your profile's server_side_parameters and a run sends no `set` at all. -#}

{#- The settings, each {key, value, accepted (values that are as good), strict, why}. Values
    compare without regard to case. Override with a macro `session_settings` of your own project
    (dispatch search order: `dispatch: [{macro_namespace: tideline, search_order: [<your project>, tideline]}]`). -#}
{% macro session_settings() %}
    {{- return(adapter.dispatch('session_settings', 'tideline')()) -}}
{% endmacro %}

{% macro default__session_settings() %}
    {{- return([
        {'key': 'spark.sql.session.timeZone', 'value': 'UTC', 'strict': true,
         'accepted': ['UTC', 'Etc/UTC', 'GMT', 'Etc/GMT', 'Z', '+00:00', 'UTC+00:00', 'GMT+00:00', 'Etc/Universal', 'Universal', 'Etc/Zulu', 'Zulu', 'UCT', 'Etc/UCT'],
         'why': 'dates, watermarks, timestamp literals and load_date pruning are UTC'},
        {'key': 'spark.sql.sources.partitionOverwriteMode', 'value': 'dynamic', 'strict': true, 'accepted': [],
         'why': 'a run overwrites only the dates it recomputes; static replaces the whole table'},
        {'key': 'spark.sql.storeAssignmentPolicy', 'value': 'ANSI', 'strict': true, 'accepted': [],
         'why': 'a value that does not fit its column stops the write; LEGACY turns it into null, STRICT refuses safe widening'},
        {'key': 'spark.sql.ansi.enabled', 'value': 'false', 'strict': true, 'accepted': [],
         'why': "tideline counts bad values (an unparsable time, a type that does not fit) with try_cast and its own checks; ANSI mode fails the statement instead"},
        {'key': 'spark.sql.timestampType', 'value': 'TIMESTAMP_LTZ', 'strict': true, 'accepted': [],
         'why': 'timestamp literals and the timestamp columns tideline creates are instants (TIMESTAMP_NTZ would make them wall-clock times)'},
        {'key': 'spark.sql.caseSensitive', 'value': 'false', 'strict': true, 'accepted': [],
         'why': "column names are matched as dbt and tideline's SQL write them"},
        {'key': 'spark.sql.defaultCatalog', 'value': 'spark_catalog', 'strict': true, 'accepted': [],
         'why': "dbt's relations and tideline's tables are named <schema>.<name> in spark_catalog (Iceberg tables in the catalog tideline__iceberg_catalog, named in full)"},
        {'key': 'spark.sql.legacy.allowNonEmptyLocationInCTAS', 'value': 'true', 'strict': false, 'accepted': [],
         'why': "a process killed during a first build leaves the table's folder without the table; the rerun's build writes into that folder"},
        {'key': 'spark.sql.parquet.outputTimestampType', 'value': 'TIMESTAMP_MICROS', 'strict': false, 'accepted': [],
         'why': 'parquet keeps the min and max of timestamps, so a read by commit time skips the files of older loads'},
        {'key': 'spark.sql.hive.metastorePartitionPruningInSetThreshold', 'value': '64', 'strict': false, 'accepted': [],
         'why': 'a long list of dates goes to the Hive metastore as a range'},
        {'key': 'spark.sql.hive.metastorePartitionPruningFallbackOnException', 'value': 'true', 'strict': false, 'accepted': [],
         'why': 'a partition filter the metastore cannot evaluate lists the partitions instead of failing'},
    ]) -}}
{% endmacro %}

{#- Refuse a session that states a value tideline cannot work with, or set what it leaves
    unstated (see the top of this file). An on-run-start hook (`who` = 'run') and the first
    step of every tideline materialization (`who` = the model): over Thrift each dbt thread has
    a session of its own. Renders to nothing. -#}
{% macro prepare_session(who='run') %}
    {%- if not execute -%}{{ return('') }}{%- endif -%}
    {%- set stated = tideline.stated_session_settings() -%}
    {%- set refused = [] -%}
    {%- set unstated = [] -%}
    {%- for setting in tideline.session_settings() -%}
        {%- if setting.key not in stated -%}
            {%- do unstated.append(setting) -%}
        {%- elif setting.strict and not tideline.setting_accepts(setting, stated[setting.key]) -%}
            {%- do refused.append("{} is '{}', tideline needs {} ({})".format(setting.key, stated[setting.key], setting.value, setting.why)) -%}
        {%- endif -%}
    {%- endfor -%}
    {%- if refused -%}
        {{ exceptions.raise_compiler_error("tideline: {} was refused before writing anything: the Spark session states settings that would change what tideline writes. {}. Fix: set them to those values in your profile's server_side_parameters (or remove them there: tideline then sets them itself for its statements).".format(
            "this run" if who == 'run' else "model {}".format(who), refused | join('; '))) }}
    {%- endif -%}
    {%- for setting in unstated -%}
        {%- do tideline.set_session_setting(setting.key, setting.value) -%}
    {%- endfor -%}
    {{- return('') -}}
{% endmacro %}

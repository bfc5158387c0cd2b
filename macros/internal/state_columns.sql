{#- tl_state's layout: its columns, the version of that layout, and what each version added. -#}

{#- The columns of tl_state, defined once: created from here and checked against here. -#}
{% macro state_columns() %}
    {{- return([
        ['run_id', 'string'], ['kind', 'string'], ['batch', 'timestamp'], ['run_now', 'timestamp'],
        ['committed_at', 'timestamp'],
        ['lower_limit', 'timestamp'], ['upper_limit', 'timestamp'], ['watermark', 'timestamp'],
        ['rows_read', 'bigint'], ['rows_written', 'bigint'], ['duplicates_dropped', 'bigint'],
        ['rows_rejected', 'bigint'], ['days_processed', 'int'], ['late_rows_skipped', 'bigint'],
        ['rows_without_load_time', 'bigint'],
        ['event_date', 'date'], ['new_rows', 'bigint'], ['late_rows', 'bigint'], ['pending_rows', 'bigint'],
        ['processed', 'boolean'], ['processed_rows', 'bigint'], ['skipped_rows', 'bigint'],
        ['last_processed_at', 'timestamp'],
        ['generation', 'int'],
        ['transform', 'string'],
        ['mutable_time', 'timestamp'], ['realtime_after', 'timestamp'], ['missing_deletes', 'bigint'],
        ['first_load', 'timestamp'],
        ['definition', 'string'],
        ['recount_from', 'timestamp'], ['recount_rows', 'bigint'], ['rows_behind_watermark', 'bigint'],
        ['model', 'string'],
    ]) -}}
{% endmacro %}

{#- The version of tl_state's layout this tideline writes (table property tideline.state_version),
    and the columns each earlier version added: a state table of an earlier layout is migrated
    on the first run of this version (migrate_state_table), any other layout is refused.
      2: a channel's mutable_time, realtime_after and missing_deletes in columns of their own
         (version 1 kept them in upper_limit, lower_limit and rows_rejected);
      3: a daily aggregate's first load time of a date in its date rows' first_load (version 2
         kept it in lower_limit, which is a run's window only);
      4: a derivation's and a continual task's definition in their run rows' definition
         (internal/definitions.sql; before, none was kept);
      5: a derivation's and a continual task's recount of each feed behind its watermark
         (recount_from, recount_rows) and the rows found there since (rows_behind_watermark:
         behind_watermark.sql; before, none was kept, and the first run after records one). -#}
{% macro state_version() %}
    {{- return(5) -}}
{% endmacro %}

{% macro state_columns_added() %}
    {{- return({2: ['mutable_time', 'realtime_after', 'missing_deletes'], 3: ['first_load'], 4: ['definition'], 5: ['recount_from', 'recount_rows', 'rows_behind_watermark']}) -}}
{% endmacro %}

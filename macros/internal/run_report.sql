{#- What a run reports: its line in dbt's log, its result for dbt, and the checkpoints a test
    may stop it at. -#}

{#- One line per model per run in dbt's log (contract 6); `path`: a daily aggregate's (merge or
    recompute). -#}
{% macro log_run(model_name, lower, upper, rows_read, rows_written, days, duplicates_dropped=0, rows_rejected=0, late_rows_skipped=0, rows_without_load_time=0, path=none) %}
    {%- set window = 'window ({}, {}]'.format(lower, upper) if lower is not none else 'first window, up to {}'.format(upper) -%}
    {%- set warning = ", WARNING: source rows without load_tstamp (never processed) {}".format(rows_without_load_time) if rows_without_load_time | int > 0 else "" -%}
    {%- set path = ", path {}".format(path) if path else "" -%}
    {{ log("tideline {}: {}, rows read {}, rows written {}, dates processed {}, late rows skipped {}, duplicates dropped {}, rows rejected {}{}{}".format(
        model_name, window, rows_read, rows_written, days, late_rows_skipped, duplicates_dropped, rows_rejected, path, warning), info=true) }}
{% endmacro %}

{#- The run line's warning of a derivation's or a continual task's source rows without a commit
    time, which no run reads (commit_frontier's `unplaced`): ", WARNING: source rows without a
    commit time (never read): <feed> <n> (<its source>.<its commit column>), ..."; nothing when
    there are none. `feeds`: the transforms or inputs. -#}
{% macro unplaced_rows_warning(feeds, frontier) %}
    {%- set found = [] -%}
    {%- for f in feeds if frontier.unplaced.get(f.name, 0) > 0 -%}
        {%- do found.append('{} {} ({}.{})'.format(f.name, frontier.unplaced[f.name], f.source.rendered, f.commit_column)) -%}
    {%- endfor -%}
    {{- return(", WARNING: source rows without a commit time (never read): {}".format(found | join(', ')) if found else '') -}}
{% endmacro %}

{#- The model's result for dbt (a materialization must leave a 'main' result): stored, not
    queried, so that it costs no statement. -#}
{% macro store_main(message) %}
    {%- do store_result('main', response=message) -%}
{% endmacro %}

{#- Test-only fault injection (contract 2's tests): with --vars '{tideline__fail_at: "<model>:<step>"}'
    the run fails right after that step, as a killed process would. -#}
{% macro checkpoint(model_name, step) %}
    {#- a debug event (not printed without --debug) that a test running dbt in-process can hold
        the run at, to look at the tables at that moment (python_tests/harness.py, pause_at) -#}
    {%- set point = '{}:{}'.format(model_name, step) -%}
    {%- do log('tl-checkpoint {}'.format(point)) -%}
    {%- if var('tideline__fail_at', none) == point -%}
        {{ exceptions.raise_compiler_error("tideline: injected failure after {}".format(point)) }}
    {%- endif -%}
{% endmacro %}

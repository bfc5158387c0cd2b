"""Contract 4: every bad input is refused by name before anything is touched.

A pipeline is built once; then each bad input (a var, a source that is missing or misshapen,
a now before the watermark, a partial --full-refresh) is given to `dbt run`, and each case
checks the message and that no table, no file and no schema changed. Run with -s to print
the table of cases (case, message, nothing changed).
"""

from __future__ import annotations

import datetime as dt
import os

import pytest

from tideline_tools.generator import EventWorld

pytestmark = pytest.mark.local_only

WORLD = EventWorld(seed=404, start=dt.datetime(2025, 6, 1), days=2, events_per_day=60, users=6)
NOW = "2025-06-06 00:00:00"
VARS = {"tideline__start_date": "2025-06-01", "tideline__now": NOW}
PIPELINE = ["tl_filtered_events", "daily_user_activity", "daily_page_activity", "user_attributes",
            "example_events_daily", "tideline_event_catalog"]

# The misshapen copies of the source made in a schema of their own: name -> select over the source.
BROKEN_SOURCES = {
    "no_load_tstamp": "select * except_load_tstamp",
    "no_derived_tstamp": "select * except_derived_tstamp",
    "event_id_int": "cast(1 as int) as event_id",
    "load_tstamp_string": "cast(load_tstamp as string) as load_tstamp",
    "no_load_date": "select * except_load_date",
    "no_event_id": "select * except_event_id",
    "derived_tstamp_date": "cast(derived_tstamp as date) as derived_tstamp",
}

CASES = [
    # (case, vars, extra dbt args, environment, the rule's whole message: {src} the source schema, {bad} that of
    # the misshapen sources; a misspelt var's message goes on with the list of every var)
    ("start_date not on the calendar", {"tideline__start_date": "2025-02-30"}, [], {}, "tideline: var tideline__start_date = \"2025-02-30\" is invalid; accepted: a date written YYYY-MM-DD"),
    ("start_date month 13", {"tideline__start_date": "2025-13-01"}, [], {}, "tideline: var tideline__start_date = \"2025-13-01\" is invalid; accepted: a date written YYYY-MM-DD"),
    ("start_date in another format", {"tideline__start_date": "01/06/2025"}, [], {}, "tideline: var tideline__start_date = \"01/06/2025\" is invalid; accepted: a date written YYYY-MM-DD"),
    ("start_date a number", {"tideline__start_date": 20250601}, [], {}, "tideline: var tideline__start_date = 20250601 is invalid; accepted: a date written YYYY-MM-DD"),
    ("start_date after now", {"tideline__start_date": "2025-06-07"}, [], {}, "tideline: var tideline__start_date = \"2025-06-07\" is invalid; accepted: a date on or before now (2025-06-06 00:00:00 UTC): nothing after now can have been loaded"),
    ("backfill_limit_days 0", {"tideline__backfill_limit_days": 0}, [], {}, "tideline: var tideline__backfill_limit_days = 0 is invalid; accepted: an integer >= 1"),
    ("backfill_limit_days negative", {"tideline__backfill_limit_days": -3}, [], {}, "tideline: var tideline__backfill_limit_days = -3 is invalid; accepted: an integer >= 1"),
    ("backfill_limit_days a string", {"tideline__backfill_limit_days": "7"}, [], {}, "tideline: var tideline__backfill_limit_days = \"7\" is invalid; accepted: an integer >= 1"),
    ("backfill_limit_days a fraction", {"tideline__backfill_limit_days": 1.5}, [], {}, "tideline: var tideline__backfill_limit_days = 1.5 is invalid; accepted: an integer >= 1"),
    ("backfill_limit_days a boolean", {"tideline__backfill_limit_days": True}, [], {}, "tideline: var tideline__backfill_limit_days = true is invalid; accepted: an integer >= 1"),
    ("reprocess_days negative", {"tideline__reprocess_days": -1}, [], {}, "tideline: var tideline__reprocess_days = -1 is invalid; accepted: an integer >= 0"),
    ("reprocess_days a word", {"tideline__reprocess_days": "week"}, [], {}, "tideline: var tideline__reprocess_days = \"week\" is invalid; accepted: an integer >= 0"),
    ("min_rows_to_process 0", {"tideline__min_rows_to_process": 0}, [], {}, "tideline: var tideline__min_rows_to_process = 0 is invalid; accepted: an integer >= 1"),
    ("min_rows_to_process null", {"tideline__min_rows_to_process": None}, [], {}, "tideline: var tideline__min_rows_to_process = null is invalid; accepted: an integer >= 1"),
    ("dedupe_lookback_days negative", {"tideline__dedupe_lookback_days": -1}, [], {}, "tideline: var tideline__dedupe_lookback_days = -1 is invalid; accepted: an integer >= 0"),
    ("app_id a string", {"tideline__app_id": "website"}, [], {}, "tideline: var tideline__app_id = \"website\" is invalid; accepted: a list of strings, [] for all"),
    ("app_id a list of numbers", {"tideline__app_id": [1]}, [], {}, "tideline: var tideline__app_id = [1] is invalid; accepted: a list of non-empty strings, [] for all"),
    ("app_id an empty name", {"tideline__app_id": [""]}, [], {}, "tideline: var tideline__app_id = [\"\"] is invalid; accepted: a list of non-empty strings, [] for all"),
    ("events_to_include a string", {"tideline__events_to_include": "page_view"}, [], {}, "tideline: var tideline__events_to_include = \"page_view\" is invalid; accepted: a list of strings, [] for all"),
    ("events_to_include a mapping", {"tideline__events_to_include": {"a": 1}}, [], {}, "tideline: var tideline__events_to_include = {{\"a\": 1}} is invalid; accepted: a list of strings, [] for all"),
    ("attribute_key with a space", {"tideline__attribute_key": "user id"}, [], {}, "tideline: var tideline__attribute_key = \"user id\" is invalid; accepted: a column name (letters, digits, underscores)"),
    ("attribute_key a number", {"tideline__attribute_key": 5}, [], {}, "tideline: var tideline__attribute_key = 5 is invalid; accepted: a column name (letters, digits, underscores)"),
    ("attribute_key no such column", {"tideline__attribute_key": "no_such_column"}, [], {}, "tideline: var tideline__attribute_key = \"no_such_column\" is invalid; accepted: a column of {src}.events (e.g. domain_userid, user_id, network_userid)"),
    ("now a word", {"tideline__now": "yesterday"}, [], {}, "tideline: var tideline__now = \"yesterday\" is invalid; accepted: a UTC time written YYYY-MM-DD[ HH:MM[:SS]] that exists on the calendar"),
    ("now not on the calendar", {"tideline__now": "2025-02-30"}, [], {}, "tideline: var tideline__now = \"2025-02-30\" is invalid; accepted: a UTC time written YYYY-MM-DD[ HH:MM[:SS]] that exists on the calendar"),
    ("now hour 25", {"tideline__now": "2026-11-22 25:61"}, [], {}, "tideline: var tideline__now = \"2026-11-22 25:61\" is invalid; accepted: a UTC time written YYYY-MM-DD[ HH:MM[:SS]] that exists on the calendar"),
    ("now minute 60", {"tideline__now": "2025-06-06 12:60"}, [], {}, "tideline: var tideline__now = \"2025-06-06 12:60\" is invalid; accepted: a UTC time written YYYY-MM-DD[ HH:MM[:SS]] that exists on the calendar"),
    ("now with a zone", {"tideline__now": "2025-06-06T00:00:00+02:00"}, [], {}, "tideline: var tideline__now = \"2025-06-06T00:00:00+02:00\" is invalid; accepted: a UTC time written YYYY-MM-DD[ HH:MM[:SS]] that exists on the calendar"),
    ("TIDELINE_NOW not on the calendar", {"tideline__now": None}, [], {"TIDELINE_NOW": "2025-06-31"}, "tideline: var TIDELINE_NOW (environment) = \"2025-06-31\" is invalid; accepted: a UTC time written YYYY-MM-DD[ HH:MM[:SS]] that exists on the calendar"),
    ("now before the watermark", {"tideline__now": "2025-06-04 00:00:00"}, [], {}, "tideline: now (2025-06-04 00:00:00 UTC) is before the watermark of daily_page_activity (2025-06-06 00:00:00), daily_user_activity (2025-06-06 00:00:00), tl_filtered_events (2025-06-04 21:00:00): everything up to then was already processed. Run with a later tideline__now (or TIDELINE_NOW), or without one; to replay an earlier time, rebuild: dbt run --full-refresh with that now."),
    ("now before the watermark, aggregates only", {"tideline__now": "2025-06-04 00:00:00"}, ["--select", "daily_user_activity"], {}, "tideline: now (2025-06-04 00:00:00 UTC) is before the watermark of daily_user_activity (2025-06-06 00:00:00): everything up to then was already processed. Run with a later tideline__now (or TIDELINE_NOW), or without one; to replay an earlier time, rebuild: dbt run --full-refresh with that now."),
    ("backfill_dates one date", {"tideline__backfill_dates": ["2025-06-02"]}, ["--select", "daily_user_activity"], {}, "tideline: var tideline__backfill_dates = [\"2025-06-02\"] is invalid; accepted: [first, last]: two past dates YYYY-MM-DD, first <= last < today"),
    ("backfill_dates reversed", {"tideline__backfill_dates": ["2025-06-03", "2025-06-01"]}, ["--select", "daily_user_activity"], {}, "tideline: var tideline__backfill_dates = [\"2025-06-03\", \"2025-06-01\"] is invalid; accepted: [first, last]: two past dates YYYY-MM-DD, first <= last < today"),
    ("backfill_dates up to today", {"tideline__backfill_dates": ["2025-06-01", "2025-06-06"]}, ["--select", "daily_user_activity"], {}, "tideline: var tideline__backfill_dates = [\"2025-06-01\", \"2025-06-06\"] is invalid; accepted: [first, last]: two past dates YYYY-MM-DD, first <= last < today"),
    ("backfill_dates a string", {"tideline__backfill_dates": "2025-06-01"}, ["--select", "daily_user_activity"], {}, "tideline: var tideline__backfill_dates = \"2025-06-01\" is invalid; accepted: [first, last]: two past dates YYYY-MM-DD, first <= last < today"),
    ("backfill_dates not on the calendar", {"tideline__backfill_dates": ["2025-06-01", "2025-06-31"]}, ["--select", "daily_user_activity"], {}, "tideline: var tideline__backfill_dates = [\"2025-06-01\", \"2025-06-31\"] is invalid; accepted: [first, last]: two past dates YYYY-MM-DD, first <= last < today"),
    ("run_lock_minutes 0", {"tideline__run_lock_minutes": 0}, [], {}, "tideline: var tideline__run_lock_minutes = 0 is invalid; accepted: an integer >= 1"),
    ("freshness_warn_hours 0", {"tideline__freshness_warn_hours": 0}, [], {}, "tideline: var tideline__freshness_warn_hours = 0 is invalid; accepted: an integer >= 1"),
    ("events_schema with SQL in it", {"tideline__events_schema": "x; drop table y"}, [], {}, "tideline: var tideline__events_schema = \"x; drop table y\" is invalid; accepted: a schema or table name (letters, digits, underscores)"),
    ("events_table with SQL in it", {"tideline__events_table": "events; drop table x"}, [], {}, "tideline: var tideline__events_table = \"events; drop table x\" is invalid; accepted: a schema or table name (letters, digits, underscores)"),
    ("events_table with a dot", {"tideline__events_table": "other.events"}, [], {}, "tideline: var tideline__events_table = \"other.events\" is invalid; accepted: a schema or table name (letters, digits, underscores)"),
    ("events_table that does not exist", {"tideline__events_table": "no_such_table"}, [], {}, "tideline: the events source {src}.no_such_table does not exist. Load events first (make demo loads sample events; python -m tideline_tools.generate --help loads generated ones), or point tideline__events_schema and tideline__events_table at your events table."),
    ("events_schema that does not exist", {"tideline__events_schema": "no_such_schema"}, [], {}, "tideline: the events source no_such_schema.events does not exist. Load events first (make demo loads sample events; python -m tideline_tools.generate --help loads generated ones), or point tideline__events_schema and tideline__events_table at your events table."),
    ("source without load_tstamp", {"tideline__events_table": "no_load_tstamp"}, [], {}, "tideline: the events source {bad}.no_load_tstamp is not Snowplow-shaped as tideline needs it: load_tstamp (timestamp) is missing. Load events first (make demo loads sample events; python -m tideline_tools.generate --help loads generated ones), or point tideline__events_schema and tideline__events_table at your events table."),
    ("source without derived_tstamp", {"tideline__events_table": "no_derived_tstamp"}, [], {}, "tideline: the events source {bad}.no_derived_tstamp is not Snowplow-shaped as tideline needs it: derived_tstamp (timestamp) is missing. Load events first (make demo loads sample events; python -m tideline_tools.generate --help loads generated ones), or point tideline__events_schema and tideline__events_table at your events table."),
    ("source with an int event_id", {"tideline__events_table": "event_id_int"}, [], {}, "tideline: the events source {bad}.event_id_int is not Snowplow-shaped as tideline needs it: event_id is int, not string. Load events first (make demo loads sample events; python -m tideline_tools.generate --help loads generated ones), or point tideline__events_schema and tideline__events_table at your events table."),
    ("source with a string load_tstamp", {"tideline__events_table": "load_tstamp_string"}, [], {}, "tideline: the events source {bad}.load_tstamp_string is not Snowplow-shaped as tideline needs it: load_tstamp is string, not timestamp. Load events first (make demo loads sample events; python -m tideline_tools.generate --help loads generated ones), or point tideline__events_schema and tideline__events_table at your events table."),
    ("source checked for a model on it only", {"tideline__events_table": "no_such_table"}, ["--select", "example_events_daily"], {}, "tideline: the events source {src}.no_such_table does not exist. Load events first (make demo loads sample events; python -m tideline_tools.generate --help loads generated ones), or point tideline__events_schema and tideline__events_table at your events table."),
    ("source checked for a model downstream", {"tideline__events_table": "no_such_table"}, ["--select", "user_attributes"], {}, "tideline: the events source {src}.no_such_table does not exist. Load events first (make demo loads sample events; python -m tideline_tools.generate --help loads generated ones), or point tideline__events_schema and tideline__events_table at your events table."),
    ("misspelt backfill_limit_days", {"tideline__backfil_limit_days": 3}, [], {}, "tideline: var tideline__backfil_limit_days is not a tideline var (did you mean tideline__backfill_limit_days?); known: tideline__app_id, "),
    ("misspelt start_date", {"tideline__start_dat": "2025-06-01"}, [], {}, "tideline: var tideline__start_dat is not a tideline var (did you mean tideline__start_date?); known: tideline__app_id, "),
    ("misspelt reprocess_days", {"tideline__reprocess_day": 3}, [], {}, "tideline: var tideline__reprocess_day is not a tideline var (did you mean tideline__reprocess_days?); known: tideline__app_id, "),
    ("misspelt min_rows_to_process", {"tideline__min_row_to_process": 3}, [], {}, "tideline: var tideline__min_row_to_process is not a tideline var (did you mean tideline__min_rows_to_process?); known: tideline__app_id, "),
    ("misspelt events_table", {"tideline__event_table": "events"}, [], {}, "tideline: var tideline__event_table is not a tideline var (did you mean tideline__events_table?); known: tideline__app_id, "),
    ("unknown tideline var", {"tideline__colour": "blue"}, [], {}, "tideline: var tideline__colour is not a tideline var (did you mean tideline__now?); known: tideline__app_id, "),
    ("partial --full-refresh", {}, ["--full-refresh", "--select", "tl_filtered_events"], {}, "tideline: --full-refresh of tl_filtered_events without the daily aggregates built on it (daily_page_activity, daily_user_activity) would leave them behind; refresh them together, e.g. dbt run --full-refresh --select tl_filtered_events+"),
    ("start_date null", {"tideline__start_date": None}, [], {}, "tideline: var tideline__start_date = null is invalid; accepted: a date written YYYY-MM-DD"),
    ("start_date empty", {"tideline__start_date": ""}, [], {}, "tideline: var tideline__start_date = \"\" is invalid; accepted: a date written YYYY-MM-DD"),
    ("start_date with a time", {"tideline__start_date": "2025-06-01 00:00:00"}, [], {}, "tideline: var tideline__start_date = \"2025-06-01 00:00:00\" is invalid; accepted: a date written YYYY-MM-DD"),
    ("reprocess_days a fraction", {"tideline__reprocess_days": 1.5}, [], {}, "tideline: var tideline__reprocess_days = 1.5 is invalid; accepted: an integer >= 0"),
    ("dedupe_lookback_days a string", {"tideline__dedupe_lookback_days": "3"}, [], {}, "tideline: var tideline__dedupe_lookback_days = \"3\" is invalid; accepted: an integer >= 0"),
    ("min_rows_to_process a list", {"tideline__min_rows_to_process": [1]}, [], {}, "tideline: var tideline__min_rows_to_process = [1] is invalid; accepted: an integer >= 1"),
    ("events_to_include with a null", {"tideline__events_to_include": [None]}, [], {}, "tideline: var tideline__events_to_include = [null] is invalid; accepted: a list of non-empty strings, [] for all"),
    ("attribute_key empty", {"tideline__attribute_key": ""}, [], {}, "tideline: var tideline__attribute_key = \"\" is invalid; accepted: a column name (letters, digits, underscores)"),
    ("events_schema empty", {"tideline__events_schema": ""}, [], {}, "tideline: var tideline__events_schema = \"\" is invalid; accepted: a schema or table name (letters, digits, underscores)"),
    ("events_table empty", {"tideline__events_table": ""}, [], {}, "tideline: var tideline__events_table = \"\" is invalid; accepted: a schema or table name (letters, digits, underscores)"),
    ("run_lock_minutes a word", {"tideline__run_lock_minutes": "ten"}, [], {}, "tideline: var tideline__run_lock_minutes = \"ten\" is invalid; accepted: an integer >= 1"),
    ("backfill_dates three dates", {"tideline__backfill_dates": ["2025-06-01", "2025-06-02", "2025-06-03"]}, ["--select", "daily_user_activity"], {}, "tideline: var tideline__backfill_dates = [\"2025-06-01\", \"2025-06-02\", \"2025-06-03\"] is invalid; accepted: [first, last]: two past dates YYYY-MM-DD, first <= last < today"),
    ("now a number", {"tideline__now": 20250606}, [], {}, "tideline: var tideline__now = 20250606 is invalid; accepted: a UTC time written YYYY-MM-DD[ HH:MM[:SS]] that exists on the calendar"),
    ("source without load_date", {"tideline__events_table": "no_load_date"}, [], {}, "tideline: the events source {bad}.no_load_date is not Snowplow-shaped as tideline needs it: load_date (date) is missing. Load events first (make demo loads sample events; python -m tideline_tools.generate --help loads generated ones), or point tideline__events_schema and tideline__events_table at your events table."),
    ("source without event_id", {"tideline__events_table": "no_event_id"}, [], {}, "tideline: the events source {bad}.no_event_id is not Snowplow-shaped as tideline needs it: event_id (string) is missing. Load events first (make demo loads sample events; python -m tideline_tools.generate --help loads generated ones), or point tideline__events_schema and tideline__events_table at your events table."),
    ("source with a date derived_tstamp", {"tideline__events_table": "derived_tstamp_date"}, [], {}, "tideline: the events source {bad}.derived_tstamp_date is not Snowplow-shaped as tideline needs it: derived_tstamp is date, not timestamp. Load events first (make demo loads sample events; python -m tideline_tools.generate --help loads generated ones), or point tideline__events_schema and tideline__events_table at your events table."),
    ("misspelt app_id", {"tideline__appid": ["web"]}, [], {}, "tideline: var tideline__appid is not a tideline var (did you mean tideline__app_id?); known: tideline__app_id, "),
    ("misspelt dedupe_lookback_days", {"tideline__dedup_lookback_days": 1}, [], {}, "tideline: var tideline__dedup_lookback_days is not a tideline var (did you mean tideline__dedupe_lookback_days?); known: tideline__app_id, "),
    ("misspelt prefix", {"tidline__start_date": "2025-06-01"}, [], {}, "tideline: var tidline__start_date is not a tideline var (did you mean tideline__start_date?); known: tideline__app_id, "),
    ("misspelt prefix, one underscore", {"tideline_reprocess_days": 3}, [], {}, "tideline: var tideline_reprocess_days is not a tideline var (did you mean tideline__reprocess_days?); known: tideline__app_id, "),
]


@pytest.fixture(scope="module")
def built(project):
    project.load(WORLD, until=dt.datetime(2025, 6, 6), cadence_seconds=3600)
    # the seed (seeds/tideline_event_catalog.csv) and the models, in one dbt call
    project.dbt("build", "--select", *PIPELINE, "--resource-type", "seed", "--resource-type", "model", vars=VARS)
    bad = project.schema + "_bad"
    project.runner.execute(f"drop schema if exists {bad} cascade")
    project.runner.execute(f"create schema {bad}")
    columns = project.runner.columns(f"select * from {project.events_table}")
    for name, change in BROKEN_SOURCES.items():
        if change.startswith("select * except_"):
            dropped = change.removeprefix("select * except_")
            select = ", ".join(c for c in columns if c != dropped)
        else:
            target = change.rsplit(" as ", 1)[1]
            select = ", ".join(change if c == target else c for c in columns)
        project.runner.execute(f"create table {bad}.{name} using parquet as select {select} from {project.events_table}")
    yield project.snapshot(project.schema + "_bad")
    project.runner.execute(f"drop schema if exists {bad} cascade")


@pytest.mark.parametrize("case, vars, args, env, expected", CASES, ids=[c[0] for c in CASES])
def test_a_bad_input_is_refused_by_name_and_changes_nothing(project, built, case, vars, args, env, expected):
    given = {**VARS, **vars}
    if "tideline__events_table" in vars and vars["tideline__events_table"] in BROKEN_SOURCES:
        given["tideline__events_schema"] = project.schema + "_bad"
    given = {k: v for k, v in given.items() if not (k == "tideline__now" and v is None)}
    saved = {k: os.environ.get(k) for k in env}
    os.environ.update(env)
    try:
        result = project.dbt("run", *(args or ["--select", *PIPELINE]), vars=given, expect_success=False)
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
    text = "\n".join(result.messages)
    message = next((line.strip() for line in text.splitlines() if "tideline: " in line), text.strip().splitlines()[0])
    unchanged = project.snapshot(project.schema + "_bad") == built
    print(f"\n| {case} | {message[:160]} | {'yes' if unchanged else 'NO'} |")
    assert not result.success, case
    assert expected.format(src=project.source_schema, bad=project.schema + "_bad") in text, text
    assert unchanged, case


def test_compile_without_a_source_says_how_to_load_events(project, built):
    result = project.dbt("compile", "--select", "tl_filtered_events",
                         vars={**VARS, "tideline__events_table": "no_such_table"}, expect_success=False)
    text = "\n".join(result.messages)
    assert not result.success
    assert "no_such_table does not exist. Load events first (make demo loads sample events" in text, text
    assert project.snapshot(project.schema + "_bad") == built

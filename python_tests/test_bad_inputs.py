"""Contract 4: every bad input is refused by name before anything is touched.

A pipeline is built once; then each bad input (a var, a source that is missing or misshapen,
a now before the watermark, a partial --full-refresh) is given to `dbt run`, and each case
checks the message and that no table, no file and no schema changed. Run with -s to print
the table of cases (case, message, nothing changed).
"""

from __future__ import annotations

import datetime as dt
import json
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
    # (case, vars, extra dbt args, environment, expected text of the message)
    ("start_date not on the calendar", {"tideline__start_date": "2025-02-30"}, [], {}, "var tideline__start_date = \"2025-02-30\" is invalid"),
    ("start_date month 13", {"tideline__start_date": "2025-13-01"}, [], {}, "var tideline__start_date"),
    ("start_date in another format", {"tideline__start_date": "01/06/2025"}, [], {}, "a date written YYYY-MM-DD"),
    ("start_date a number", {"tideline__start_date": 20250601}, [], {}, "var tideline__start_date = 20250601"),
    ("start_date after now", {"tideline__start_date": "2025-06-07"}, [], {}, "a date on or before now (2025-06-06 00:00:00 UTC)"),
    ("backfill_limit_days 0", {"tideline__backfill_limit_days": 0}, [], {}, "var tideline__backfill_limit_days = 0 is invalid; accepted: an integer >= 1"),
    ("backfill_limit_days negative", {"tideline__backfill_limit_days": -3}, [], {}, "var tideline__backfill_limit_days = -3"),
    ("backfill_limit_days a string", {"tideline__backfill_limit_days": "7"}, [], {}, "var tideline__backfill_limit_days = \"7\""),
    ("backfill_limit_days a fraction", {"tideline__backfill_limit_days": 1.5}, [], {}, "var tideline__backfill_limit_days = 1.5"),
    ("backfill_limit_days a boolean", {"tideline__backfill_limit_days": True}, [], {}, "var tideline__backfill_limit_days = true"),
    ("reprocess_days negative", {"tideline__reprocess_days": -1}, [], {}, "var tideline__reprocess_days = -1 is invalid; accepted: an integer >= 0"),
    ("reprocess_days a word", {"tideline__reprocess_days": "week"}, [], {}, "var tideline__reprocess_days = \"week\""),
    ("min_rows_to_process 0", {"tideline__min_rows_to_process": 0}, [], {}, "var tideline__min_rows_to_process = 0"),
    ("min_rows_to_process null", {"tideline__min_rows_to_process": None}, [], {}, "var tideline__min_rows_to_process = null"),
    ("dedupe_lookback_days negative", {"tideline__dedupe_lookback_days": -1}, [], {}, "var tideline__dedupe_lookback_days = -1"),
    ("app_id a string", {"tideline__app_id": "website"}, [], {}, "var tideline__app_id = \"website\" is invalid; accepted: a list of strings"),
    ("app_id a list of numbers", {"tideline__app_id": [1]}, [], {}, "var tideline__app_id = [1]"),
    ("app_id an empty name", {"tideline__app_id": [""]}, [], {}, "a list of non-empty strings"),
    ("events_to_include a string", {"tideline__events_to_include": "page_view"}, [], {}, "var tideline__events_to_include = \"page_view\""),
    ("events_to_include a mapping", {"tideline__events_to_include": {"a": 1}}, [], {}, "var tideline__events_to_include"),
    ("attribute_key with a space", {"tideline__attribute_key": "user id"}, [], {}, "var tideline__attribute_key = \"user id\" is invalid; accepted: a column name"),
    ("attribute_key a number", {"tideline__attribute_key": 5}, [], {}, "var tideline__attribute_key = 5"),
    ("attribute_key no such column", {"tideline__attribute_key": "no_such_column"}, [], {}, "var tideline__attribute_key = \"no_such_column\" is invalid; accepted: a column of"),
    ("now a word", {"tideline__now": "yesterday"}, [], {}, "var tideline__now = \"yesterday\" is invalid; accepted: a UTC time"),
    ("now not on the calendar", {"tideline__now": "2025-02-30"}, [], {}, "var tideline__now = \"2025-02-30\" is invalid"),
    ("now hour 25", {"tideline__now": "2026-11-22 25:61"}, [], {}, "var tideline__now = \"2026-11-22 25:61\" is invalid"),
    ("now minute 60", {"tideline__now": "2025-06-06 12:60"}, [], {}, "var tideline__now = \"2025-06-06 12:60\""),
    ("now with a zone", {"tideline__now": "2025-06-06T00:00:00+02:00"}, [], {}, "var tideline__now"),
    ("TIDELINE_NOW not on the calendar", {"tideline__now": None}, [], {"TIDELINE_NOW": "2025-06-31"}, "TIDELINE_NOW (environment) = \"2025-06-31\" is invalid"),
    ("now before the watermark", {"tideline__now": "2025-06-04 00:00:00"}, [], {}, "is before the watermark of daily_page_activity (2025-06-06 00:00:00), daily_user_activity (2025-06-06 00:00:00), tl_filtered_events ("),
    ("now before the watermark, aggregates only", {"tideline__now": "2025-06-04 00:00:00"}, ["--select", "daily_user_activity"], {}, "is before the watermark of daily_user_activity (2025-06-06 00:00:00):"),
    ("backfill_dates one date", {"tideline__backfill_dates": ["2025-06-02"]}, ["--select", "daily_user_activity"], {}, "var tideline__backfill_dates = [\"2025-06-02\"]"),
    ("backfill_dates reversed", {"tideline__backfill_dates": ["2025-06-03", "2025-06-01"]}, ["--select", "daily_user_activity"], {}, "first <= last < today"),
    ("backfill_dates up to today", {"tideline__backfill_dates": ["2025-06-01", "2025-06-06"]}, ["--select", "daily_user_activity"], {}, "var tideline__backfill_dates"),
    ("backfill_dates a string", {"tideline__backfill_dates": "2025-06-01"}, ["--select", "daily_user_activity"], {}, "var tideline__backfill_dates = \"2025-06-01\""),
    ("backfill_dates not on the calendar", {"tideline__backfill_dates": ["2025-06-01", "2025-06-31"]}, ["--select", "daily_user_activity"], {}, "var tideline__backfill_dates"),
    ("run_lock_minutes 0", {"tideline__run_lock_minutes": 0}, [], {}, "var tideline__run_lock_minutes = 0"),
    ("events_schema with SQL in it", {"tideline__events_schema": "x; drop table y"}, [], {}, "var tideline__events_schema = \"x; drop table y\" is invalid; accepted: a schema or table name"),
    ("events_table with SQL in it", {"tideline__events_table": "events; drop table x"}, [], {}, "var tideline__events_table = \"events; drop table x\" is invalid"),
    ("events_table with a dot", {"tideline__events_table": "other.events"}, [], {}, "var tideline__events_table = \"other.events\""),
    ("events_table that does not exist", {"tideline__events_table": "no_such_table"}, [], {}, "no_such_table does not exist. Load events first (make demo"),
    ("events_schema that does not exist", {"tideline__events_schema": "no_such_schema"}, [], {}, "no_such_schema.events does not exist"),
    ("source without load_tstamp", {"tideline__events_table": "no_load_tstamp"}, [], {}, "load_tstamp (timestamp) is missing"),
    ("source without derived_tstamp", {"tideline__events_table": "no_derived_tstamp"}, [], {}, "derived_tstamp (timestamp) is missing"),
    ("source with an int event_id", {"tideline__events_table": "event_id_int"}, [], {}, "event_id is int, not string"),
    ("source with a string load_tstamp", {"tideline__events_table": "load_tstamp_string"}, [], {}, "load_tstamp is string, not timestamp"),
    ("source checked for a model on it only", {"tideline__events_table": "no_such_table"}, ["--select", "example_events_daily"], {}, "does not exist"),
    ("source checked for a model downstream", {"tideline__events_table": "no_such_table"}, ["--select", "user_attributes"], {}, "does not exist"),
    ("misspelt backfill_limit_days", {"tideline__backfil_limit_days": 3}, [], {}, "tideline__backfil_limit_days is not a tideline var (did you mean tideline__backfill_limit_days?)"),
    ("misspelt start_date", {"tideline__start_dat": "2025-06-01"}, [], {}, "(did you mean tideline__start_date?)"),
    ("misspelt reprocess_days", {"tideline__reprocess_day": 3}, [], {}, "(did you mean tideline__reprocess_days?)"),
    ("misspelt min_rows_to_process", {"tideline__min_row_to_process": 3}, [], {}, "(did you mean tideline__min_rows_to_process?)"),
    ("misspelt events_table", {"tideline__event_table": "events"}, [], {}, "(did you mean tideline__events_table?)"),
    ("unknown tideline var", {"tideline__colour": "blue"}, [], {}, "tideline__colour is not a tideline var"),
    ("partial --full-refresh", {}, ["--full-refresh", "--select", "tl_filtered_events"], {}, "would leave them behind"),
    ("start_date null", {"tideline__start_date": None}, [], {}, "var tideline__start_date = null is invalid"),
    ("start_date empty", {"tideline__start_date": ""}, [], {}, "var tideline__start_date = \"\" is invalid"),
    ("start_date with a time", {"tideline__start_date": "2025-06-01 00:00:00"}, [], {}, "var tideline__start_date = \"2025-06-01 00:00:00\""),
    ("reprocess_days a fraction", {"tideline__reprocess_days": 1.5}, [], {}, "var tideline__reprocess_days = 1.5"),
    ("dedupe_lookback_days a string", {"tideline__dedupe_lookback_days": "3"}, [], {}, "var tideline__dedupe_lookback_days = \"3\""),
    ("min_rows_to_process a list", {"tideline__min_rows_to_process": [1]}, [], {}, "var tideline__min_rows_to_process = [1]"),
    ("events_to_include with a null", {"tideline__events_to_include": [None]}, [], {}, "var tideline__events_to_include = [null]"),
    ("attribute_key empty", {"tideline__attribute_key": ""}, [], {}, "var tideline__attribute_key = \"\" is invalid"),
    ("events_schema empty", {"tideline__events_schema": ""}, [], {}, "var tideline__events_schema = \"\" is invalid"),
    ("events_table empty", {"tideline__events_table": ""}, [], {}, "var tideline__events_table = \"\" is invalid"),
    ("run_lock_minutes a word", {"tideline__run_lock_minutes": "ten"}, [], {}, "var tideline__run_lock_minutes = \"ten\""),
    ("backfill_dates three dates", {"tideline__backfill_dates": ["2025-06-01", "2025-06-02", "2025-06-03"]}, ["--select", "daily_user_activity"], {}, "var tideline__backfill_dates"),
    ("now a number", {"tideline__now": 20250606}, [], {}, "var tideline__now = 20250606"),
    ("source without load_date", {"tideline__events_table": "no_load_date"}, [], {}, "load_date (date) is missing"),
    ("source without event_id", {"tideline__events_table": "no_event_id"}, [], {}, "event_id (string) is missing"),
    ("source with a date derived_tstamp", {"tideline__events_table": "derived_tstamp_date"}, [], {}, "derived_tstamp is date, not timestamp"),
    ("misspelt app_id", {"tideline__appid": ["web"]}, [], {}, "(did you mean tideline__app_id?)"),
    ("misspelt dedupe_lookback_days", {"tideline__dedup_lookback_days": 1}, [], {}, "(did you mean tideline__dedupe_lookback_days?)"),
    ("misspelt prefix", {"tidline__start_date": "2025-06-01"}, [], {}, "tidline__start_date is not a tideline var (did you mean tideline__start_date?)"),
    ("misspelt prefix, one underscore", {"tideline_reprocess_days": 3}, [], {}, "(did you mean tideline__reprocess_days?)"),
]


@pytest.fixture(scope="module")
def built(project):
    project.load(WORLD, until=dt.datetime(2025, 6, 6), cadence_seconds=3600)
    project.dbt("run", "--select", *PIPELINE, vars=VARS)
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
    assert expected in text, text
    for line in rule_lines(vars, expected):
        assert line in text, (line, text)
    assert unchanged, case


def rule_lines(vars: dict, expected: str) -> list[str]:
    """What the rule's message must say beyond the case's own text, derived from the case: a bad
    value of one tideline var is named with its value as JSON and what is accepted; a name that
    is not a tideline var is named as such."""
    if expected.startswith("var ") and len(vars) == 1:
        (key, value), = vars.items()
        return [f"tideline: var {key} = {json.dumps(value)} is invalid; accepted: "]
    if "is not a tideline var" in expected or "(did you mean" in expected:
        (key, _), = vars.items()
        return [f"tideline: var {key} is not a tideline var (did you mean tideline__"]
    return []


def test_compile_without_a_source_says_how_to_load_events(project, built):
    result = project.dbt("compile", "--select", "tl_filtered_events",
                         vars={**VARS, "tideline__events_table": "no_such_table"}, expect_success=False)
    text = "\n".join(result.messages)
    assert not result.success
    assert "no_such_table does not exist. Load events first (make demo loads sample events" in text, text
    assert project.snapshot(project.schema + "_bad") == built

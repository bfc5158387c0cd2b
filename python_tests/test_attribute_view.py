"""Attribute views: the declared view (models/examples/user_signals.yml) generates a daily
aggregate and an attributes table that equal an independent Python reference
(python_tests/reference_attributes.py) after every run of a multi-run scenario with late and
duplicate events, with the current day included or not and a reference day apart from now;
the generated SQL is what a user would write (it passes sqlfluff); a view in a project that uses
tideline as a package; and every bad definition refused at compile time, naming the view and
the attribute."""

from __future__ import annotations

import dataclasses
import datetime as dt
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

import reference_attributes as ref_attrs
from harness import project_copy
from reference import EVENT_COLUMNS, Pipeline, Settings
from tideline_tools.generator import EVENT_COLUMNS as EVENT_COLUMNS_TYPES
from tideline_tools.generator import EventWorld

ROOT = Path(__file__).resolve().parent.parent
CONSUMER = Path(__file__).parent / "consumer_project"
BAD_VIEWS = CONSUMER / "models" / "bad_views"
VIEW = ref_attrs.view_of(ROOT / "models/examples/user_signals.yml", "user_signals")
CONSUMER_VIEW = ref_attrs.view_of(CONSUMER / "models/consumer_signals.yml", "consumer_signals")
# the same kind of view as Snowplow Signals exports it, read by the reference's own translation
SIGNALS_EXPORT = ref_attrs.view_of(CONSUMER / "models/consumer_signals_export.yml", "consumer_signals_export")
SIGNALS_VIEW = ref_attrs.view_from_signals(SIGNALS_EXPORT)
WORLD = EventWorld(
    seed=77, start=dt.datetime(2025, 5, 1), days=9, events_per_day=90, users=12,
    late_share=0.12, max_late_days=3, duplicate_share=0.03, reload_share=0.03, reload_after_days=2,
    pre_start_share=0.02, pre_start_days=2, bot_share=0.05, bot_users=1,
)
# Late rows below min_rows_to_process or past reprocess_days stay skipped: the attributes
# reflect what the daily aggregate reflects, as the reference's Pipeline tracks it.
SETTINGS = Settings(start_date=dt.date(2025, 5, 1), reprocess_days=2, min_rows_to_process=2)
SELECT = ["tl_filtered_events", "user_signals_daily", "user_signals"]


def events(project, view: dict) -> list[dict]:
    """The source rows with the pipeline's columns and every path the view reads."""
    extra = [c for c in ref_attrs.paths(view) + list(ref_attrs.BASE_COLUMNS) if c not in EVENT_COLUMNS]
    extra = list(dict.fromkeys(extra))
    names = list(EVENT_COLUMNS) + extra
    rows = project.rows(f"select {', '.join(EVENT_COLUMNS)}, {', '.join(f'{c} as `{c}`' for c in extra)} from {project.events_table}")
    return [dict(zip(names, r)) for r in rows]


def has_filtered_events(project) -> bool:
    return any(r[0] == project.schema for r in project.rows("show schemas")) and bool(
        project.rows(f"show tables in {project.schema} like 'tl_filtered_events'"))


def reflected(pipeline: Pipeline) -> list[dict]:
    return [pipeline.filtered[eid] for ids in pipeline.reflected.values() for eid in ids]


def test_the_declared_view_equals_the_reference_after_every_run(project):
    pipeline = Pipeline(SETTINGS)
    now = dt.datetime(2025, 5, 2, 5)
    run = 0
    while now <= dt.datetime(2025, 5, 12, 5):
        project.load(WORLD, until=now, cadence_seconds=3600)
        include = run % 2 == 0
        as_of = now - dt.timedelta(days=2, hours=3) if run % 3 == 2 else None
        run_vars = {**SETTINGS.vars(), "tideline__now": str(now), "tideline__include_current_day": include}
        if as_of:
            run_vars["tideline__attributes_as_of"] = as_of.strftime("%Y-%m-%d %H:%M")
        project.dbt("run", "--select", *SELECT, vars=run_vars)
        pipeline.run(events(project, VIEW), now)
        expected = ref_attrs.attributes(VIEW, reflected(pipeline), (as_of or now).date(), include)
        assert expected, "the scenario should give attributes"
        project.assert_table_equals("user_signals", expected)
        run += 1
        now += dt.timedelta(hours=31)
    assert run >= 7
    assert sum(pipeline.skipped.values()) > 0, "the scenario should leave late rows skipped"
    # every aggregation, operator and period kind is in the view this test compares
    attrs = VIEW["attributes"]
    assert {a["aggregation"] for a in attrs} == {"counter", "sum", "min", "max", "mean", "first", "last", "unique_list"}
    operators = {c["operator"] for a in attrs for items in (a.get("criteria") or {}).values() for c in items}
    assert operators == {"=", "!=", "<", "<=", ">", ">=", "like", "in", "is null", "is not null"}
    assert {(a.get("period") or "lifetime")[-1] for a in attrs} == {"D", "W", "H", "e"}


def test_the_generated_models_pass_sqlfluff_and_the_attributes_read_only_the_daily_aggregate(project):
    if not has_filtered_events(project):
        project.load(WORLD, until=dt.datetime(2025, 5, 3), cadence_seconds=3600)
        project.dbt("run", "--select", "tl_filtered_events", vars={**SETTINGS.vars(), "tideline__now": "2025-05-03"})
    settings = {**SETTINGS.vars(), "tideline__now": "2025-05-12 05:00"}
    project.dbt("compile", "--select", "user_signals_daily", "user_signals", vars=settings)
    compiled = project.target_path(vars=settings) / "compiled/tideline/models/examples"
    lint_dir = ROOT / "target/attribute_view_lint"
    shutil.rmtree(lint_dir, ignore_errors=True)
    lint_dir.mkdir(parents=True)
    for name in ("user_signals_daily", "user_signals"):
        # dbt writes the compiled file without its final newline
        (lint_dir / f"{name}.sql").write_text((compiled / f"{name}.sql").read_text().rstrip("\n") + "\n")
    attributes_sql = (lint_dir / "user_signals.sql").read_text()
    assert "user_signals_daily" in attributes_sql and "tl_filtered_events" not in attributes_sql
    assert "event_date between date '2025-05-06' and date '2025-05-12'" in attributes_sql   # P7D, today included
    # The project's sqlfluff settings, less RF03: sqlfluff reads a struct field (col.field) as a
    # table qualifier, and then calls the other, plain columns inconsistent.
    lint = subprocess.run(
        [str(Path(sys.executable).parent / "sqlfluff"), "lint", "--templater", "raw", "--disregard-sqlfluffignores",
         "--exclude-rules", "RF03,LT05,ST06", str(lint_dir)],
        cwd=ROOT, capture_output=True, text=True)
    assert lint.returncode == 0, lint.stdout + lint.stderr


def test_a_view_in_a_project_that_uses_the_package_with_complete_days_only(project):
    """A user project's views, complete days only: one in tideline's form, one pasted as
    Snowplow Signals exports it (issue 37, item 1: its entity, Snowflake-syntax and object
    properties, periods as the SDK writes them, default values, keys a batch table leaves aside)
    with Signals' first and last (item 2, first_last: view_events) and lateness rules of its own
    (the daily aggregate's config reprocess_days and min_rows_to_process, a bad one refused with
    nothing changed), each equal to the reference after every run."""
    project.reset()
    project.load(WORLD, until=dt.datetime(2025, 5, 8, 12), cadence_seconds=3600)
    project.dbt("deps", project_dir=CONSUMER)
    # the export's daily aggregate sets its own lateness rules (config reprocess_days: 1,
    # min_rows_to_process: 3, Signals' lookback mapped), the vars stay those of SETTINGS
    signals_settings = dataclasses.replace(SETTINGS, reprocess_days=1, min_rows_to_process=3)
    pipeline, signals_pipeline = Pipeline(SETTINGS), Pipeline(signals_settings)
    for now in (dt.datetime(2025, 5, 6, 23), dt.datetime(2025, 5, 8, 12)):
        project.dbt("run", "--select", "tl_filtered_events", "consumer_signals_daily", "consumer_signals",
                    "consumer_signals_export_daily", "consumer_signals_export",
                    vars={**SETTINGS.vars(), "tideline__now": str(now)}, project_dir=CONSUMER)
        pipeline.run(events(project, CONSUMER_VIEW), now)
        expected = ref_attrs.attributes(CONSUMER_VIEW, reflected(pipeline), now.date())
        project.assert_table_equals("consumer_signals", expected)
        signals_pipeline.run(events(project, SIGNALS_VIEW), now)
        signals_expected = ref_attrs.attributes(SIGNALS_VIEW, reflected(signals_pipeline), now.date())
        project.assert_table_equals("consumer_signals_export", signals_expected)
    assert any(r["page_views_yesterday"] for r in expected) and any(r["pages_last_2_days"] for r in expected)
    # every translated part and both kinds of default are in the rows compared
    for name in ("last_page_view_id", "link_targets_last_week", "largest_euro_order_last_week"):
        assert any(r[name] not in (None, [], 0) for r in signals_expected), name
    assert any(r["pages_last_2_days"] == ["(none)"] for r in signals_expected)
    # first_last: view_events matters here: over the attribute's own events the rows differ
    own_events = ref_attrs.attributes({**SIGNALS_VIEW, "first_last": "attribute_events"}, reflected(signals_pipeline), now.date())
    assert own_events != signals_expected
    # and so do the model's own lateness rules: the two aggregates skipped different late rows
    assert signals_pipeline.skipped != pipeline.skipped
    project.refused(
        "tideline: model consumer_signals_export_daily: config reprocess_days = -1 is invalid; accepted: an integer >= 0 "
        "(how many days before now a late date is still reprocessed; default the var tideline__reprocess_days)",
        lambda: project.dbt("run", "--select", "consumer_signals_export_daily", project_dir=CONSUMER, expect_success=False,
                            vars={**SETTINGS.vars(), "tideline__now": "2025-05-08 13:00", "consumer_late_event_lookback_days": -1}))
    assert any(r["largest_euro_order_last_week"] == 0 for r in signals_expected)


# A bad definition each: (name, attribute as YAML, needs the daily model (checked against the
# events), the rule's whole message after "tideline: attribute view bad_<name>, attribute attr_<name>: ").
PAGE_VIEW = [{"vendor": "com.snowplowanalytics.snowplow", "name": "page_view"}]
TRANSACTION = [{"vendor": "com.snowplowanalytics.snowplow", "name": "transaction"}]
BAD = [
    ("unknown_aggregation", {"type": "int64", "events": PAGE_VIEW, "aggregation": "countr"}, False,
     "unknown aggregation \"countr\"; accepted: counter, sum, min, max, mean, first, last, unique_list"),
    ("unknown_operator", {"type": "int64", "events": PAGE_VIEW, "aggregation": "counter",
                          "criteria": {"all": [{"property": "page_urlpath", "operator": "<>", "value": "/"}]}}, False,
     "criterion {\"property\": \"page_urlpath\", \"operator\": \"<>\", \"value\": \"/\"}: unknown operator \"<>\"; accepted: =, !=, <, <=, >, >=, like, in, is null, is not null"),
    ("missing_property", {"type": "double", "events": TRANSACTION, "aggregation": "sum"}, False,
     "aggregation sum needs a property (a column, or a path such as contexts_x_1[0].field)"),
    ("counter_with_property", {"type": "int64", "events": PAGE_VIEW, "aggregation": "counter", "property": "page_urlpath"}, False,
     "a counter counts events and takes no property (got \"page_urlpath\"); narrow the events with criteria instead"),
    ("type_for_aggregation", {"type": "string", "events": TRANSACTION, "aggregation": "sum", "property": "tr_total"}, False,
     "type string does not fit aggregation sum; accepted: int32, int64, float or double"),
    ("not_iso_period", {"type": "int64", "events": PAGE_VIEW, "aggregation": "counter", "period": "7 days"}, False,
     "period \"7 days\" is not an ISO-8601 duration; accepted: PnD (days), PnW (weeks) or PTnH with n a multiple of 24; none for the lifetime"),
    ("sub_day_period", {"type": "int64", "events": PAGE_VIEW, "aggregation": "counter", "period": "PT1H"}, False,
     "period PT1H is shorter than, or not a whole number of, days: sub-day periods are not supported (the daily aggregate keeps whole days); use PnD"),
    ("month_period", {"type": "int64", "events": PAGE_VIEW, "aggregation": "counter", "period": "P1M"}, False,
     "period \"P1M\" is not supported; accepted: PnD (days), PnW (weeks) or PTnH with n a multiple of 24 (years and months have no fixed length; hours, minutes and seconds are finer than the daily aggregate's days); none for the lifetime"),
    ("empty_events", {"type": "int64", "events": [], "aggregation": "counter"}, False,
     "events must be a non-empty list of {vendor, name, version}"),
    ("missing_column", {"type": "double", "events": TRANSACTION, "aggregation": "max", "property": "no_such_column"}, True,
     "property no_such_column is not in the events (no such column or field in tl_filtered_events)"),
    ("missing_field", {"type": "string", "events": PAGE_VIEW, "aggregation": "last",
                       "property": "unstruct_event_com_snowplowanalytics_snowplow_link_click_1.nope"}, True,
     "property unstruct_event_com_snowplowanalytics_snowplow_link_click_1.nope is not in the events (no such column or field in tl_filtered_events)"),
    ("value_type", {"type": "int64", "events": TRANSACTION, "aggregation": "counter",
                    "criteria": {"any": [{"property": "tr_total", "operator": ">", "value": "ten"}]}}, True,
     "criterion tr_total > \"ten\": value \"ten\" does not fit tr_total, which is double (a number is needed)"),
    ("like_on_number", {"type": "int64", "events": PAGE_VIEW, "aggregation": "counter",
                        "criteria": {"all": [{"property": "pp_yoffset_max", "operator": "like", "value": "1%"}]}}, True,
     "criterion pp_yoffset_max like \"1%\": operator like does not apply to pp_yoffset_max, which is integer; accepted: =, !=, <, <=, >, >=, in, is null, is not null"),
    ("sum_of_text", {"type": "double", "events": PAGE_VIEW, "aggregation": "sum", "property": "page_urlpath"}, True,
     "property page_urlpath is string, which aggregation sum cannot add up (it needs a number)"),
]


def test_bad_definitions_are_refused_naming_the_view_and_the_attribute(project):
    project.dbt("deps", project_dir=CONSUMER)
    if not has_filtered_events(project):
        project.load(WORLD, until=dt.datetime(2025, 5, 3), cadence_seconds=3600)
        project.dbt("run", "--select", "tl_filtered_events", vars={**SETTINGS.vars(), "tideline__now": "2025-05-03"},
                    project_dir=CONSUMER)
    shutil.rmtree(BAD_VIEWS, ignore_errors=True)
    BAD_VIEWS.mkdir()
    try:
        models = []
        for name, attribute, daily, _ in BAD:
            view = {"name": f"bad_{name}", "attribute_key": "domain_userid",
                    "attributes": [{"name": "ok", "type": "int64", "events": PAGE_VIEW, "aggregation": "counter"},
                                   {"name": f"attr_{name}", **attribute}]}
            models.append({"name": f"bad_{name}", "config": {"meta": {"attribute_view": view}}})
            (BAD_VIEWS / f"bad_{name}.sql").write_text("{{ tideline.attribute_view_table('consumer_signals_daily') }}\n")
            if daily:
                (BAD_VIEWS / f"bad_{name}_daily.sql").write_text(f"{{{{ tideline.attribute_view_daily_aggregate('bad_{name}') }}}}\n")
        duplicate = {"name": "bad_duplicate_names", "attribute_key": "domain_userid", "attributes": [
            {"name": "views", "type": "int64", "events": PAGE_VIEW, "aggregation": "counter"},
            {"name": "Views", "type": "int64", "events": PAGE_VIEW, "aggregation": "counter", "period": "P7D"}]}
        models.append({"name": "bad_duplicate_names", "config": {"meta": {"attribute_view": duplicate}}})
        (BAD_VIEWS / "bad_duplicate_names.sql").write_text("{{ tideline.attribute_view_table('consumer_signals_daily') }}\n")
        (BAD_VIEWS / "bad_views.yml").write_text(yaml.safe_dump({"version": 2, "models": models}, sort_keys=False))

        # dbt compile stops at its first error; dbt run reports each node's and goes on
        selected = [f"bad_{name}_daily" if daily else f"bad_{name}" for name, _, daily, _ in BAD] + ["bad_duplicate_names"]
        result = project.refused("tideline: attribute view bad_duplicate_names, attribute Views: the name Views is used twice; "
                                 "attribute names must be unique",
                                 lambda: project.dbt("run", "--select", *selected, vars={"tideline__now": "2025-05-03"},
                                                     project_dir=CONSUMER, expect_success=False))
        statuses = {n: s for n, s in result.node_status().items() if n.startswith("bad_")}
        assert set(statuses) == set(selected) and set(statuses.values()) == {"error"}, statuses
        output = "\n".join(result.messages)
        for name, _, daily, message in BAD:
            assert f"tideline: attribute view bad_{name}, attribute attr_{name}: {message}" in output, (name, output[-3000:])
    finally:
        shutil.rmtree(BAD_VIEWS, ignore_errors=True)


def dbt_without_spark(project_dir: Path, target: Path | None, *args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    """A dbt command as a user runs it, where Spark cannot start (JAVA_HOME names no Java)."""
    dbt = str(Path(sys.executable).parent / "dbt")
    return subprocess.run([dbt, *args, "--project-dir", str(project_dir), "--profiles-dir", str(ROOT / "profiles"),
                           "--target", "local", *(["--target-path", str(target)] if target else [])],
                          env={**os.environ, "JAVA_HOME": "/nonexistent-java", **(env or {})}, capture_output=True, text=True, cwd=project_dir)


@pytest.mark.extended   # make test: the views tool's models, which the check command accepts (test_the_signals_views_tool_...)
def test_the_check_command_checks_views_and_prints_their_sql_without_spark(project, tmp_path):
    """`dbt run-operation tideline.check_attribute_views` (issue 37, item 3) where Spark cannot
    start (a statement there fails), beside this process's Spark, which holds the data folder's
    lock (the check takes none): the package's view checked with its attributes table's SQL
    printed; a user project's view with the events' columns given, its daily aggregate's SQL
    too; a view naming a column the given columns lack, edited definitions (a misspelt key, with
    the closest known one; an unknown aggregation) and an unknown view name refused by name."""
    check = ("run-operation", "tideline.check_attribute_views")
    # the control: a statement needs Spark, which cannot start here (in a data folder of its
    # own: this process's Spark holds the project's, as a dbt run beside the check would)
    control = dbt_without_spark(ROOT, tmp_path / "t0", "run-operation", "tideline.query_rows", "--args", "{sql: select 1}",
                                env={"TIDELINE_DATA_DIR": str(tmp_path / "data")})
    assert control.returncode != 0 and "nonexistent-java" in control.stdout + control.stderr, (control.stdout + control.stderr)[-3000:]

    result = dbt_without_spark(ROOT, tmp_path / "t1", *check)
    assert result.returncode == 0, result.stdout[-3000:]
    assert "tideline: attribute view user_signals: 17 attributes checked (properties and criteria are checked" in result.stdout
    assert re.search(r"from \S+\.user_signals_daily\s+where event_date <= date", result.stdout), result.stdout[-3000:]

    result = dbt_without_spark(ROOT, tmp_path / "t1", *check, "--args", "{columns: {domain_userid: string}}")
    assert result.returncode != 0
    assert ("tideline: attribute view user_signals, attribute product_views_last_week: criterion page_urlpath like "
            "\"/products/%\": property page_urlpath is not in the events") in result.stdout, result.stdout[-3000:]

    consumer = project_copy(CONSUMER, tmp_path / "consumer", {})
    assert dbt_without_spark(consumer, None, "deps").returncode == 0
    columns = "{" + ", ".join(f"{p}: string" for p in ref_attrs.paths(CONSUMER_VIEW)) + "}"
    result = dbt_without_spark(consumer, tmp_path / "t2", *check, "--args", f"{{views: [consumer_signals], columns: {columns}}}")
    assert result.returncode == 0, result.stdout[-3000:]
    assert "-- daily aggregate of attribute view consumer_signals" in result.stdout
    assert "tideline: attribute view consumer_signals: 3 attributes checked\n" in result.stdout

    result = dbt_without_spark(consumer, tmp_path / "t2", *check, "--args", "{views: [consumer_signal]}")
    assert result.returncode != 0
    assert "tideline: check_attribute_views: there is no attribute view \"consumer_signal\" (views: consumer_signals, consumer_signals_export)" in result.stdout

    path = consumer / "models" / "consumer_signals.yml"
    text = path.read_text()
    path.write_text(text.replace("aggregation: counter", "aggregation: counter\n              perod: P1D"))
    result = dbt_without_spark(consumer, tmp_path / "t2", *check)
    assert result.returncode != 0
    assert ("tideline: attribute view consumer_signals, attribute page_views_yesterday: the attribute has an unknown key "
            "\"perod\" (did you mean period?; keys: name, type, events, aggregation, property, criteria, period, default_value, description)"
            ) in result.stdout, result.stdout[-3000:]
    path.write_text(text.replace("aggregation: unique_list", "aggregation: unique_lists"))
    result = dbt_without_spark(consumer, tmp_path / "t2", *check)
    assert result.returncode != 0
    assert ("tideline: attribute view consumer_signals, attribute pages_last_2_days: unknown aggregation \"unique_lists\"; "
            "accepted: counter, sum, min, max, mean, first, last, unique_list") in result.stdout, result.stdout[-3000:]


# The filtered events' columns as the check command takes them (nested fields as a.b).
EVENTS_COLUMNS = {**{name: type_ for name, type_ in EVENT_COLUMNS_TYPES if "<" not in type_},
                  "contexts_com_snowplowanalytics_snowplow_web_page_1.element.id": "string",
                  "unstruct_event_com_snowplowanalytics_snowplow_link_click_1.target_url": "string"}


def as_signals_export(view: dict, name: str) -> dict:
    """A view in tideline's form as Snowplow Signals' SDK exports the same view (a View dumped
    to JSON: its entity, every key an attribute has, periods as pydantic writes a timedelta)."""
    days = {p: ref_attrs.period_days(p) for p in {a.get("period") for a in view["attributes"]}}
    return {"name": name, "version": 1, "entity": {"name": "user"}, "ttl": None, "batch_source": None, "online": True,
            "offline": True, "description": None, "tags": None, "owner": None, "fields": None, "is_published": False,
            "attributes": [{
                "name": a["name"], "description": None, "type": a["type"], "tags": None,
                "events": [{"vendor": e["vendor"], "name": e["name"], "version": e.get("version")} for e in a["events"]],
                "aggregation": a["aggregation"], "property_syntax": "databricks", "property": a.get("property"),
                "criteria": {"all": None, "any": None, **(a.get("criteria") or {})},   # no criteria: both null
                "period": None if a.get("period") is None else f"P{days[a['period']]}D", "default_value": None,
            } for a in view["attributes"]]}


@pytest.mark.extended   # make test: the check command (test_the_check_command_...) and the views tool (test_the_signals_views_tool_...)
def test_a_signals_export_gives_the_same_models_and_what_tideline_cannot_compute_is_refused(tmp_path):
    """Issue 37, item 1, without Spark (the check command): the package's view of 17 attributes,
    exported as Signals writes it and pasted as it is, gives the same daily aggregate and
    attributes table SQL as tideline's own form (criteria written as Signals does, the unused one
    null, both null when there are none); each Signals field tideline cannot compute, a
    misspelt one, events that are not a list and a bad first_last are refused by name with what
    to do, the command failing."""
    consumer = project_copy(CONSUMER, tmp_path / "consumer", {})
    models = [{"name": "own_form", "config": {"meta": {"attribute_view": {**VIEW, "name": "own_form"}}}},
              {"name": "signals_form", "config": {"meta": {"attribute_view": as_signals_export(VIEW, "signals_form")}}}]
    (consumer / "models" / "twins.yml").write_text(yaml.safe_dump({"version": 2, "models": models}, sort_keys=False))
    for name in ("own_form", "signals_form"):
        (consumer / "models" / f"{name}.sql").write_text(f"{{{{ tideline.attribute_view_table('{name}_daily') }}}}\n")
        (consumer / "models" / f"{name}_daily.sql").write_text(f"{{{{ tideline.attribute_view_daily_aggregate('{name}') }}}}\n")
    assert dbt_without_spark(consumer, None, "deps").returncode == 0
    check = ("run-operation", "tideline.check_attribute_views")
    result = dbt_without_spark(consumer, tmp_path / "t", *check, "--args",
                               json.dumps({"views": ["own_form", "signals_form"], "columns": EVENTS_COLUMNS}))
    assert result.returncode == 0, result.stdout[-3000:]
    printed = {}
    for name in ("own_form", "signals_form"):
        for kind in ("daily aggregate", "attributes table"):
            m = re.search(rf"-- {kind} of attribute view {name}\n(.*?\ngroup by [^\n]*)", result.stdout, re.S)
            assert m, result.stdout[-3000:]
            printed[name, kind] = m.group(1).replace(name, "<view>")
    for kind in ("daily aggregate", "attributes table"):
        assert printed["own_form", kind] == printed["signals_form", kind], kind
    assert printed["own_form", "attributes table"].count(" as ") >= 17

    bad_attribute = {"name": "bad", "type": "int64", "events": [{"vendor": "com.snowplowanalytics.snowplow", "name": "page_view", "version": None}],
                     "aggregation": "counter", "property": None, "criteria": None, "period": "P7D", "default_value": None}
    refused = [
        ({"attributes": [{**bad_attribute, "type": "bytes"}]},
         "attribute bad: type \"bytes\" is not supported: a batch table has no bytes attributes; declare string and aggregate a string property"),
        ({"attributes": [{**bad_attribute, "aggregation": "last", "type": "string", "property_syntax": "bigquery", "property": "geo_country"}]},
         "attribute bad: property \"geo_country\" is in bigquery syntax, which tideline does not read; write it in Databricks syntax"),
        ({"attributes": [{**bad_attribute, "events": "page_view"}]},
         "attribute bad: events must be a non-empty list of {vendor, name, version}"),
        ({"attributes": [{**bad_attribute, "events": [{"event_specification_id": "3f2a"}]}]},
         "attribute bad: event {\"event_specification_id\": \"3f2a\"}: event_specification_id is not supported (tideline has no tracking plan to look it up in); give the event's vendor, name and version"),
        ({"attributes": [{**bad_attribute, "perod": "P7D"}]},
         "attribute bad: the Signals attribute has an unknown key \"perod\" (did you mean period?;"),
        ({"attributes": [{**bad_attribute, "period": "PT1H"}]},
         "attribute bad: period PT1H is shorter than, or not a whole number of, days: sub-day periods are not supported"),
        ({"attributes": [{**bad_attribute, "default_value": 5}]},
         "attribute bad: default_value 5 is not accepted for a counter: over a period without events it is 0 (default_value 0 or none)"),
        ({"attributes": [{**bad_attribute, "aggregation": "first", "type": "int32", "property": "domain_sessionidx", "default_value": "none"}]},
         "attribute bad: default_value \"none\" does not fit type int32; accepted: whole numbers"),
        ({"entity": {"name": "visitor", "property": {"type": "atomic", "name": "network_userid"}}},
         "entity.property {\"type\": \"atomic\", \"name\": \"network_userid\"} is not supported: tideline's key is a column of the filtered events"),
        ({"attributes": None, "fields": [{"name": "ltv", "type": "double"}]},
         "the view has fields and no attributes: it describes a table that is already in the warehouse, which tideline does not compute"),
        ({"onlne": True}, "the Signals view has an unknown key \"onlne\" (did you mean online?;"),
        ({"first_last": "view"}, "first_last \"view\" is invalid; accepted: attribute_events (the first and last values among the attribute's own events, the default) or view_events"),
    ]
    path = consumer / "models" / "twins.yml"
    for edit, message in refused:
        models[1]["config"]["meta"]["attribute_view"] = {**as_signals_export(VIEW, "signals_form"), **edit}
        path.write_text(yaml.safe_dump({"version": 2, "models": models}, sort_keys=False))
        result = dbt_without_spark(consumer, tmp_path / "t", *check, "--args", "{views: [signals_form]}")
        assert result.returncode != 0, message
        assert f"tideline: attribute view signals_form, {message}" in result.stdout or (
            f"tideline: attribute view signals_form: {message}" in result.stdout), (message, result.stdout[-2000:])


def run_tool(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "tideline_tools.signals_views", *args], cwd=ROOT, capture_output=True, text=True)


def test_the_signals_views_tool_writes_the_models_of_an_export_file(tmp_path):
    """`python -m tideline_tools.signals_views FILE --to DIR` (issue 37, item 1, from a file):
    an export of two views as the API lists them (JSON) and one view alone (YAML) become each
    view's three model files, the view copied unchanged into its model's config, which the check
    command accepts; a second export replaces the .yml and keeps the .sql; a file that is not an
    export is refused with the reason and nothing is written."""
    consumer = project_copy(CONSUMER, tmp_path / "consumer", {})
    to = consumer / "models" / "signals"
    one, two = {**SIGNALS_EXPORT, "name": "exported_one"}, {**SIGNALS_EXPORT, "name": "exported_two", "version": 3}
    (tmp_path / "groups.json").write_text(json.dumps({"attribute_groups": [one, two]}, indent=2))
    result = run_tool(str(tmp_path / "groups.json"), "--to", str(to))
    assert result.returncode == 0, result.stderr
    assert sorted(p.name for p in to.iterdir()) == sorted(
        f"{n}{s}" for n in ("exported_one", "exported_two") for s in (".yml", ".sql", "_daily.sql"))
    assert result.stdout.count(" written") == 6 and "2 view(s)" in result.stdout
    written = yaml.safe_load((to / "exported_two.yml").read_text())["models"][0]
    assert written["name"] == "exported_two" and written["config"]["meta"]["attribute_view"] == two
    assert (to / "exported_one.sql").read_text().endswith("{{ tideline.attribute_view_table('exported_one_daily') }}\n")
    assert (to / "exported_one_daily.sql").read_text().endswith("{{ tideline.attribute_view_daily_aggregate('exported_one') }}\n")

    (tmp_path / "alone.yaml").write_text(yaml.safe_dump({**SIGNALS_EXPORT, "name": "exported_alone"}, sort_keys=False))
    assert run_tool(str(tmp_path / "alone.yaml"), "--to", str(to), "--first-last", "attribute_events",
                    "--late-event-lookback-days", "5", "--min-late-events-to-process", "2").returncode == 0
    assert yaml.safe_load((to / "exported_alone.yml").read_text())["models"][0]["config"]["meta"]["attribute_view"] == {
        **SIGNALS_EXPORT, "name": "exported_alone", "first_last": "attribute_events"}
    assert "{{ config(reprocess_days=5, min_rows_to_process=2) }}\n" in (to / "exported_alone_daily.sql").read_text()
    assert dbt_without_spark(consumer, None, "deps").returncode == 0
    result = dbt_without_spark(consumer, tmp_path / "t", "run-operation", "tideline.check_attribute_views", "--args",
                               "{views: [exported_one, exported_two, exported_alone]}")
    assert result.returncode == 0, result.stdout[-3000:]
    for name in ("exported_one", "exported_two", "exported_alone"):
        assert f"tideline: attribute view {name}: 6 attributes checked" in result.stdout
    assert "-- Generated by tideline from the attribute view exported_two (version 3)" in result.stdout
    # each is printed as tideline reads it: Snowflake syntax, a property object, seconds
    printed = result.stdout.split("-- Signals view exported_one read as tideline's form\n", 1)[1].split("\n--", 1)[0]
    for line in ("attribute_key: domain_userid", "property: contexts_com_snowplowanalytics_snowplow_web_page_1[0].id",
                 "property: unstruct_event_com_snowplowanalytics_snowplow_link_click_1.target_url", "period: P7D", "period: P2D"):
        assert line in printed, (line, printed)

    (to / "exported_one.sql").write_text("-- edited\n{{ tideline.attribute_view_table('exported_one_daily') }}\n")
    one_edited = {**one, "version": 4}
    (tmp_path / "groups.json").write_text(json.dumps({"attribute_groups": [one_edited, two]}))
    result = run_tool(str(tmp_path / "groups.json"), "--to", str(to))
    assert result.returncode == 0 and result.stdout.count(" replaced") == 2 and result.stdout.count(" kept") == 4, result.stdout
    assert yaml.safe_load((to / "exported_one.yml").read_text())["models"][0]["config"]["meta"]["attribute_view"]["version"] == 4
    assert (to / "exported_one.sql").read_text().startswith("-- edited\n")

    before = {p.name: p.read_text() for p in to.iterdir()}
    for content, message in [
        ({"attribute_groups": [one], "views": [two]}, "a mapping without a view's name must hold exactly one list of views (keys: attribute_groups, views)"),
        ([one, one], "the views' names repeat: exported_one"),
        ([{**one, "name": "my-view"}], "view name 'my-view' is not a model name (letters, digits and underscores)"),
        ([{"attributes": []}], "view #1 is not a mapping with a name"),
    ]:
        (tmp_path / "bad.json").write_text(json.dumps(content))
        result = run_tool(str(tmp_path / "bad.json"), "--to", str(to))
        assert result.returncode == 2 and f"tideline: signals_views: {tmp_path / 'bad.json'}: {message}" in result.stderr, result.stderr
    result = run_tool(str(tmp_path / "groups.json"), "--to", str(to), "--late-event-lookback-days", "-1")
    assert result.returncode == 2 and "--late-event-lookback-days must be >= 0" in result.stderr
    (tmp_path / "bad.json").write_text("{not json")
    result = run_tool(str(tmp_path / "bad.json"), "--to", str(to))
    assert result.returncode == 2 and "not valid JSON" in result.stderr
    assert {p.name: p.read_text() for p in to.iterdir()} == before


def test_an_edited_view_definition_is_refused_until_a_full_refresh_or_on_definition_change_ignore(project, tmp_path):
    """Issue 34, item 3, for attribute views: an edit that keeps the daily aggregate's columns
    (an attribute's property; the view's first_last) would leave the days already aggregated
    under the old definition. Each is refused by name with the fix, nothing changed; under the
    daily aggregate's on_definition_change='ignore' the run goes on and records the new
    definition (the next run passes without it); a --full-refresh rebuilds under the new one,
    equal to the reference."""
    project.reset()
    project.load(WORLD, until=dt.datetime(2025, 5, 8, 12), cadence_seconds=3600)
    consumer = project_copy(CONSUMER, tmp_path / "consumer", {})
    project.dbt("deps", project_dir=consumer)
    select = ("--select", "tl_filtered_events", "consumer_signals_daily", "consumer_signals")
    settings = {**SETTINGS.vars(), "tideline__now": "2025-05-06 23:00"}
    project.dbt("run", *select, vars=settings, project_dir=consumer)
    view_file, daily_file = consumer / "models" / "consumer_signals.yml", consumer / "models" / "consumer_signals_daily.sql"
    original = view_file.read_text()
    later = {**settings, "tideline__now": "2025-05-08 12:00"}
    project.dbt("run", "--select", "tl_filtered_events", vars=later, project_dir=consumer)   # new rows for the daily aggregate
    fix = ("its rows would mix the old definition and the new one. Rebuild it under the new one with: dbt run "
           "--full-refresh --select consumer_signals_daily; or set on_definition_change='ignore' to keep its rows and "
           "apply the new definition from this run on")
    for edited, changed in [
        (original.replace("property: geo_country", "property: page_urlpath"), "attribute first_country (changed)"),
        (original.replace("include_current_day: false", "include_current_day: false\n          first_last: view_events"), "view (changed)"),
    ]:
        view_file.write_text(edited)
        project.refused(f"tideline: daily aggregate consumer_signals_daily: its definition changed since its rows were built: {changed}; {fix}",
                        lambda: project.dbt("run", "--select", "consumer_signals_daily", vars=later, project_dir=consumer,
                                            expect_success=False))
    daily_sql = daily_file.read_text()
    daily_file.write_text("{{ config(on_definition_change='ignore') }}\n" + daily_sql)
    result = project.dbt("run", *select, vars=later, project_dir=consumer)
    assert any("consumer_signals_daily: its definition changed (view (changed)); on_definition_change='ignore': the rows built so far stay"
               in m for m in result.tideline_lines), result.tideline_lines
    daily_file.write_text(daily_sql)
    project.dbt("run", *select, vars={**later, "tideline__now": "2025-05-08 13:00"}, project_dir=consumer)   # recorded: no refusal
    project.dbt("run", *select, "--full-refresh", vars={**later, "tideline__now": "2025-05-08 14:00"}, project_dir=consumer)
    view = ref_attrs.view_of(view_file, "consumer_signals")
    assert view.get("first_last") == "view_events"
    pipeline = Pipeline(SETTINGS)
    pipeline.run(events(project, view), dt.datetime(2025, 5, 8, 14))
    project.assert_table_equals("consumer_signals", ref_attrs.attributes(view, reflected(pipeline), dt.date(2025, 5, 8)))

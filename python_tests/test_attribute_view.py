"""Attribute views: the declared view (models/examples/user_signals.yml) generates a daily
aggregate and an attributes table that equal an independent Python reference
(python_tests/reference_attributes.py) after every run of a multi-run scenario with late and
duplicate events, with the current day included or not and a reference day apart from now;
the generated SQL is what a user would write (it passes sqlfluff); a view in a project that uses
tideline as a package; and every bad definition refused at compile time, naming the view and
the attribute."""

from __future__ import annotations

import datetime as dt
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import yaml

import reference_attributes as ref_attrs
from harness import project_copy
from reference import EVENT_COLUMNS, Pipeline, Settings
from tideline_tools.generator import EventWorld

ROOT = Path(__file__).resolve().parent.parent
CONSUMER = Path(__file__).parent / "consumer_project"
BAD_VIEWS = CONSUMER / "models" / "bad_views"
VIEW = ref_attrs.view_of(ROOT / "models/examples/user_signals.yml", "user_signals")
CONSUMER_VIEW = ref_attrs.view_of(CONSUMER / "models/consumer_signals.yml", "consumer_signals")
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
    project.reset()
    project.load(WORLD, until=dt.datetime(2025, 5, 8, 12), cadence_seconds=3600)
    project.dbt("deps", project_dir=CONSUMER)
    pipeline = Pipeline(SETTINGS)
    for now in (dt.datetime(2025, 5, 6, 23), dt.datetime(2025, 5, 8, 12)):
        project.dbt("run", "--select", "tl_filtered_events", "consumer_signals_daily", "consumer_signals",
                    vars={**SETTINGS.vars(), "tideline__now": str(now)}, project_dir=CONSUMER)
        pipeline.run(events(project, CONSUMER_VIEW), now)
        expected = ref_attrs.attributes(CONSUMER_VIEW, reflected(pipeline), now.date())
        project.assert_table_equals("consumer_signals", expected)
    assert any(r["page_views_yesterday"] for r in expected) and any(r["pages_last_2_days"] for r in expected)


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
    assert "tideline: check_attribute_views: there is no attribute view \"consumer_signal\" (views: consumer_signals)" in result.stdout

    path = consumer / "models" / "consumer_signals.yml"
    text = path.read_text()
    path.write_text(text.replace("aggregation: counter", "aggregation: counter\n              perod: P1D"))
    result = dbt_without_spark(consumer, tmp_path / "t2", *check)
    assert result.returncode != 0
    assert ("tideline: attribute view consumer_signals, attribute page_views_yesterday: the attribute has an unknown key "
            "\"perod\" (did you mean period?; keys: name, type, events, aggregation, property, criteria, period, description)"
            ) in result.stdout, result.stdout[-3000:]
    path.write_text(text.replace("aggregation: unique_list", "aggregation: unique_lists"))
    result = dbt_without_spark(consumer, tmp_path / "t2", *check)
    assert result.returncode != 0
    assert ("tideline: attribute view consumer_signals, attribute pages_last_2_days: unknown aggregation \"unique_lists\"; "
            "accepted: counter, sum, min, max, mean, first, last, unique_list") in result.stdout, result.stdout[-3000:]

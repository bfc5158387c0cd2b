"""Continual tasks (seed 002, Materialize) over several runs, from a project that installs
tideline as a package (examples/continual_tasks): the seed's upsert and audit log, a
stream-table join and a self-reference, each compared whole-table after every run with an
independent Python reference that applies the statements step by step
(python_tests/reference_continual.py)."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from harness import Project, assert_rows_equal
from reference_continual import Task, audit_log, orders_enriched, running_totals, upsert

CONTINUAL = Path(__file__).parent.parent / "examples" / "continual_tasks"
T0 = dt.datetime(2025, 5, 1, 8, 0)
APPEND_ONLY = "key int, val int, load_tstamp timestamp"
ANOMALIES = "anomaly_count bigint, load_tstamp timestamp"
ORDERS = "order_id bigint, customer_id bigint, amount double, load_tstamp timestamp"
CUSTOMERS = "customer_id bigint, tier string"


@pytest.fixture(scope="module")
def deps(runner):
    Project(runner, "continual_deps").dbt("deps", project_dir=CONTINUAL)


def run(project, models: str, now: dt.datetime, *extra: str, expect_success: bool = True, **vars):
    return project.dbt("run", "--select", *models.split(), *extra, project_dir=CONTINUAL, expect_success=expect_success,
                       vars={"continual__source": project.source_schema, "tideline__now": now.strftime("%Y-%m-%d %H:%M:%S"),
                             **vars})


def at(minutes: int) -> dt.datetime:
    return T0 + dt.timedelta(minutes=minutes)


def kv(key: int, val: int, minutes: int) -> dict:
    return {"key": key, "val": val, "load_tstamp": at(minutes)}


def output(project, model: str) -> list[dict]:
    return [{k: v for k, v in r.items() if k != "_tl_batch"} for r in project.table(model)]


# loads of append_only: several commit times per run (each one a step), a key twice in a step
LOADS = [
    [kv(1, 10, 0), kv(2, 20, 0), kv(1, 15, 0)],                     # before the task exists: the snapshot
    [kv(1, 5, 60), kv(3, 30, 60), kv(2, 25, 70), kv(2, 21, 70)],    # two steps
    [],
    [kv(3, 1, 130), kv(4, 40, 140), kv(1, 100, 150), kv(4, 41, 150)],
]


def test_upsert_and_running_totals_over_several_runs_equal_the_reference_and_a_replay(project, deps):
    project.write_source("append_only", APPEND_ONLY, [], replace=True)
    tasks = {"upsert": Task(upsert), "running_totals": Task(running_totals)}
    done: list[dict] = []
    for i, load in enumerate(LOADS):
        project.write_source("append_only", APPEND_ONLY, load)
        done += load
        now = at(60 * i + 50)
        run(project, "upsert running_totals", now)
        for name, task in tasks.items():
            task.run(done, now)
            assert_rows_equal(output(project, name), task.output, label=f"{name} after the run at {now}")
    run(project, "upsert running_totals", now, "--full-refresh")
    for name, task in tasks.items():
        assert_rows_equal(output(project, name), task.output, label=f"{name} replayed by --full-refresh")


def test_audit_log_keeps_what_was_logged_when_the_source_is_corrected(project, deps):
    rows = [{"anomaly_count": 3, "load_tstamp": at(0)}, {"anomaly_count": 7, "load_tstamp": at(10)}]
    project.write_source("anomalies", ANOMALIES, rows, replace=True)
    task = Task(audit_log)
    run(project, "audit_log", at(30))
    task.run(rows, at(30))
    assert_rows_equal(output(project, "audit_log"), task.output)
    # the count committed at 00:10 is corrected in place (same commit time): nothing to react to
    corrected = [rows[0], {"anomaly_count": 4, "load_tstamp": at(10)}]
    project.write_source("anomalies", ANOMALIES, corrected, replace=True)
    run(project, "audit_log", at(40))
    assert_rows_equal(output(project, "audit_log"), [{"anomaly_count": 3}, {"anomaly_count": 7}])
    more = [{"anomaly_count": 9, "load_tstamp": at(50)}]
    project.write_source("anomalies", ANOMALIES, more)
    run(project, "audit_log", at(60))
    task.run(corrected + more, at(60))
    assert_rows_equal(output(project, "audit_log"), task.output)
    assert sorted(r["anomaly_count"] for r in task.output) == [3, 7, 9]


def test_a_reference_change_alone_adds_nothing_and_revises_nothing(project, deps):
    project.write_source("customers", CUSTOMERS, [(1, "gold"), (2, "silver")], replace=True)
    orders = [{"order_id": 1, "customer_id": 1, "amount": 10.0, "load_tstamp": at(0)},
              {"order_id": 2, "customer_id": 2, "amount": 20.0, "load_tstamp": at(0)}]
    project.write_source("orders", ORDERS, orders, replace=True)
    task = Task(orders_enriched)
    run(project, "orders_enriched", at(10))
    task.run(orders, at(10), {"customers": {1: "gold", 2: "silver"}})
    project.write_source("customers", CUSTOMERS, [(1, "platinum"), (2, "silver")], replace=True)
    run(project, "orders_enriched", at(20))
    assert_rows_equal(output(project, "orders_enriched"), task.output, label="after a change of the reference alone")
    more = [{"order_id": 3, "customer_id": 1, "amount": 30.0, "load_tstamp": at(30)}]
    project.write_source("orders", ORDERS, more)
    run(project, "orders_enriched", at(40))
    task.run(orders + more, at(40), {"customers": {1: "platinum", 2: "silver"}})
    assert_rows_equal(output(project, "orders_enriched"), task.output)
    assert {r["order_id"]: r["tier"] for r in task.output} == {1: "gold", 2: "silver", 3: "platinum"}

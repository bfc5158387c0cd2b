"""Continual tasks (seed 002, Materialize) over several runs, from a project that installs
tideline as a package (examples/continual_tasks): the seed's upsert and audit log, a
stream-table join and a self-reference, each compared whole-table after every run with an
independent Python reference that applies the statements step by step
(python_tests/reference_continual.py)."""

from __future__ import annotations

import datetime as dt
import json
import time
from pathlib import Path

import pytest

from harness import ICEBERG_CATALOG, CrashPoints, Project, assert_rows_equal, end_to_end_property, project_copy, split_loads, unfit_accepted
from reference_continual import Task, audit_log, live_rows, orders_as_of, orders_enriched, running_totals, upsert, upsert_changes

CONTINUAL = Path(__file__).parent.parent / "examples" / "continual_tasks"
T0 = dt.datetime(2025, 5, 1, 8, 0)
APPEND_ONLY = "key int, val int, load_tstamp timestamp"
ANOMALIES = "anomaly_count bigint, load_tstamp timestamp"
ORDERS = "order_id bigint, customer_id bigint, amount double, load_tstamp timestamp"
CUSTOMERS = "customer_id bigint, tier string"


@pytest.fixture(scope="module")
def deps(runner):
    Project(runner, "continual_deps").dbt("deps", project_dir=CONTINUAL)


def run(project, models: str, now: dt.datetime, *extra: str, expect_success: bool = True, project_dir=CONTINUAL,
        on_event=None, **vars):
    """dbt run of the tasks at `now`; every 2 steps a task with a delete compacts, so the
    multi-step scenarios cross compactions."""
    return project.dbt("run", "--select", *models.split(), *extra, project_dir=project_dir, expect_success=expect_success,
                       on_event=on_event,
                       vars={"continual__source": project.source_schema, "tideline__now": now.strftime("%Y-%m-%d %H:%M:%S"),
                             "tideline__compact_every": 2, **vars})


def at(minutes: int) -> dt.datetime:
    return T0 + dt.timedelta(minutes=minutes)


def kv(key: int, val: int, minutes: int) -> dict:
    return {"key": key, "val": val, "load_tstamp": at(minutes)}


def output(project, model: str) -> list[dict]:
    return [{k: v for k, v in r.items() if k != "_tl_batch"} for r in project.table(model)]


def run_and_compare(project, tasks: dict, done: list[dict], now: dt.datetime, *extra: str) -> None:
    """One dbt run of the tasks (extra: e.g. --full-refresh), then each task's output against
    its reference after the reference ran over the same rows (a replay: not run again)."""
    run(project, " ".join(tasks), now, *extra)
    for name, task in tasks.items():
        if not extra:
            task.run(done, now)
        assert_rows_equal(output(project, name), task.output, label=f"{name} after the run at {now} {' '.join(extra)}")


# loads of append_only: several commit times per run (each one a step), a key twice in a step
LOADS = [
    [kv(1, 10, 0), kv(2, 20, 0), kv(1, 15, 0)],                     # before the task exists: the snapshot
    [kv(1, 5, 60), kv(3, 30, 60), kv(2, 25, 70), kv(2, 21, 70)],    # two steps
    [],
    [kv(3, 1, 130), kv(4, 40, 140), kv(1, 100, 150), kv(4, 41, 150)],
]


@pytest.mark.both_targets
@pytest.mark.formats("parquet", "delta", "iceberg")
@pytest.mark.make_test_formats("parquet")   # Delta: the crash test; the cluster runs the interleaving of versions on Delta
def test_upsert_and_running_totals_over_several_runs_equal_the_reference_and_a_replay(project, deps):
    project.write_source("append_only", APPEND_ONLY, [], replace=True)
    tasks = {"upsert": Task(upsert), "running_totals": Task(running_totals)}
    done: list[dict] = []
    for i, load in enumerate(LOADS):
        project.write_source("append_only", APPEND_ONLY, load)
        done += load
        now = at(60 * i + 50)
        run_and_compare(project, tasks, done, now)
    run_and_compare(project, tasks, done, now, "--full-refresh")
    project.assert_formats(["upsert__tl_data", "running_totals__tl_data", "tl_state"])


def test_audit_log_keeps_what_was_logged_when_the_source_is_corrected(project, deps):
    """The audit log, and the archive, a task whose input is the audit log's output (a chain,
    read with `select *`): after each run the archive holds what the log holds, each count at the
    commit time the log gave it."""
    rows = [{"anomaly_count": 3, "load_tstamp": at(0)}, {"anomaly_count": 7, "load_tstamp": at(10)}]
    project.write_source("anomalies", ANOMALIES, rows, replace=True)
    task = Task(audit_log)
    tasks = "audit_log audit_log_archive"

    def assert_archived() -> None:
        assert_rows_equal(output(project, "audit_log_archive"), output(project, "audit_log"))

    run(project, tasks, at(30))
    task.run(rows, at(30))
    assert_rows_equal(output(project, "audit_log"), task.output)
    assert_archived()
    # the count committed at 00:10 is corrected in place (same commit time): nothing to react to
    corrected = [rows[0], {"anomaly_count": 4, "load_tstamp": at(10)}]
    project.write_source("anomalies", ANOMALIES, corrected, replace=True)
    run(project, tasks, at(40))
    assert_rows_equal(output(project, "audit_log"), [{"anomaly_count": 3}, {"anomaly_count": 7}])
    assert_archived()
    more = [{"anomaly_count": 9, "load_tstamp": at(50)}]
    project.write_source("anomalies", ANOMALIES, more)
    run(project, tasks, at(60))
    task.run(corrected + more, at(60))
    assert_rows_equal(output(project, "audit_log"), task.output)
    assert sorted(r["anomaly_count"] for r in task.output) == [3, 7, 9]
    assert_archived()
    # after the first run (its snapshot: one step over what the log held), each step of the
    # archive is one of the log's, at the same commit time
    archive = {r["anomaly_count"]: r["_tl_batch"] for r in project.table("audit_log_archive")}
    assert archive[9] == {r["anomaly_count"]: r["_tl_batch"] for r in project.table("audit_log")}[9] == at(50)
    assert list(project.table("audit_log_archive")[0]) == ["anomaly_count", "_tl_batch"]


def assert_changes_read(project, down: Task) -> None:
    """upsert_changes equals its reference, each row at the step time it was read at, and its
    changes applied in order give the upsert's rows (Materialize: a collection is its diffs)."""
    changes = project.table("upsert_changes")
    assert_rows_equal(changes, down.output, label="upsert_changes")
    applied = live_rows([{"key": r["key"], "val": r["val"], "_tl_op": r["change"]} for r in changes])
    assert_rows_equal(applied, output(project, "upsert"), label="upsert_changes applied")


@pytest.mark.formats("parquet", "delta", "iceberg")
@pytest.mark.extended   # make test: test_any_schedule_of_a_task_over_the_upsert_... (random commits, runs and schedules)
def test_a_task_over_a_task_that_deletes_sees_each_insert_and_delete_however_seldom_it_runs(project, deps, crash_report):
    """upsert_changes reads the upsert (a task with a delete, compacting every 2 steps) and runs
    in some runs only: between two of its runs the upsert inserts and deletes (1, 5) and
    compacts twice. After each run its rows equal the reference's (Materialize's consolidated
    diffs: the upsert's no-op rewrite of key 2 at 04:10 is no change), and its changes applied
    give the upsert's rows; a --full-refresh of it replays the same rows. The upsert's runs in
    between die after their statements (harness.CrashPoints) and are rerun."""
    project.reset_models()
    project.write_source("append_only", APPEND_ONLY, [], replace=True)
    up, down = Task(upsert), Task(upsert_changes, commit="_tl_batch")
    points = CrashPoints(project)
    done: list[dict] = []
    loads = [
        ([kv(1, 10, 0), kv(2, 20, 0)], 5, True),
        ([kv(1, 5, 60), kv(3, 30, 60), kv(2, 25, 70)], 75, False),
        ([kv(3, 3, 130), kv(1, 100, 150)], 155, False),
        ([kv(4, 40, 190)], 200, True),
        ([kv(4, 41, 250), kv(2, 25, 250)], 260, True),
    ]
    for load, minutes, both in loads:
        project.write_source("append_only", APPEND_ONLY, load)
        done += load
        if both:
            run(project, "upsert upsert_changes", at(minutes))
        else:
            # the upsert's runs that compact while keeping what upsert_changes has not read: a
            # crash after their statements (each in the extended tier), then a rerun
            points.until_done(lambda on_event: run(project, "upsert", at(minutes), expect_success=False, on_event=on_event),
                              f"upsert at {minutes}")
        up.run(done, at(minutes))
        assert_rows_equal(output(project, "upsert"), up.output, label=f"upsert at {minutes}")
        if both:
            down.run(up.changes, at(minutes))
            assert_changes_read(project, down)
        if minutes == 200:
            # the (1, 5) inserted at 01:00 and deleted at 02:30, both read late
            assert {(r["key"], r["val"], r["change"], r["_tl_batch"]) for r in project.table("upsert_changes") if r["key"] == 1} == {
                (1, 10, "insert", at(0)), (1, 10, "delete", at(60)), (1, 5, "insert", at(60)), (1, 5, "delete", at(150)),
                (1, 100, "insert", at(150))}
            run(project, "upsert_changes", at(minutes), "--full-refresh")
            assert_changes_read(project, down)
    generations = project.rows(f"select count(distinct tl_gen) from {project.fresh('upsert__tl_data')}")[0][0]
    assert generations == 1 and up.changes, generations
    assert "upsert" in points.nodes(), points.nodes()   # on Iceberg the run-start hook dies too
    crash_report(points.report(f"a task over a task that deletes ({project.file_format})"))


def test_a_task_over_a_task_with_a_map_column_is_refused_by_name_and_changes_nothing(project, deps):
    """An upstream task with a map column cannot give its changes consolidated (Spark cannot
    group maps): the task that reads it is refused before anything is written."""
    upstream, reader = f"tmp_map_upstream_{project.file_format}", f"tmp_map_reader_{project.file_format}"
    paths = [CONTINUAL / "models" / f"{upstream}.sql", CONTINUAL / "models" / f"{reader}.sql"]
    paths[0].write_text("{{ config(materialized='continual_task', columns={'key': 'int', 'm': 'map<string,int>'}, "
                        "inputs={'stream.append_only': {'commit_column': 'load_tstamp'}}) }}\n"
                        "{% call tideline.task_insert() %} select key, map('v', val) as m from "
                        "{{ tideline.input('stream.append_only') }} {% endcall %}\n")
    paths[1].write_text(f"{{{{ config(materialized='continual_task', inputs=['{upstream}']) }}}}\n"
                        f"{{% call tideline.task_insert() %}} select key from {{{{ tideline.input('{upstream}') }}}} {{% endcall %}}\n")
    try:
        project.write_source("append_only", APPEND_ONLY, LOADS[0], replace=True)
        run(project, upstream, at(50))
        project.refused(f"tideline: continual task {reader}: inputs = \"{upstream}\" is invalid; accepted: continual tasks without "
                        f"map columns ({upstream}.m is map<string,int>: Spark cannot compare maps, so the task's changes cannot be "
                        f"consolidated; store it as text with to_json, or read {upstream} as a reference)",
                        lambda: run(project, reader, at(50), expect_success=False))
        assert not project.exists(reader)
    finally:
        for path in paths:
            path.unlink()


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
    # the model declares no columns: they are its select's, with the types Spark planned
    described = project.rows(f"describe {project.relation('orders_enriched')}")
    assert [(r[0], r[1]) for r in described] == [("order_id", "bigint"), ("customer_id", "bigint"), ("amount", "double"),
                                                  ("tier", "string"), ("_tl_batch", "timestamp")]


TIERS = "customer_id bigint, tier string, valid_from timestamp"
# the kept history of tiers: customer 1 gold, then platinum from 00:25; customer 2 silver, then
# bronze from 00:45; customer 3 from 00:55 only
TIER_HISTORY = [(1, "gold", at(0)), (2, "silver", at(0)), (1, "platinum", at(25)), (2, "bronze", at(45)), (3, "gold", at(55))]
# orders committed at 00:10, 00:30, 00:50 and 00:60: each step sees the tiers valid at its time
ORDER_COMMITS = [
    [{"order_id": 1, "customer_id": 1, "amount": 10.0, "load_tstamp": at(10)},
     {"order_id": 2, "customer_id": 2, "amount": 20.0, "load_tstamp": at(10)}],
    [{"order_id": 3, "customer_id": 1, "amount": 30.0, "load_tstamp": at(30)}],
    [{"order_id": 4, "customer_id": 2, "amount": 40.0, "load_tstamp": at(50)},
     {"order_id": 5, "customer_id": 3, "amount": 50.0, "load_tstamp": at(50)}],
    [{"order_id": 6, "customer_id": 3, "amount": 60.0, "load_tstamp": at(60)}],
]


@pytest.mark.extended   # make test: the random splits (test_any_split_of_runs_reads_each_reference_as_of_its_step)
def test_a_reference_read_as_of_each_step_gives_the_same_rows_in_one_run_or_one_run_per_commit(project, deps):
    """Issue 35, item 8: orders_as_of joins each order with the tier its customer had at the
    order's commit time, from a kept history (config references, valid_from). Three commits
    processed by one run, the same commits by one run each, and a --full-refresh replay give the
    same table, equal to the reference; the tier history is all written before the first run,
    so a read of it as it is (orders_enriched's) would give every order the newest tier."""
    history = [{"customer_id": c, "tier": t, "valid_from": v} for c, t, v in TIER_HISTORY]
    expected_tiers = {1: "gold", 2: "silver", 3: "platinum", 4: "bronze", 5: None, 6: "gold"}
    for runs in ("one run", "one run per commit"):
        project.reset_models()
        project.write_source("customer_tiers", TIERS, TIER_HISTORY, replace=True)
        project.write_source("orders", ORDERS, ORDER_COMMITS[0], replace=True)
        task = Task(orders_as_of)
        references = {"customer_tiers": history}
        run(project, "orders_as_of", at(15))
        task.run(ORDER_COMMITS[0], at(15), references)
        done = list(ORDER_COMMITS[0])
        for commit in ORDER_COMMITS[1:]:
            project.write_source("orders", ORDERS, commit)
            done += commit
            if runs == "one run per commit":
                now = commit[0]["load_tstamp"] + dt.timedelta(minutes=5)
                run(project, "orders_as_of", now)
                task.run(done, now, references)
        if runs == "one run":
            run(project, "orders_as_of", at(70))
            task.run(done, at(70), references)
        assert {r["order_id"]: r["tier"] for r in task.output} == expected_tiers
        assert_rows_equal(output(project, "orders_as_of"), task.output, label=runs)
        run(project, "orders_as_of", at(80), "--full-refresh")
        assert_rows_equal(output(project, "orders_as_of"), task.output, label=f"{runs}, then a replay")


LIVE_TIERS = "customer_id bigint, tier string"
# live.customer_tiers overwritten in place: its versions are the only history of the tiers
TIER_VERSIONS = [[(1, "gold"), (2, "silver")], [(1, "platinum"), (2, "silver")], [(1, "platinum"), (2, "bronze"), (3, "gold")]]
# after each version, orders committed at the loader's clock: (order_id, customer_id, amount)
CLOCKED_ORDERS = [[(1, 1, 10.0), (2, 2, 20.0)], [(3, 1, 30.0), (4, 2, 40.0)], [(5, 2, 50.0), (6, 3, 60.0)]]


def utc_clock() -> dt.datetime:
    return dt.datetime.now(dt.timezone.utc).replace(tzinfo=None)


def live_schema(project) -> str:
    """Where orders_time_travel's reference live.customer_tiers is (the var continual__live_source):
    a Delta table in the source schema, or an Iceberg table in the source schema's namespace of
    the Iceberg catalog."""
    if project.file_format == "iceberg":
        project.runner.execute(f"create namespace if not exists {ICEBERG_CATALOG}.{project.source_schema}")
        return f"{ICEBERG_CATALOG}.{project.source_schema}"
    project.runner.execute(f"create schema if not exists {project.source_schema}")
    return project.source_schema


def fresh_live_table(project) -> tuple[str, dict]:
    """live.customer_tiers made anew and empty in the project's format, orders emptied: the
    table's name and the vars that point the source at it."""
    schema = live_schema(project)
    table = f"{schema}.customer_tiers"
    project.runner.execute(f"drop table if exists {table}")
    project.runner.execute(f"create table {table} ({LIVE_TIERS}) using {project.file_format}")
    project.write_source("orders", ORDERS, [], replace=True)
    return table, {"continual__live_source": schema}


def time_travel_models(*names: str) -> list[Path]:
    """Copies of orders_time_travel, enabled, as models `names` (each test's own, per format)."""
    text = (CONTINUAL / "models" / "orders_time_travel.sql").read_text()
    assert "enabled=var('continual__time_travel', false)" in text
    paths = [CONTINUAL / "models" / f"{name}.sql" for name in names]
    for path in paths:
        path.write_text(text.replace("enabled=var('continual__time_travel', false)", "enabled=true"))
    return paths


@pytest.mark.formats("delta", "iceberg")
@pytest.mark.make_test_formats("iceberg")   # with the refusal after expired snapshots; Delta: the property test below
def test_a_reference_read_by_time_travel_gives_the_same_rows_in_one_run_one_run_per_commit_and_a_replay(project, deps):
    """Issue 35, item 8, for a reference without a history of its own: live.customer_tiers keeps
    each customer's current tier, overwritten in place, and orders_time_travel reads it by its
    Delta or Iceberg versions as of each order's commit time (the loader's clock). Three versions,
    each followed by a commit of orders: a copy run after each commit, a copy run once over the
    last two commits, and a --full-refresh replay give the same table, equal to the reference
    over the tiers' history and to the tiers written out by hand, which a read of the table as it
    is now would not give. Then (Iceberg) the versions before the last expired: a replay is
    refused by name and changes nothing."""
    table, live = fresh_live_table(project)
    each, once = f"tmp_tt_each_{project.file_format}", f"tmp_tt_once_{project.file_format}"
    paths = time_travel_models(each, once)
    try:
        history, done = [], []
        tasks = {each: Task(orders_as_of), once: Task(orders_as_of)}
        for i, (tiers, orders) in enumerate(zip(TIER_VERSIONS, CLOCKED_ORDERS)):
            project.runner.execute(f"insert overwrite {table} values " + ", ".join(f"({c}, '{t}')" for c, t in tiers))
            written = utc_clock()   # the version's commit is before it
            history += [{"customer_id": c, "tier": t, "valid_from": written} for c, t in tiers]
            loaded = utc_clock()
            commit = [{"order_id": o, "customer_id": c, "amount": a, "load_tstamp": loaded} for o, c, a in orders]
            project.write_source("orders", ORDERS, commit)
            done += commit
            now = (utc_clock() + dt.timedelta(seconds=1)).replace(microsecond=0)
            ran = [each] if i else [each, once]
            run(project, " ".join(ran), now, **live)
            for name in ran:
                tasks[name].run(done, now, {"customer_tiers": history})
        run(project, once, now, **live)
        tasks[once].run(done, now, {"customer_tiers": history})
        by_hand = {1: "gold", 2: "silver", 3: "platinum", 4: "silver", 5: "bronze", 6: "gold"}
        assert {r["order_id"]: r["tier"] for r in tasks[each].output} == by_hand
        newest = dict(TIER_VERSIONS[-1])
        assert [o for o, c, _ in sum(CLOCKED_ORDERS, []) if newest[c] != by_hand[o]] == [1, 2, 4], "the newest tiers differ"
        for name, label in ((each, "one run per commit"), (once, "one run over the last two commits")):
            assert_rows_equal(output(project, name), tasks[name].output, label=f"{label} ({project.file_format})")
        run(project, each, now, "--full-refresh", **live)
        assert_rows_equal(output(project, each), tasks[each].output, label=f"a replay ({project.file_format})")
        if project.file_format == "iceberg":
            project.runner.execute(f"call {ICEBERG_CATALOG}.system.expire_snapshots(table => '{project.source_schema}.customer_tiers', "
                                   f"older_than => timestamp'{utc_clock():%Y-%m-%d %H:%M:%S.%f}', retain_last => 1)")
            first = project.rows(f"select date_format(made_current_at, 'yyyy-MM-dd HH:mm:ss.SSSSSS'), snapshot_id "
                                 f"from {table}.history order by 1")
            assert len(first) == 1, first
            step = min(r["load_tstamp"] for r in done)
            project.refused(
                f"tideline: continual task {each}: reference live.customer_tiers has no version at or before the step at "
                f"{f'{step:%Y-%m-%d %H:%M:%S.%f}'.rstrip('0').rstrip('.')}: its oldest kept version, {first[0][1]}, is from {first[0][0]}",
                lambda: run(project, each, now, "--full-refresh", expect_success=False, **live))
    finally:
        for path in paths:
            path.unlink()


@pytest.mark.formats("delta", "iceberg")
@pytest.mark.extended   # make test: the crash test on Delta, the interleaving of versions, commits and runs on Delta
def test_a_crash_then_newer_versions_then_a_rerun_reads_each_step_at_its_version(project, deps, crash_report):
    """Crash, rerun, same result, for a reference read by time travel: a first run, then a run of
    two steps, then a --full-refresh replay, each repeated until it finishes, each attempt dying
    after the first storage-changing statement no earlier attempt died after (harness.CrashPoints).
    Before every attempt the table gets a newer version, with customer 1 in another tier, as a
    live table changes while runs fail and are retried: a rerun lists the versions again, and
    its steps must still read the versions of their own times. After each run the output equals
    the reference and the tiers written out by hand."""
    table, live = fresh_live_table(project)
    project.reset_models()
    name = f"tmp_tt_crash_{project.file_format}"
    paths = time_travel_models(name)
    points = CrashPoints(project, [table.rsplit(".", 1)[0]])
    history, done, task = [], [], Task(orders_as_of)

    def write_version(tiers: dict[int, str]) -> None:
        project.runner.execute(f"insert overwrite {table} values " + ", ".join(f"({c}, '{t}')" for c, t in sorted(tiers.items())))
        written = utc_clock()
        history.extend({"customer_id": c, "tier": t, "valid_from": written} for c, t in tiers.items())

    def attempts(now: dt.datetime, tiers: dict[int, str], *extra: str):
        def attempt(on_event):
            write_version({**tiers, 1: f"retried {len(history)}"})   # newer than every step of the run
            return run(project, name, now, *extra, expect_success=False, on_event=on_event, **live)
        return attempt

    try:
        for i, (tiers, orders) in enumerate(zip(TIER_VERSIONS, CLOCKED_ORDERS)):
            write_version(dict(tiers))
            loaded = utc_clock()
            commit = [{"order_id": o, "customer_id": c, "amount": a, "load_tstamp": loaded} for o, c, a in orders]
            project.write_source("orders", ORDERS, commit)
            done += commit
            if i == 1:
                continue   # the next run takes two commits, two steps
            now = utc_clock().replace(microsecond=0) + dt.timedelta(seconds=1)
            points.until_done(attempts(now, dict(tiers)), f"the run after commit {i + 1}")
            task.run(done, now, {"customer_tiers": history})
            assert_rows_equal(output(project, name), task.output, label=f"{name} after commit {i + 1}")
        points.until_done(attempts(now, dict(TIER_VERSIONS[-1]), "--full-refresh"), "a replay")
        assert_rows_equal(output(project, name), task.output, label=f"{name} replayed")
        assert {r["order_id"]: r["tier"] for r in task.output} == {1: "gold", 2: "silver", 3: "platinum", 4: "silver",
                                                                    5: "bronze", 6: "gold"}
    finally:
        for path in paths:
            path.unlink()
    crash_report(points.report(f"a reference by time travel ({project.file_format})"))


# The seed's upsert in the legacy form of tideline 0.1 (plain statements separated by `;`), which
# models written before the statement blocks keep: the scenario below runs it.
LEGACY_UPSERT = """{{ config(materialized='continual_task', snapshot=false, columns={'key': 'int', 'val': 'int'},
          inputs={'stream.append_only': {'commit_column': 'load_tstamp'}}) }}

delete from {{ this }}
where key in (select key from {{ tideline.input('stream.append_only') }});  -- a ';' in a comment

insert into {{ this }}
select key, max(val) as val from {{ tideline.input('stream.append_only') }}
where cast(key as string) != ';'
group by key
"""


def test_without_snapshot_the_output_starts_empty_and_takes_later_commits_only(project, deps):
    """Also the legacy form of a model (statements separated by `;`): it keeps working."""
    path = CONTINUAL / "models" / "tmp_upsert_no_snapshot.sql"
    path.write_text(LEGACY_UPSERT)
    try:
        project.write_source("append_only", APPEND_ONLY, LOADS[0], replace=True)
        task = Task(upsert, snapshot=False)
        done = list(LOADS[0])
        for i, load in enumerate(LOADS[1:], start=1):
            if i > 1:
                project.write_source("append_only", APPEND_ONLY, load)
                done += load
            now = at(60 * i + 50)
            run(project, "tmp_upsert_no_snapshot", now)
            task.run(done, now)
            assert_rows_equal(output(project, "tmp_upsert_no_snapshot"), task.output, label=f"after the run at {now}")
        assert task.output and all(r["key"] != 2 or r["val"] != 20 for r in task.output)
        run(project, "tmp_upsert_no_snapshot", now, "--full-refresh")
        assert_rows_equal(output(project, "tmp_upsert_no_snapshot"), task.output, label="replayed without snapshot")
    finally:
        path.unlink()


@pytest.mark.formats("parquet", "delta", "iceberg")
@pytest.mark.make_test_formats("delta")
def test_a_crash_after_any_statement_then_a_rerun_equals_an_uninterrupted_run(project, deps, crash_report):
    """A full refresh (the snapshot), a run of two steps, an empty run, a run of three steps;
    every second step compacts (compact_every 2). Each run is repeated until it finishes, each attempt
    dying after the first statement that changes storage no earlier attempt died after
    (harness.CrashPoints): inside a step, between its insert and its commit, in a compaction
    (a new generation no commit names, or the old one not yet dropped). After each run both
    tasks equal the reference."""
    project.reset_models()   # from an empty schema: a first build's statements are crash points too
    points = CrashPoints(project)
    tasks = {"upsert": Task(upsert), "running_totals": Task(running_totals)}
    done: list[dict] = []
    for minutes, load, extra in ((50, LOADS[0], ("--full-refresh",)), (110, LOADS[1], ()), (120, LOADS[2], ()), (160, LOADS[3], ())):
        project.write_source("append_only", APPEND_ONLY, load, replace=not done)
        done += load
        points.until_done(lambda on_event: run(project, " ".join(tasks), at(minutes), *extra, expect_success=False,
                                               on_event=on_event), f"run at {at(minutes)} {' '.join(extra)}")
        for name, task in tasks.items():
            task.run(done, at(minutes))
            assert_rows_equal(output(project, name), task.output, label=f"{name} at {at(minutes)}")
    assert points.nodes() >= set(tasks), points.nodes()
    crash_report(points.report(f"continual tasks ({project.file_format})"))


def task_state(project, model: str) -> list[tuple]:
    """The task's rows of tl_state, sorted: what its next run reads."""
    return sorted(project.rows(f"select * from {project.fresh('tl_state')} where model = '{model}'"), key=repr)


@pytest.mark.formats("parquet", "delta", "iceberg")
@pytest.mark.extended   # make test: a derivation's, on parquet and Iceberg (one swap_data_table for both)
def test_a_full_refresh_is_atomic_it_dies_before_its_commit_changing_nothing(project, deps):
    """Two runs, then a --full-refresh (a replay of several steps) killed after its first
    step's insert: readers see exactly the output of the second run and the state is as it
    was. Killed right after its one commit: readers see the replay, whose steps are the
    state now; the next run continues from it."""
    models = {"upsert": upsert, "running_totals": running_totals}
    project.write_source("append_only", APPEND_ONLY, LOADS[0], replace=True)
    run(project, " ".join(models), at(50), "--full-refresh")
    project.write_source("append_only", APPEND_ONLY, LOADS[1])
    run(project, " ".join(models), at(110))
    before = {m: (sorted(project.table(m), key=repr), task_state(project, m)) for m in models}
    project.write_source("append_only", APPEND_ONLY, LOADS[3])
    for model in models:
        crashed = run(project, model, at(160), "--full-refresh", expect_success=False, tideline__fail_at=f"{model}:written")
        assert any(f"injected failure after {model}:written" in m for m in crashed.messages), crashed.messages
        assert (sorted(project.table(model), key=repr), task_state(project, model)) == before[model], f"{model} changed"
        crashed = run(project, model, at(160), "--full-refresh", expect_success=False, tideline__fail_at=f"{model}:committed")
        assert any(f"injected failure after {model}:committed" in m for m in crashed.messages), crashed.messages
    later = [kv(2, 7, 170)]
    project.write_source("append_only", APPEND_ONLY, later)
    run(project, " ".join(models), at(180))
    for name, fn in models.items():
        task = Task(fn)
        task.run(LOADS[0], at(50))
        task.run(LOADS[0] + LOADS[1] + LOADS[3], at(160))
        replayed = {r[0].rsplit("/", 1)[0] for r in task_state(project, name) if r[2] <= at(160)}
        assert len(replayed) == 1, f"{name}: the replay's steps are not the state ({replayed})"
        task.run(LOADS[0] + LOADS[1] + LOADS[3] + later, at(180))
        assert_rows_equal(output(project, name), task.output, label=f"{name} after the rebuild and a run")


@pytest.mark.formats("parquet", "delta", "iceberg")
@pytest.mark.extended   # the derivation's runs in make test (one swap_data_table for both)
def test_a_full_refresh_that_changes_the_columns_swaps_tables_atomically(project, deps, tmp_path):
    """The upsert's column val changed from int to bigint between two runs: its --full-refresh
    builds a new data table beside the old one and swaps the view onto it. Killed after its
    insert or after its (pending) commit, readers see the old output and the state is as it
    was; killed right after the swap, readers see the rebuilt output (of the new type); a
    rerun killed after it promoted the state, then a rerun with a new load: the output equals
    the reference's, one data table is left, and no pending state."""
    changed = project_copy(CONTINUAL, tmp_path / "changed", {"upsert.sql": ("'val': 'int'", "'val': 'bigint'")})
    project.dbt("deps", project_dir=changed)
    project.write_source("append_only", APPEND_ONLY, LOADS[0], replace=True)
    run(project, "upsert", at(50), "--full-refresh")
    project.write_source("append_only", APPEND_ONLY, LOADS[1])
    run(project, "upsert", at(110))
    before = (sorted(project.table("upsert"), key=repr), task_state(project, "upsert"))
    project.write_source("append_only", APPEND_ONLY, LOADS[3])
    for step in ("written", "committed"):
        crashed = run(project, "upsert", at(160), "--full-refresh", expect_success=False, project_dir=changed,
                      tideline__fail_at=f"upsert:{step}")
        assert any(f"injected failure after upsert:{step}" in m for m in crashed.messages), crashed.messages
        assert (sorted(project.table("upsert"), key=repr), task_state(project, "upsert")) == before, f"killed after {step}: upsert changed"
    crashed = run(project, "upsert", at(160), "--full-refresh", expect_success=False, project_dir=changed, tideline__fail_at="upsert:swapped")
    assert any("injected failure after upsert:swapped" in m for m in crashed.messages), crashed.messages
    task = Task(upsert)
    task.run(LOADS[0], at(50))
    task.run(LOADS[0] + LOADS[1] + LOADS[3], at(160))
    assert_rows_equal(output(project, "upsert"), task.output, label="upsert after the swap")
    assert {r[0]: r[1] for r in project.rows(f"describe {project.fresh('upsert')}")}["val"] == "bigint"
    assert project.data_tables("upsert") == ["upsert__tl_data", "upsert__tl_data_b"]
    crashed = run(project, "upsert", at(160), expect_success=False, project_dir=changed, tideline__fail_at="upsert:promoted")
    assert any("injected failure after upsert:promoted" in m for m in crashed.messages), crashed.messages
    assert_rows_equal(output(project, "upsert"), task.output, label="upsert after the promotion")
    later = [kv(2, 7, 170), kv(5, 50, 175)]
    project.write_source("append_only", APPEND_ONLY, later)
    run(project, "upsert", at(180), project_dir=changed)
    task.run(LOADS[0] + LOADS[1] + LOADS[3] + later, at(180))
    assert_rows_equal(output(project, "upsert"), task.output, label="upsert after the rebuild and a run")
    assert project.data_tables("upsert") == ["upsert__tl_data_b"]
    assert project.rows(f"select count(*) from {project.fresh('tl_state')} where model like 'upsert%' and model != 'upsert'") == [(0,)]
    replayed = {r[0].rsplit("/", 1)[0] for r in task_state(project, "upsert") if r[2] <= at(160)}
    assert len(replayed) == 1, f"the replay's steps are not the state ({replayed})"


@pytest.mark.extended   # make test: a derivation's full refresh that changes the columns (one swap_data_table for both)
def test_a_changed_file_format_is_refused_then_a_full_refresh_converts_it_atomically(project, deps):
    """The upsert built in parquet, then its file_format changed to Iceberg (its own catalog),
    then to Delta: an incremental run in the new format is refused by name and changes
    nothing; a --full-refresh killed after its pending commit changes nothing; killed after
    the swap, readers see the replay; the next run finishes the swap and drops the old
    table; the output equals the reference's after each conversion and after a later run.
    tl_state keeps its format."""
    original = project.file_format   # the module's, and its tl_state's
    state = {"tideline__state_file_format": original}
    try:
        project.file_format = "parquet"
        project.write_source("append_only", APPEND_ONLY, LOADS[0], replace=True)
        run(project, "upsert", at(50), "--full-refresh", **state)
        project.write_source("append_only", APPEND_ONLY, LOADS[1])
        run(project, "upsert", at(110), **state)
        before = (sorted(project.table("upsert"), key=repr), task_state(project, "upsert"))
        project.write_source("append_only", APPEND_ONLY, LOADS[3])
        project.file_format = "iceberg"
        project.refused(f"tideline: model upsert: table {project.schema}.upsert__tl_data is parquet, the model's file_format is iceberg;"
                        " nothing was written. Convert it with dbt run --full-refresh --select upsert"
                        " (the old table stays readable until the new one replaces it), or set file_format: parquet",
                        lambda: run(project, "upsert", at(160), expect_success=False, **state))
        crashed = run(project, "upsert", at(160), "--full-refresh", expect_success=False, tideline__fail_at="upsert:committed", **state)
        assert any("injected failure after upsert:committed" in m for m in crashed.messages), crashed.messages
        project.file_format = original   # where tl_state is
        assert (sorted(project.table("upsert"), key=repr), task_state(project, "upsert")) == before, "upsert changed"
        project.file_format = "iceberg"
        crashed = run(project, "upsert", at(160), "--full-refresh", expect_success=False, tideline__fail_at="upsert:swapped", **state)
        assert any("injected failure after upsert:swapped" in m for m in crashed.messages), crashed.messages
        task = Task(upsert)
        task.run(LOADS[0], at(50))
        task.run(LOADS[0] + LOADS[1] + LOADS[3], at(160))
        assert_rows_equal(output(project, "upsert"), task.output, label="upsert after the swap to iceberg")
        run(project, "upsert", at(160), **state)
        assert project.data_tables("upsert") == ["upsert__tl_data_b"]
        assert project.table_format("upsert__tl_data_b") == "iceberg"
        assert not project.rows(f"show tables in {project.schema} like 'upsert__tl_data*'"), "the parquet table is dropped"
        later = [kv(2, 7, 170), kv(5, 50, 175)]
        project.write_source("append_only", APPEND_ONLY, later)
        run(project, "upsert", at(180), **state)
        task.run(LOADS[0] + LOADS[1] + LOADS[3] + later, at(180))
        assert_rows_equal(output(project, "upsert"), task.output, label="upsert in iceberg after a run")

        project.file_format = "delta"
        run(project, "upsert", at(180), "--full-refresh", **state)
        assert project.data_tables("upsert") == ["upsert__tl_data"]
        assert project.table_format("upsert__tl_data") == "delta"
        assert_rows_equal(output(project, "upsert"), task.output, label="upsert in delta")
        project.file_format = "iceberg"
        assert project.data_tables("upsert") == [], "the Iceberg table is dropped"
    finally:
        project.file_format = original


def test_a_data_table_dropped_by_hand_is_rebuilt_from_the_creation_time_its_state_keeps(project, deps):
    """The upsert's data table dropped by hand after three runs (it compacted, so its live
    generation is past 0): the next run forgets the rest of the state, keeps the creation
    time, and replays from it into a new table; the output equals the reference's."""
    project.write_source("append_only", APPEND_ONLY, LOADS[0], replace=True)
    run(project, "upsert", at(50), "--full-refresh")
    for load, now in ((LOADS[1], at(110)), (LOADS[3], at(160))):
        project.write_source("append_only", APPEND_ONLY, load)
        run(project, "upsert", now)
    assert project.rows(f"select max(generation) from {project.fresh('tl_state')} where model = 'upsert'")[0][0] > 0
    # the live slot: __tl_data, or __tl_data_b after an earlier test's rebuild into a new table
    [data_table] = project.data_tables("upsert")
    project.runner.execute(f"drop table {project.relation(data_table)}")
    run(project, "upsert", at(170), tideline__compact_every=100)   # the replay stays in generation 0
    task = Task(upsert)
    task.run(LOADS[0], at(50))
    task.run(LOADS[0] + LOADS[1] + LOADS[3], at(170))
    assert_rows_equal(output(project, "upsert"), task.output, label="upsert rebuilt after its data table was dropped")


def test_compaction_keeps_the_data_table_to_the_live_rows_and_each_rows_commit_time(project, deps):
    """Six steps, each replacing keys 1 and 2 (key 3 comes once, in the first): without
    compaction the upsert's data table would hold every deletion and every replaced row (23
    rows at the end); with compact_every 2 it holds the live rows plus at most two steps of
    changes, in at most two generations, and every row keeps the time of the step that
    inserted it (key 3's stays the first step's across the compactions)."""
    project.write_source("append_only", APPEND_ONLY, [], replace=True)
    project.reset_models()
    task, done = Task(upsert), []
    for i in range(6):
        load = [kv(key, 10 * i + key, 10 * i) for key in ((1, 2, 3) if i == 0 else (1, 2))]
        project.write_source("append_only", APPEND_ONLY, load)
        done += load
        run_and_compare(project, {"upsert": task}, done, at(10 * i + 5))
        stored = project.rows(f"select count(*), count(distinct tl_gen) from {project.fresh('upsert__tl_data')}")[0]
        assert stored[0] <= 3 + 2 * 4 and stored[1] <= 2, f"after step {i}: {stored[0]} rows in {stored[1]} generations"
        batches = {r["key"]: r["_tl_batch"] for r in project.table("upsert")}
        assert batches == {1: at(10 * i), 2: at(10 * i), 3: at(0)}, batches


# ---- batch invariance: random commits and random run splits (hypothesis) -----------------------

from hypothesis import example, given  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

commits = st.lists(st.tuples(st.integers(1, 4), st.integers(-50, 50), st.integers(0, 5)), min_size=1, max_size=10)


@end_to_end_property(make_test=1)
@given(rows=commits, runs=st.integers(1, 3), seed=st.randoms(use_true_random=False))
def test_any_split_of_runs_equals_the_reference_and_one_replay(project, deps, rows, runs, seed):
    loaded = [kv(k, v, 10 * (load + 1)) for k, v, load in rows]
    project.write_source("append_only", APPEND_ONLY, [], replace=True)
    project.reset_models()
    tasks = {"upsert": Task(upsert), "running_totals": Task(running_totals)}
    for done, now, _ in split_loads(project, "append_only", APPEND_ONLY, loaded, runs, seed):
        run_and_compare(project, tasks, done, now)
    run_and_compare(project, tasks, done, now, "--full-refresh")


# a kept history of tiers (customer, tier, valid_from in tens of minutes; one row per customer and
# time) and orders (customer, amount, commit time in tens of minutes after the first)
tier_rows = st.lists(st.tuples(st.integers(1, 3), st.sampled_from(["bronze", "silver", "gold"]), st.integers(0, 7)),
                     max_size=8, unique_by=lambda r: (r[0], r[2]))
order_rows = st.lists(st.tuples(st.integers(1, 3), st.integers(1, 100), st.integers(0, 5)), min_size=1, max_size=8)


@end_to_end_property(make_test=1)
@given(tiers=tier_rows, orders=order_rows, runs=st.integers(1, 3), seed=st.randoms(use_true_random=False))
def test_any_split_of_runs_reads_each_reference_as_of_its_step(project, deps, tiers, orders, runs, seed):
    """Issue 35, item 8, over random input: orders_as_of over a random kept history of tiers,
    written whole before the first run (so a read of it as it is would give later tiers), and
    random order commits split at random into runs: after every run the output equals the
    reference, which joins each order with its customer's tier valid at the order's commit time
    (the snapshot's rows: at the first run's frontier); then a --full-refresh replay gives the same."""
    history = [{"customer_id": c, "tier": t, "valid_from": at(10 * v)} for c, t, v in tiers]
    loaded = [{"order_id": i + 1, "customer_id": c, "amount": float(a), "load_tstamp": at(10 * (load + 1))}
              for i, (c, a, load) in enumerate(orders)]
    project.reset_models()
    project.write_source("customer_tiers", TIERS, history, replace=True)
    project.write_source("orders", ORDERS, [], replace=True)
    task, references = Task(orders_as_of), {"customer_tiers": history}
    for done, now, _ in split_loads(project, "orders", ORDERS, loaded, runs, seed):
        run(project, "orders_as_of", now)
        task.run(done, now, references)
        assert_rows_equal(output(project, "orders_as_of"), task.output, label=f"orders_as_of after the run at {now}")
    run(project, "orders_as_of", now, "--full-refresh")
    assert_rows_equal(output(project, "orders_as_of"), task.output, label="orders_as_of replayed")


# what happens to live.customer_tiers and the orders, in order, on the clock: a customer's tier set
# (None: the customer's row deleted), a commit of orders (customer, amount), or a run of the task
clocked_events = st.lists(st.one_of(
    st.tuples(st.just("tier"), st.integers(1, 3), st.sampled_from(["bronze", "silver", "gold", None])),
    st.tuples(st.just("orders"), st.lists(st.tuples(st.integers(1, 3), st.integers(1, 100)), min_size=1, max_size=3)),
    st.just(("run",))), min_size=1, max_size=9)


@pytest.mark.both_targets   # Delta's history read through the Thrift server too
@pytest.mark.formats("delta", "iceberg")
@pytest.mark.make_test_formats("delta")
@end_to_end_property(make_test=1, examples=4)
@given(events=clocked_events)
# versions after commits of one run, a deleted customer, a customer before its first version
@example(events=[("tier", 1, "gold"), ("orders", [(1, 10), (2, 5)]), ("run",), ("tier", 1, "silver"), ("orders", [(1, 20), (2, 5)]),
                 ("tier", 2, "bronze"), ("tier", 1, None), ("orders", [(1, 30), (2, 6)])])
def test_any_interleaving_of_versions_commits_and_runs_reads_each_step_at_its_version(project, deps, events):
    """Issue 35, item 8, by time travel, over random input: versions of live.customer_tiers (each
    change a version of the whole table), commits of orders and runs of orders_time_travel,
    interleaved at random on the clock (a run where the events say, and one a second after the
    last event, which takes every commit): after
    every run the output equals the reference over the tiers' history (each version valid from
    when its write returned), and a --full-refresh replay gives the same."""
    table, live = fresh_live_table(project)
    project.reset_models()
    name = f"tmp_tt_any_{project.file_format}"
    paths = time_travel_models(name)
    tiers: dict[int, str | None] = {}
    history, done, task = [], [], Task(orders_as_of)
    try:
        for event in [*events, ("wait",), ("run",)]:   # the last run a second later: it takes every commit
            if event[0] == "wait":
                time.sleep(1.0)
            elif event[0] == "tier":
                tiers[event[1]] = event[2]
                kept = [f"({c}, '{t}')" for c, t in sorted(tiers.items()) if t is not None]
                # (an overwrite with no rows replaces nothing under dynamic partition overwrite)
                project.runner.execute(f"insert overwrite {table} values {', '.join(kept)}" if kept else f"delete from {table}")
                written = utc_clock()
                history += [{"customer_id": c, "tier": t, "valid_from": written} for c, t in tiers.items()]
            elif event[0] == "orders":
                loaded = utc_clock()
                commit = [{"order_id": len(done) + i + 1, "customer_id": c, "amount": float(a), "load_tstamp": loaded}
                          for i, (c, a) in enumerate(event[1])]
                project.write_source("orders", ORDERS, commit)
                done += commit
            else:
                now = utc_clock().replace(microsecond=0)
                run(project, name, now, **live)
                task.run(done, now, {"customer_tiers": history})
                assert_rows_equal(output(project, name), task.output, label=f"{name} after the run at {now}, events {events}")
        run(project, name, now, "--full-refresh", **live)
        assert_rows_equal(output(project, name), task.output, label=f"{name} replayed, events {events}")
    finally:
        for path in paths:
            path.unlink()


@end_to_end_property(make_test=1)
@given(rows=commits, runs=st.integers(2, 4), schedule=st.lists(st.booleans(), min_size=4, max_size=4),
       seed=st.randoms(use_true_random=False))
def test_any_schedule_of_a_task_over_the_upsert_equals_the_reference(project, deps, rows, runs, schedule, seed):
    """Random commits split into random runs of the upsert (compacting every 2 steps), and
    upsert_changes run in the runs `schedule` picks (and the last): after each run of it its
    rows equal the reference's and its changes applied give the upsert's rows."""
    loaded = [kv(k, v, 10 * (load + 1)) for k, v, load in rows]
    project.write_source("append_only", APPEND_ONLY, [], replace=True)
    project.reset_models()
    up, down = Task(upsert), Task(upsert_changes, commit="_tl_batch")
    for i, (done, now, last) in enumerate(split_loads(project, "append_only", APPEND_ONLY, loaded, runs, seed)):
        both = last or schedule[i]
        run(project, "upsert upsert_changes" if both else "upsert", now)
        up.run(done, now)
        if both:
            down.run(up.changes, now)
            assert_changes_read(project, down)


# ---- bad input: refused before anything is written ---------------------------------------------

GOOD_CONFIG = "columns={'key': 'int', 'val': 'int'}, inputs={'stream.append_only': {'commit_column': 'load_tstamp'}}"
GOOD_INSERT = "insert into {{ this }} select key, val from {{ tideline.input('stream.append_only') }}"
GOOD_BLOCK = "{% call tideline.task_insert() %} select key, val from {{ tideline.input('stream.append_only') }} {% endcall %}"
# the refusals of a reference read by time travel (time_travel.sql); braces doubled for BAD_TASKS' .format
TIME_TRAVEL_ACCEPTED = ("{{time_travel: true}} alone (a Delta or Iceberg table read by its versions), or "
                        "{{valid_from: column, key: columns}} (a kept history)")
NO_VERSIONS = ("references.stream.{name}.time_travel = true is invalid; accepted: a Delta or Iceberg table, whose versions "
               "time travel reads ({{source}}.{name} is {found}, without versions); keep its history in the table and declare "
               "{{{{valid_from: column, key: columns}}}} instead")
BAD_TASKS = {
    # config columns left out: the output's columns are inferred from the first insert, unless...
    "bad_no_columns": ("inputs={'stream.append_only': {'commit_column': 'load_tstamp'}}",
                       GOOD_INSERT + " where key not in (select key from {{ this }})",
                       "columns = null is invalid; accepted: a mapping of column name to Spark type, e.g. {{'key': 'int', 'val': 'int'}}: "
                       "required when a statement reads the output ({{{{ this }}}}, statement 1)"),
    "bad_no_columns_no_insert": ("inputs={'stream.append_only': {'commit_column': 'load_tstamp'}}",
                                 "{% call tideline.task_delete() %} key > 3 {% endcall %}",
                                 "columns = null is invalid; accepted: a mapping of column name to Spark type, e.g. "
                                 "{{'key': 'int', 'val': 'int'}}: required for a task without an insert"),
    "bad_no_columns_unnamed": ("inputs={'stream.append_only': {'commit_column': 'load_tstamp'}}",
                               "{% call tideline.task_delete() %} key > 3 {% endcall %}\n{% call tideline.task_insert() %} "
                               "select key, max(val) from {{ tideline.input('stream.append_only') }} group by key {% endcall %}",
                               "statement 2 column 2 = \"max(val)\" is invalid; accepted: a distinct column name of letters, digits "
                               "and underscores, not starting with _tl_ (name the select's column with `as`), or config columns"),
    "bad_no_columns_untyped": ("inputs={'stream.append_only': {'commit_column': 'load_tstamp'}}",
                               "{% call tideline.task_insert() %} select key, null as val from "
                               "{{ tideline.input('stream.append_only') }} {% endcall %}",
                               "statement 1 column val = \"void\" is invalid; accepted: a column of a type (a bare null has none: "
                               "cast it, e.g. cast(null as int)), or config columns"),
    "bad_no_columns_unplanned": ("inputs={'stream.append_only': {'commit_column': 'load_tstamp'}}",
                                 "{% call tideline.task_insert() %} select kye from {{ tideline.input('stream.append_only') }} {% endcall %}",
                                 "statement 1 = \"select kye from (select * from {source}.append_only where true)\" is invalid; accepted: "
                                 "a select Spark can plan over the task's inputs (its columns are the output's: config columns is left "
                                 "out); Spark says: [UNRESOLVED_COLUMN.WITH_SUGGESTION] A column or function parameter with name `kye` "
                                 "cannot be resolved."),
    "bad_config_name": (GOOD_CONFIG + ", snapshto=false", GOOD_INSERT,
                        "config snapshto is not a config of materialized='continual_task' (did you mean snapshot?); its configs: "
                        "columns, compact_every, file_format, inputs, late_row_lookback, on_bad_rows, on_definition_change, references, snapshot"),
    "bad_input_key": ("columns={'key': 'int', 'val': 'int'}, inputs={'stream.append_only': {'comit_column': 'load_tstamp'}}",
                      GOOD_INSERT, "inputs.stream.append_only.comit_column = \"load_tstamp\" is invalid; accepted: a key of "
                      "inputs.stream.append_only: commit_column (did you mean commit_column?)"),
    "bad_input_deletes_of_a_source": (GOOD_CONFIG, "{% call tideline.task_insert() %} select key, val from "
                                      "{{ tideline.input_deletes('stream.append_only') }} {% endcall %}",
                                      "tideline.input_deletes = \"stream.append_only\" is invalid; accepted: inputs named in config "
                                      "inputs that are continual tasks (none): another input only ever gains rows"),
    "bad_column_type": ("columns={'key': 'int', 'val': 'integr'}, inputs={'stream.append_only': {'commit_column': 'load_tstamp'}}",
                        GOOD_INSERT, "columns.val = \"integr\" is invalid; accepted: a Spark type: boolean, tinyint, smallint, "
                        "int, bigint, float, double, decimal(p,s), string, binary, date, timestamp, timestamp_ntz, char(n), "
                        "varchar(n), array<t>, map<k,v> or struct<name:t,...> (did you mean integer?)"),
    "bad_self_input": ("columns={'key': 'int', 'val': 'int'}, inputs=['bad_self_input']", GOOD_INSERT,
                       "inputs = \"bad_self_input\" is invalid; accepted: other models or sources: the task's output is read as "
                       "{{{{ this }}}}, never as an input"),
    "bad_unknown_input": (GOOD_CONFIG, "insert into {{ this }} select 1, anomaly_count from {{ tideline.input('stream.anomalies') }}",
                          "tideline.input = \"stream.anomalies\" is invalid; accepted: inputs named in config inputs "
                          "(stream.append_only)"),
    "bad_no_commit_column": ("columns={'key': 'int', 'val': 'int'}, inputs=['stream.append_only']", GOOD_INSERT,
                             "inputs.stream.append_only.commit_column = \"_tl_batch\" is invalid; accepted: a timestamp column of "
                             "{source}.append_only (key, val, load_tstamp)"),
    "bad_view_input": ("columns={'key': 'int', 'val': 'int'}, inputs={'stream.plain_view': {'commit_column': 'load_tstamp'}}",
                       "{% call tideline.task_insert() %} select key, val from {{ tideline.input('stream.plain_view') }} {% endcall %}",
                       "inputs = \"stream.plain_view\" is invalid; accepted: tables, or tideline's own outputs "
                       "({source}.plain_view is a view: its rows have no commit time of their own)"),
    "bad_update": (GOOD_CONFIG, "update {{ this }} set val = 1",
                   "statement 1 = \"update {schema}.bad_update set val = 1\" is invalid; accepted: `delete from {{{{ this }}}} "
                   "[where ...]` or `insert into {{{{ this }}}} [(columns)] select ...`, or the blocks tideline.task_delete() "
                   "and tideline.task_insert()"),
    "bad_other_target": (GOOD_CONFIG, "insert into somewhere_else select key, val from {{ tideline.input('stream.append_only') }}",
                         "statement 1 = \"{quoted}\" is invalid; accepted: statements that write the task's own output, "
                         "{schema}.bad_other_target ({{{{ this }}}}), and nothing else"),
    "bad_column_count": (GOOD_CONFIG, "insert into {{ this }} select key, val, 1 from {{ tideline.input('stream.append_only') }}",
                         "statement 1 = [\"key\", \"val\", \"1\"] is invalid; accepted: a select of 2 columns (key, val), not 3"),
    "bad_column_name": (GOOD_CONFIG, "insert into {{ this }} (key, value) select key, val from {{ tideline.input('stream.append_only') }}",
                        "statement 1 = \"value\" is invalid; accepted: columns of config columns (key, val)"),
    "bad_compact_every": (GOOD_CONFIG + ", compact_every=0", GOOD_INSERT,
                          "compact_every = 0 is invalid; accepted: an integer >= 1 (runs between compactions)"),
    # statement blocks (statement_blocks.sql)
    "bad_block_and_plain_sql": (GOOD_CONFIG, GOOD_BLOCK + "\nselect 1",
                                "statements = \"select 1\" is invalid; accepted: tideline.task_delete() and tideline.task_insert() "
                                "blocks and comments only (or, without blocks, plain statements separated by `;`)"),
    "bad_block_unknown_input": (GOOD_CONFIG, "{% call tideline.task_insert() %} select 1, anomaly_count from "
                                "{{ tideline.input('stream.anomalies') }} {% endcall %}",
                                "tideline.input = \"stream.anomalies\" is invalid; accepted: inputs named in config inputs "
                                "(stream.append_only)"),
    "bad_block_column_name": (GOOD_CONFIG, "{% call tideline.task_insert(columns=['key', 'value']) %} select key, val from "
                              "{{ tideline.input('stream.append_only') }} {% endcall %}",
                              "statement 1 = \"value\" is invalid; accepted: columns of config columns (key, val)"),
    "bad_block_columns_text": (GOOD_CONFIG, "{% call tideline.task_insert(columns='key') %} select key from "
                               "{{ tideline.input('stream.append_only') }} {% endcall %}",
                               "statement 1 = \"key\" is invalid; accepted: columns: a list of the output's column names"),
    "bad_block_column_count": (GOOD_CONFIG, "{% call tideline.task_insert() %} select key from "
                               "{{ tideline.input('stream.append_only') }} {% endcall %}",
                               "statement 1 = [\"key\"] is invalid; accepted: a select of 2 columns (key, val), not 1"),
    # statements Spark cannot plan: refused before the first write, with Spark's reason
    "bad_insert_column": (GOOD_CONFIG, "{% call tideline.task_insert() %} select kye, val from "
                          "{{ tideline.input('stream.append_only') }} {% endcall %}",
                          "statement 1 = \"select kye, val from (select * from {source}.append_only where true)\" is invalid; "
                          "accepted: a select Spark can plan over the task's inputs and its output (key, val); Spark says: "
                          "[UNRESOLVED_COLUMN.WITH_SUGGESTION] A column or function parameter with name `kye` cannot be resolved."),
    "bad_delete_column": (GOOD_CONFIG, "{% call tideline.task_delete() %} vall > 3 {% endcall %}\n" + GOOD_BLOCK,
                          "statement 1 = \"vall > 3\" is invalid; accepted: a condition Spark can plan over the task's inputs "
                          "and its output (key, val); Spark says: [UNRESOLVED_COLUMN.WITH_SUGGESTION] A column or function "
                          "parameter with name `vall` cannot be resolved."),
    "bad_insert_function": (GOOD_CONFIG, "{% call tideline.task_insert() %} select key, sqaure(val) from "
                            "{{ tideline.input('stream.append_only') }} {% endcall %}",
                            "statement 1 = \"select key, sqaure(val) from (select * from {source}.append_only where true)\" is invalid; "
                            "accepted: a select Spark can plan over the task's inputs and its output (key, val); Spark says: "
                            "[UNRESOLVED_ROUTINE] Cannot resolve function `sqaure` on search path"),
    "bad_insert_type": (GOOD_CONFIG, "{% call tideline.task_insert() %} select key, array(val) from "
                        "{{ tideline.input('stream.append_only') }} {% endcall %}",
                        "statement 1 column val = \"array<int>\" is invalid; accepted: " + unfit_accepted("int", "the statement")),
    "bad_insert_boolean": (GOOD_CONFIG, "{% call tideline.task_insert() %} select key, val > 3 from "
                           "{{ tideline.input('stream.append_only') }} {% endcall %}",
                           "statement 1 column val = \"boolean\" is invalid; accepted: " + unfit_accepted("int", "the statement")),
    "bad_insert_string": (GOOD_CONFIG, "{% call tideline.task_insert() %} select key, string(val) from "
                          "{{ tideline.input('stream.append_only') }} {% endcall %}",
                          "statement 1 column val = \"string\" is invalid; accepted: " + unfit_accepted("int", "the statement")),
    "bad_delete_function": (GOOD_CONFIG, "{% call tideline.task_delete() %} nope(key) {% endcall %}\n" + GOOD_BLOCK,
                            "statement 1 = \"nope(key)\" is invalid; accepted: a condition Spark can plan over the task's inputs and "
                            "its output (key, val); Spark says: [UNRESOLVED_ROUTINE] "),
    "bad_insert_table": (GOOD_CONFIG, "{% call tideline.task_insert() %} select key, val from nowhere {% endcall %}",
                         "statement 1 = \"select key, val from nowhere\" is invalid; accepted: a select Spark can plan over the "
                         "task's inputs and its output (key, val); Spark says: [TABLE_OR_VIEW_NOT_FOUND] "),
    "bad_insert_group_by": (GOOD_CONFIG, "{% call tideline.task_insert() %} select key, val from "
                            "{{ tideline.input('stream.append_only') }} group by key {% endcall %}",
                            "statement 1 = \"select key, val from (select * from {source}.append_only where true) group by key\" "
                            "is invalid; accepted: a select Spark can plan over the task's inputs and its output (key, val); Spark "
                            "says: [MISSING_AGGREGATION] "),
    # references read as of each step (references.sql)
    "bad_reference_list": (GOOD_CONFIG + ", references=['stream.anomalies']", GOOD_BLOCK,
                           "references = [\"stream.anomalies\"] is invalid; accepted: a mapping of reference name (a model, or "
                           "'source.table') to {{valid_from: column, key: column or list}}, e.g. {{'stream.customer_tiers': "
                           "{{'valid_from': 'valid_from', 'key': 'customer_id'}}}}"),
    "bad_reference_key_name": (GOOD_CONFIG + ", references={'stream.anomalies': {'valid_form': 'load_tstamp'}}", GOOD_BLOCK,
                               "references.stream.anomalies.valid_form = \"load_tstamp\" is invalid; accepted: a key of "
                               "references.stream.anomalies: key, time_travel, valid_from (did you mean valid_from?)"),
    "bad_reference_time_travel_parquet": (GOOD_CONFIG + ", references={'stream.anomalies': {'time_travel': true}}", GOOD_BLOCK,
                                          NO_VERSIONS.format(name="anomalies", found="parquet")),
    "bad_reference_time_travel_view": (GOOD_CONFIG + ", references={'stream.plain_view': {'time_travel': true}}", GOOD_BLOCK,
                                       NO_VERSIONS.format(name="plain_view", found="a view")),
    "bad_reference_time_travel_and_valid_from": (
        GOOD_CONFIG + ", references={'stream.anomalies': {'time_travel': true, 'valid_from': 'load_tstamp'}}", GOOD_BLOCK,
        "references.stream.anomalies = {{\"time_travel\": true, \"valid_from\": \"load_tstamp\"}} is invalid; accepted: "
        + TIME_TRAVEL_ACCEPTED),
    "bad_reference_time_travel_yes": (GOOD_CONFIG + ", references={'stream.anomalies': {'time_travel': 'yes'}}", GOOD_BLOCK,
                                      "references.stream.anomalies = {{\"time_travel\": \"yes\"}} is invalid; accepted: "
                                      + TIME_TRAVEL_ACCEPTED),
    "bad_snapshot": (GOOD_CONFIG + ", snapshot='yes'", GOOD_BLOCK,
                     "snapshot = \"yes\" is invalid; accepted: true (the first run passes the inputs' existing rows through the "
                     "task) or false"),
    "bad_on_definition_change": (GOOD_CONFIG + ", on_definition_change='sync_all_columns'", GOOD_BLOCK,
                                 "on_definition_change = \"sync_all_columns\" is invalid; accepted: fail (the default: a changed "
                                 "definition is refused) or ignore (the rows built so far stay and the new definition applies from "
                                 "this run on)"),
    "bad_columns_empty": ("columns={}, inputs={'stream.append_only': {'commit_column': 'load_tstamp'}}", GOOD_BLOCK, "columns = {{}}"),
    "bad_late_row_lookback": (GOOD_CONFIG + ", late_row_lookback=5", GOOD_BLOCK,
                              "late_row_lookback = 5 is invalid; accepted: a whole number and a unit, s, m, h or d (30m, 6h, 1d; "
                              "0s recounts nothing)"),
    "bad_on_bad_rows": (GOOD_CONFIG + ", on_bad_rows=true", GOOD_BLOCK,
                        "on_bad_rows = true is invalid; accepted: warn (the default: bad rows are counted in the run line and the "
                        "state, and the run goes on) or fail (a run that finds a bad row is refused, naming it) "
                        "or quarantine (as warn, and each bad row is listed once in the table <model>__tl_quarantine with the reason)"),
}


def test_bad_continual_task_settings_are_refused_and_change_nothing(project, deps):
    """Every task of BAD_TASKS, in one dbt run: each refused with its own message, nothing written."""
    project.write_source("append_only", APPEND_ONLY, LOADS[0], replace=True)
    project.write_source("anomalies", ANOMALIES, [], replace=True)
    project.runner.execute(f"create or replace view {project.source_schema}.plain_view as "
                           f"select * from {project.source_schema}.append_only")
    paths = []
    for name, (config, statement, _) in BAD_TASKS.items():
        paths.append(CONTINUAL / "models" / f"{name}.sql")
        paths[-1].write_text(f"{{{{ config(materialized='continual_task', {config}) }}}}\n{statement}\n")
    try:
        project.ensure_state(CONTINUAL)
        # the message quotes a statement as rendered (an input read as a subquery), cut at 80 characters
        quoted = f"insert into somewhere_else select key, val from (select * from {project.source_schema}"[:80]
        expected = {name: "tideline: continual task {}: {}".format(name, message.format(source=project.source_schema, schema=project.schema, quoted=quoted))
                    for name, (_, _, message) in BAD_TASKS.items()}
        project.refused_each(expected, lambda: run(project, " ".join(BAD_TASKS), at(50), expect_success=False))
    finally:
        for path in paths:
            path.unlink()


def test_input_rows_without_a_commit_time_are_counted_never_read_and_quarantined(project, deps):
    """Input rows loaded without a load_tstamp with each of two loads (the second load brings a
    copy of the first's as well), under on_bad_rows='quarantine': no step reads them (a row
    without a commit time is after no frontier), every run's line warns with the count, the
    input, its source and its commit column, and the run's last step row records it in the
    state (rows_without_load_time), as the default 'warn' does; the output holds exactly the
    rows with a time. The quarantine table lists each such row once, with its input, the reason
    and the now of the run that found it: the second run adds the new row and the second copy,
    not the row the first run listed."""
    name = "tmp_without_commit_time"
    path = CONTINUAL / "models" / f"{name}.sql"
    path.write_text(f"{{{{ config(materialized='continual_task', on_bad_rows='quarantine', {GOOD_CONFIG}) }}}}\n{GOOD_BLOCK}\n")
    untimed = [[{"key": 99, "val": -1, "load_tstamp": None}],
               [{"key": 98, "val": -1, "load_tstamp": None}, {"key": 99, "val": -1, "load_tstamp": None}]]
    try:
        project.write_source("append_only", APPEND_ONLY, [], replace=True)
        project.write_source("anomalies", ANOMALIES, [], replace=True)
        timed: list[dict] = []
        reason = f"no commit time ({project.source_schema}.append_only.load_tstamp is null): no run reads it"
        listed = []
        for n in range(2):
            rows = [kv(10 * n + 1, n, 10 * n), kv(10 * n + 2, n, 10 * n + 5)]
            project.write_source("append_only", APPEND_ONLY, rows + untimed[n])
            timed += rows
            result = run(project, name, at(10 * n + 8))
            assert_rows_equal(output(project, name), [{"key": r["key"], "val": r["val"]} for r in timed], label=f"{name} after run {n + 1}")
            count = [1, 3][n]
            warning = (f"WARNING: source rows without a commit time (never read): stream.append_only {count} "
                       f"({project.source_schema}.append_only.load_tstamp)")
            assert [line for line in result.tideline_lines if warning in line], result.tideline_lines
            newest = project.rows(f"select rows_without_load_time from {project.fresh('tl_state')} "
                                  f"where model = '{name}' and kind = 'run' order by batch desc limit 1")
            assert newest == [(count,)], newest
            listed += [{"feed": "stream.append_only", "reason": reason, "found_row": found, "copy_number": copy, "run_now": at(10 * n + 8)}
                       for found, copy in [[('{"key":99,"val":-1}', 1)], [('{"key":98,"val":-1}', 1), ('{"key":99,"val":-1}', 2)]][n]]
            quarantined = project.table(f"{name}__tl_quarantine")
            assert all(r.pop("_tl_run") for r in quarantined), quarantined
            assert_rows_equal(quarantined, listed, label=f"the quarantine after run {n + 1}")
    finally:
        path.unlink()


def test_under_on_bad_rows_fail_an_input_row_without_a_commit_time_refuses_the_run_before_any_write(project, deps):
    """on_bad_rows='fail': a run whose input holds a row without a load_tstamp is refused before
    anything is written, naming the input, the count, the column and the row itself; nothing
    changed. With the row given a commit time, the next run reads it with the others."""
    name = "tmp_strict_commit_time"
    path = CONTINUAL / "models" / f"{name}.sql"
    path.write_text(f"{{{{ config(materialized='continual_task', on_bad_rows='fail', {GOOD_CONFIG}) }}}}\n{GOOD_BLOCK}\n")
    try:
        project.write_source("append_only", APPEND_ONLY, [kv(1, 0, 0), kv(2, 0, 5)], replace=True)
        project.write_source("anomalies", ANOMALIES, [], replace=True)
        run(project, name, at(8))
        project.write_source("append_only", APPEND_ONLY, [kv(11, 1, 10), {"key": 99, "val": -1, "load_tstamp": None}])
        project.refused(
            f"tideline: continual task {name}: on_bad_rows = fail and its sources hold rows without a commit time, which no run "
            f"reads: stream.append_only 1 ({project.source_schema}.append_only.load_tstamp is null; first: "
            '{"key":99,"val":-1}). Give them a commit time, or set on_bad_rows=\'warn\' to count them in every run and go on',
            lambda: run(project, name, at(18), expect_success=False))
        project.write_source("append_only", APPEND_ONLY, [kv(1, 0, 0), kv(2, 0, 5), kv(11, 1, 10), kv(99, -1, 12)], replace=True)
        run(project, name, at(18))
        assert_rows_equal(output(project, name), [{"key": k, "val": v} for k, v in ((1, 0), (2, 0), (11, 1), (99, -1))],
                          label=f"{name} after the fix")
    finally:
        path.unlink()


def test_input_rows_committed_behind_the_watermark_are_counted_once_listed_then_refused(project, deps):
    """A loader that commits a row with a load time at or before a run's watermark after that run
    read: no later step reads it. Under on_bad_rows='quarantine' the next run recounts the last
    run's range behind its watermark (late_row_lookback, 1d by default), warns in its line with
    the input, the count, the range, the rows then and now and the row itself (written since
    that run read), records the count in its last step row and the input's state row
    (rows_behind_watermark), and sets the row aside once in the quarantine; the run after, with nothing new behind, neither warns nor lists. Under 'fail' the
    next such row refuses the run before anything is written, naming the same; a --full-refresh
    reads every row, those behind included. The source is a Delta table, compacted (`optimize`)
    before the refused run: its rows are located by the version it had when read."""
    name = "tmp_behind_watermark"
    path = CONTINUAL / "models" / f"{name}.sql"
    path.write_text(f"{{{{ config(materialized='continual_task', on_bad_rows='quarantine', {GOOD_CONFIG}) }}}}\n{GOOD_BLOCK}\n")
    source = f"{project.source_schema}.append_only"
    try:
        # a Delta source: the rows are located by the version it had when the run read it (the
        # channel's and the derivation's tests read parquet sources, located by their files' times)
        project.write_source("append_only", APPEND_ONLY, [kv(1, 0, 0), kv(2, 0, 5)], replace=True, using="delta")
        project.write_source("anomalies", ANOMALIES, [], replace=True)
        run(project, name, at(8))                                   # reads up to at(5)
        project.write_source("append_only", APPEND_ONLY, [kv(3, 0, 10), kv(50, -1, 2)])   # 50: at(2), behind at(5)
        result = run(project, name, at(18))
        assert_rows_equal(output(project, name), [{"key": k, "val": 0} for k in (1, 2, 3)], label=f"{name} after run 2")
        warning = (f"WARNING: source rows committed behind the watermark (never read): stream.append_only 1 ({source}.load_tstamp "
                   "in (2025-04-30 08:05:00, 2025-05-01 08:05:00]: 2 rows when read, 3 now; written since that run read: "
                   '{"key":50,"val":-1,"load_tstamp":"2025-05-01T08:02:00.000Z"} at 2025-05-01 08:02:00)')
        assert [line for line in result.tideline_lines if warning in line], result.tideline_lines
        counted = project.rows(f"select kind, transform, rows_behind_watermark, recount_rows, cast(recount_from as string) "
                               f"from {project.fresh('tl_state')} where model = '{name}' and kind in ('run', 'input') "
                               "order by batch desc, kind limit 2")
        assert counted == [("input", "stream.append_only", 1, 4, "2025-04-30 08:10:00"), ("run", None, 1, None, None)], counted
        listed = [{"feed": "stream.append_only", "reason": f"1 row(s) committed behind the watermark ({source}.load_tstamp): no run reads them",
                   "found_row": {"key": 50, "val": -1, "load_tstamp": "2025-05-01T08:02:00.000Z"},
                   "copy_number": 1, "run_now": at(18)}]

        def quarantine() -> list[dict]:
            rows = project.table(f"{name}__tl_quarantine")
            return [{**r, "found_row": json.loads(r["found_row"])} for r in rows if r.pop("_tl_run")]

        assert_rows_equal(quarantine(), listed, label="the quarantine after run 2")
        project.write_source("append_only", APPEND_ONLY, [kv(4, 0, 20)])
        result = run(project, name, at(28))
        assert not [line for line in result.tideline_lines if "behind the watermark" in line], result.tideline_lines
        assert_rows_equal(quarantine(), listed, label="the quarantine after run 3")

        path.write_text(f"{{{{ config(materialized='continual_task', on_bad_rows='fail', {GOOD_CONFIG}) }}}}\n{GOOD_BLOCK}\n")
        late = list(range(60, 72))                                   # at(15), behind at(20): 10 shown, then the count
        project.write_source("append_only", APPEND_ONLY, [kv(5, 0, 30)] + [kv(k, -1, 15) for k in late])
        project.runner.execute(f"optimize {source}")                 # every file rewritten: the versions still tell
        shown = ", ".join(f'{{"key":{k},"val":-1,"load_tstamp":"2025-05-01T08:15:00.000Z"}} at 2025-05-01 08:15:00' for k in late[:10])
        project.refused(
            f"tideline: continual task {name}: on_bad_rows = fail and its sources hold rows committed behind the watermark since "
            f"the last run read them, which no run reads: stream.append_only 12 ({source}.load_tstamp in (2025-04-30 08:20:00, "
            f"2025-05-01 08:20:00]: 5 rows when read, 17 now; written since that run read: {shown} and 2 more). "
            "Give them a commit time after the watermark so that the next run "
            "reads them, or rebuild with --full-refresh, which reads every row, or set on_bad_rows='warn' to count them and go on",
            lambda: run(project, name, at(38), expect_success=False))
        run(project, name, at(38), "--full-refresh")
        assert_rows_equal(output(project, name), [{"key": k, "val": -1 if k >= 50 else 0} for k in [1, 2, 3, 4, 5, 50] + late],
                          label=f"{name} after the --full-refresh")
    finally:
        path.unlink()


def test_a_first_build_that_fails_leaves_nothing_behind(project, deps):
    """A first build whose step fails after it created its data table and its view (an inserted
    value too large for its int column): the run fails naming the value, and its end drops the
    view and the table, which held no committed row; no state row is written: nothing of the
    snapshot changed. With the statement fixed, the rerun builds the task."""
    name = "tmp_first_build_fails"
    path = CONTINUAL / "models" / f"{name}.sql"
    statement = "{% call tideline.task_insert() %} select key, VALUE from {{ tideline.input('stream.append_only') }} {% endcall %}"
    path.write_text(f"{{{{ config(materialized='continual_task', {GOOD_CONFIG}) }}}}\n{statement.replace('VALUE', 'val * 10000000000')}\n")
    try:
        project.write_source("append_only", APPEND_ONLY, [kv(1, 5, 0)], replace=True)
        project.write_source("anomalies", ANOMALIES, [], replace=True)
        project.ensure_state(CONTINUAL)
        failed = project.refused(f"tideline: continual task {name}: inserted column val is not a int: 50000000000",
                                 lambda: run(project, name, at(10), expect_success=False))
        project.assert_reported_as(failed, name, f"tideline: continual task {name}: inserted column val is not a int: 50000000000")
        data = f"{ICEBERG_CATALOG + '.' if project.file_format == 'iceberg' else ''}{project.schema}.{name}__tl_data"
        assert [line for line in failed.tideline_lines if "first build failed" in line] == [
            f"tideline {name}: its first build failed before its commit; dropped what it had created (view {project.schema}.{name}, "
            f"table {data}), which held no committed row"], failed.tideline_lines
        path.write_text(f"{{{{ config(materialized='continual_task', {GOOD_CONFIG}) }}}}\n{statement.replace('VALUE', 'val * 10')}\n")
        run(project, name, at(10))
        assert output(project, name) == [{"key": 1, "val": 50}]
    finally:
        path.unlink()


# ---- a changed definition: refused, never silently mixed ---------------------------------------

def test_a_select_in_its_own_order_and_config_columns_in_another_are_no_change(project, deps):
    """dbt does not keep a config mapping's order from one parse to the next, and a step inserts
    by position: the upsert with its insert's select naming val before key (taken by name), then
    its config columns written in the reverse order from the second run on (as a partial parse
    may hand them over), runs on under on_definition_change='fail', neither refused nor writing
    a value into the other column, and equals the reference over runs that compact."""
    name = "upsert_reordered"
    path = CONTINUAL / "models" / f"{name}.sql"
    text = (CONTINUAL / "models" / "upsert.sql").read_text()
    swapped = text.replace("        key,\n        max(val) as val\n", "        max(val) as val,\n        key\n")
    assert swapped != text
    reversed_config = swapped.replace("columns={'key': 'int', 'val': 'int'}", "columns={'val': 'int', 'key': 'int'}")
    assert reversed_config != swapped
    project.write_source("append_only", APPEND_ONLY, [], replace=True)
    tasks = {name: Task(upsert)}
    done: list[dict] = []
    try:
        for i, load in enumerate(LOADS):
            path.write_text(swapped if i == 0 else reversed_config)
            project.write_source("append_only", APPEND_ONLY, load)
            done += load
            run_and_compare(project, tasks, done, at(60 * i + 50))
    finally:
        path.unlink()


TASK_BASE = ("{{ config(materialized='continual_task', " + GOOD_CONFIG + ") }}\n"
             "{% call tideline.task_delete() %} key in (select key from {{ tideline.input('stream.append_only') }}) {% endcall %}\n"
             "{% call tideline.task_insert() %} select key, max(val) from {{ tideline.input('stream.append_only') }} group by key {% endcall %}\n")
TASK_EDITS = {   # name: (the model's text after the edit, the parts the refusal names; none: the same definition)
    "task_edit_insert": (TASK_BASE.replace("max(val)", "min(val)"), "statement 2 (changed)"),
    "task_edit_delete": (TASK_BASE.replace("key in (select key from", "key not in (select key from"), "statement 1 (changed)"),
    "task_edit_removed": (TASK_BASE.split("\n", 1)[0] + "\n" + TASK_BASE.split("\n")[2] + "\n", "statement 1 (changed), statement 2 (removed)"),
    "task_edit_added": (TASK_BASE + "{% call tideline.task_insert() %} select key, 0 from {{ tideline.input('stream.append_only') }} {% endcall %}\n",
                        "statement 3 (added)"),
    "task_edit_comment": (TASK_BASE.replace("group by key", "-- one row a key\n group by key"), None),
    "task_edit_reference": (TASK_BASE.replace(GOOD_CONFIG, GOOD_CONFIG + ", references={'stream.anomalies': {'valid_from': 'load_tstamp'}}")
                            .replace("group by key", "where val > (select count(*) from {{ tideline.reference('stream.anomalies') }}) group by key"),
                            "reference stream.anomalies (added), statement 2 (changed)"),
}


def test_a_changed_definition_is_refused_by_name_and_a_full_refresh_rebuilds_under_it(project, deps):
    """Each kind of edit of a task's statements between runs (TASK_EDITS): the next run refuses
    it, naming the statements that changed, and writes nothing; a comment is no change; a
    --full-refresh replays the inputs under the new statements, whose runs are then accepted."""
    project.write_source("append_only", APPEND_ONLY, LOADS[0], replace=True)
    project.write_source("anomalies", ANOMALIES, [], replace=True)
    names = sorted(TASK_EDITS)
    paths = [CONTINUAL / "models" / f"{name}.sql" for name in names]
    try:
        for path in paths:
            path.write_text(TASK_BASE)
        run(project, " ".join(names), at(50))
        for name, path in zip(names, paths):
            path.write_text(TASK_EDITS[name][0])
        project.write_source("append_only", APPEND_ONLY, LOADS[1])
        refused = {name: f"tideline: continual task {name}: its definition changed since its rows were built: {changed}; its rows "
                         f"would mix the old definition and the new one. Rebuild it under the new one with: dbt run "
                         f"--full-refresh --select {name}"
                   for name, (_, changed) in TASK_EDITS.items() if changed}
        project.refused_each(refused, lambda: run(project, " ".join(refused), at(80), expect_success=False))
        run(project, " ".join(refused), at(80), "--full-refresh")
        # then every task runs on: the rebuilt ones under their new statements, and
        # task_edit_comment, whose definition did not change
        project.write_source("append_only", APPEND_ONLY, LOADS[2] + [kv(4, 40, 100)])
        run(project, " ".join(names), at(120))
    finally:
        for path in paths:
            path.unlink()

"""The example DAG (orchestration/airflow/dags/tideline_hourly.py), run for real.

`make test-airflow` installs Airflow and cosmos into .venv-airflow and runs this file with the
project's Python. Airflow runs from that venv in a temporary AIRFLOW_HOME (SQLite), `airflow dags
test` runs three consecutive hourly intervals over generated loads, then the last one again;
then plain `dbt build` runs with the same nows as tideline__now vars build a second schema in the same
data folder, and every table of the two schemas must be equal.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tideline_tools.profile import PROJECT_DIR

AIRFLOW_BIN = Path(os.environ.get("TIDELINE_AIRFLOW_BIN", PROJECT_DIR / ".venv-airflow" / "bin"))
DBT = Path(sys.executable).parent / "dbt"
DAG = PROJECT_DIR / "orchestration" / "airflow" / "dags"
# Three consecutive hourly intervals; each run's tideline__now is its interval's end. The events
# are loaded hourly on 2025-01-01 and 2025-01-02 (and late ones after), so each hour has new loads.
INTERVAL_ENDS = ["2025-01-02 12:00:00", "2025-01-02 13:00:00", "2025-01-02 14:00:00"]
# The run lock is dropped at the end of each run; the ids and wall-clock times of runs differ
# between any two sequences of runs, everything else must not.
NOT_COMPARED = {"tl_run_lock"}
RUN_COLUMNS = {"run_id", "_tl_run", "committed_at"}


def _run(args: list, env: dict, what: str, timeout: int = 900) -> subprocess.CompletedProcess:
    result = subprocess.run([str(a) for a in args], env=env, cwd=PROJECT_DIR, capture_output=True, text=True,
                            timeout=timeout)
    assert result.returncode == 0, f"{what} failed:\n{result.stdout[-4000:]}\n{result.stderr[-4000:]}"
    return result


@pytest.fixture(scope="module")
def world(tmp_path_factory):
    if not (AIRFLOW_BIN / "airflow").exists():
        pytest.fail(f"no Airflow at {AIRFLOW_BIN}: run `make test-airflow`, which installs it")
    tmp = tmp_path_factory.mktemp("airflow")
    base = {k: v for k, v in os.environ.items() if not k.startswith(("AIRFLOW", "TIDELINE", "DBT_"))}
    base.update(TIDELINE_DATA_DIR=str(tmp / "data"), TZ="UTC", DO_NOT_TRACK="1")
    airflow = {**base, "AIRFLOW_HOME": str(tmp / "airflow"), "AIRFLOW__CORE__DAGS_FOLDER": str(DAG),
               "AIRFLOW__CORE__LOAD_EXAMPLES": "False", "AIRFLOW__COSMOS__ENABLE_TELEMETRY": "False",
               "AIRFLOW__COSMOS__CACHE_DIR": str(tmp / "cosmos"),
               "TIDELINE_SCHEMA": "by_airflow"}
    _run([sys.executable, "-m", "tideline_tools.generate", "--start", "2025-01-01", "--days", "2",
          "--events-per-day", "240", "--users", "12", "--until", "all", "--cadence", "3600",
          "--table", "tideline_source.events"], base, "the event generator")
    _run([AIRFLOW_BIN / "airflow", "db", "migrate"], airflow, "airflow db migrate")
    _run([AIRFLOW_BIN / "airflow", "pools", "set", "tideline_local", "1", "one dbt process on the local metastore"],
         airflow, "airflow pools set")
    return {"base": base, "airflow": airflow, "data": tmp / "data"}


def _tables(runner, schema: str) -> dict[str, list[tuple]]:
    names = sorted(r[1] for r in runner.rows(f"show tables in {schema}") if r[1] not in NOT_COMPARED)
    tables = {}
    for name in names:
        columns = [c for c in runner.columns(f"select * from {schema}.{name}") if c not in RUN_COLUMNS]
        # as text: the Thrift server sends structs and arrays as text that is not always JSON
        text = ", ".join(f"cast({c} as string)" for c in columns)
        tables[name] = sorted(runner.rows(f"select {text} from {schema}.{name}"), key=repr)
    return tables


def test_three_hourly_intervals_equal_plain_dbt_runs(world):
    for end in INTERVAL_ENDS:
        # a manual run at a logical date gets the interval that ends there: data_interval_end = end
        result = _run([AIRFLOW_BIN / "airflow", "dags", "test", "tideline_hourly", end.replace(" ", "T") + "+00:00"],
                      world["airflow"], f"airflow dags test at {end}")
        log = result.stdout + result.stderr
        # the interval's end is the run's now (TIDELINE_NOW): the window ends there
        assert f"data_interval_end={end}+00:00" in log, log[-4000:]
        assert re.search(rf"tideline tl_filtered_events: (window \(.*, |first window, up to ){re.escape(end)}\]?, rows read", log), log[-4000:]
        assert "state=success" in log, log[-4000:]
        # the first interval parses the whole project (nothing cached yet: dbt says so at info
        # level); the later ones keep dbt's parse, since only the now changed, and it is no var
        full_parse = [line for line in log.splitlines() if "Unable to do partial parsing" in line]
        assert bool(full_parse) == (end == INTERVAL_ENDS[0]), full_parse
    # the last interval again: nothing new is read, nothing changes
    again = _run([AIRFLOW_BIN / "airflow", "dags", "test", "tideline_hourly", INTERVAL_ENDS[-1].replace(" ", "T") + "+00:00"],
                 world["airflow"], "a rerun of the last interval")
    assert "rows read 0" in again.stdout + again.stderr

    plain = {**world["base"], "TIDELINE_SCHEMA": "by_dbt"}
    for end in INTERVAL_ENDS:
        _run([DBT, "build", "--vars", f"{{tideline__now: '{end}'}}"], plain, f"dbt build at {end}")

    from tideline_tools.localenv import use_data_dir
    from tideline_tools.sql import connect

    use_data_dir(world["data"])
    runner = connect("local")
    by_airflow, by_dbt = _tables(runner, "by_airflow"), _tables(runner, "by_dbt")
    assert sorted(by_airflow) == sorted(by_dbt)
    # the pipeline's tables, the state table among them (its rows carry the batches and nows)
    assert {"tl_filtered_events", "tl_state", "daily_user_activity", "user_signals"} <= set(by_airflow)
    assert sum(len(rows) for rows in by_airflow.values()) > 0
    for name in by_airflow:
        assert by_airflow[name] == by_dbt[name], f"{name} differs between the DAG's runs and plain dbt runs"


def _cluster_answers() -> bool:
    import socket

    with socket.socket() as s:
        s.settimeout(1)
        return s.connect_ex(("127.0.0.1", int(os.environ.get("TIDELINE_THRIFT_PORT", "10016")))) == 0


def test_on_the_cluster_a_task_per_model_equals_plain_dbt_runs(world):
    """On the cluster target (started by `make test-airflow`), one task per model: three hourly
    intervals through the Thrift server, compared with plain dbt runs."""
    if not _cluster_answers():
        pytest.fail("no Thrift server on 127.0.0.1:10016: `make test-airflow` starts the cluster around this file")
    token = os.urandom(3).hex()   # the cluster's metastore outlives the test: schemas of this run only
    source, by_airflow, by_dbt = f"af_source_{token}", f"af_by_airflow_{token}", f"af_by_dbt_{token}"
    cluster = {**world["base"], "TIDELINE_TARGET": "cluster"}
    _run([sys.executable, "-m", "tideline_tools.generate", "--start", "2025-01-01", "--days", "2",
          "--events-per-day", "240", "--users", "12", "--until", "all", "--cadence", "3600",
          "--table", f"{source}.events", "--target", "cluster"], cluster, "the event generator (cluster)")
    manifest = world["data"].parent / "manifest"
    _run([DBT, "parse", "--target", "cluster", "--target-path", manifest], cluster, "dbt parse")
    env = {**world["airflow"], "TIDELINE_TARGET": "cluster", "TIDELINE_MANIFEST": str(manifest / "manifest.json"),
           "TIDELINE_SCHEMA": by_airflow, "TIDELINE_DBT_VARS": f'{{"tideline__events_schema": "{source}"}}'}
    listed = _run([AIRFLOW_BIN / "airflow", "tasks", "list", "tideline_hourly"], env, "airflow tasks list").stdout
    models = _run([DBT, "ls", "--quiet", "--resource-type", "model", "--output", "name"], world["base"], "dbt ls").stdout.split()
    tasks = set(listed.split())
    # cosmos names a model's task <group>.<model>.run, or <group>.<model>_run when it has no tests
    assert models and all({f"tideline.{m}.run", f"tideline.{m}_run"} & tasks for m in models), listed
    assert len([t for t in tasks if t.endswith("run")]) == len(models), listed
    for end in INTERVAL_ENDS:
        log = _run([AIRFLOW_BIN / "airflow", "dags", "test", "tideline_hourly", end.replace(" ", "T") + "+00:00"],
                   env, f"airflow dags test at {end} (cluster)")
        assert "state=success" in log.stdout + log.stderr and "ERROR=1" not in log.stdout + log.stderr
        _run([DBT, "build", "--vars", f"{{tideline__now: '{end}', tideline__events_schema: {source}}}"],
             {**cluster, "TIDELINE_SCHEMA": by_dbt}, f"dbt build at {end} (cluster)")

    from tideline_tools.sql import connect

    runner = connect("cluster")
    try:
        tables_by_airflow, tables_by_dbt = _tables(runner, by_airflow), _tables(runner, by_dbt)
        assert {"tl_filtered_events", "tl_state", "daily_user_activity", "user_signals"} <= set(tables_by_airflow)
        assert sorted(tables_by_airflow) == sorted(tables_by_dbt)
        for name in tables_by_airflow:
            assert tables_by_airflow[name] == tables_by_dbt[name], f"{name} differs on the cluster"
    finally:
        for schema in (source, by_airflow, by_dbt):
            runner.execute(f"drop schema if exists {schema} cascade")

"""One run at a time on a shared cluster: the run-lock table (macros/internal/run_state.sql).

Locally the process's lock on the data folder does this job (test_environment.py); here that
lock's marker is removed so the table lock runs as it does on a Thrift server (and on the
cluster target the test runs as it is)."""

from __future__ import annotations

import datetime as dt
import json
import os
import subprocess
import sys

import pytest

from harness import pause_at
from tideline_tools.profile import PROJECT_DIR

from tideline_tools.generator import EventWorld

WORLD = EventWorld(seed=3, start=dt.datetime(2025, 7, 1), days=1, events_per_day=40, users=4, late_share=0,
                   duplicate_share=0, reload_share=0, pre_start_share=0, bot_share=0)
VARS = {"tideline__start_date": "2025-07-01", "tideline__now": "2025-07-03 00:00:00"}


@pytest.mark.both_targets
def test_a_held_run_lock_refuses_a_run_and_a_stale_one_is_taken_over(project, monkeypatch):
    monkeypatch.delenv("TIDELINE_LOCKED_DATA_DIR", raising=False)
    project.load(WORLD, until=WORLD.last_arrival(), cadence_seconds=3600)
    project.runner.execute(f"create schema if not exists {project.schema}")
    lock = f"{project.schema}.tl_run_lock"
    taken = (dt.datetime.now(dt.timezone.utc) - dt.timedelta(minutes=5)).strftime("%Y-%m-%d %H:%M:%S")
    project.runner.execute(f"""create table {lock} (run_id string) using parquet
        tblproperties ('tideline.run_id' = 'another-run', 'tideline.taken_at' = '{taken}')""")

    project.refused(f"tideline: another run (another-run, since {taken} UTC) holds the run lock {lock}; one run at a time per target schema. "
                    "Wait for it to end; a lock older than 120 minutes (tideline__run_lock_minutes) is taken over, or free it with: "
                    "dbt run-operation tideline.release_run_lock --args '{force: true}'",
                    lambda: project.dbt("run", "--select", "tl_filtered_events", vars=VARS, expect_success=False))
    assert project.tables() == ["tl_run_lock"], "a refused run must create nothing"

    # A lock older than tideline__run_lock_minutes was left by a killed run: taken over, then freed.
    project.runner.execute(f"alter table {lock} set tblproperties ('tideline.taken_at' = '2025-01-01 00:00:00')")
    project.dbt("run", "--select", "tl_filtered_events", vars=VARS)
    assert "tl_run_lock" not in project.tables()
    assert project.rows(f"select count(*) from {project.fresh('tl_filtered_events')}") == [(WORLD.rows_total(),)]

    # An ordinary run takes a new lock and frees it at the end.
    project.dbt("run", "--select", "tl_filtered_events", vars=VARS)
    assert "tl_run_lock" not in project.tables()


@pytest.mark.both_targets
@pytest.mark.skipif(os.environ.get("TIDELINE_TARGET", "local") != "cluster",
                    reason="two dbt processes against one Thrift server; locally the process lock serialises them (test_environment.py)")
def test_a_second_cluster_run_while_one_holds_the_lock_is_refused_the_pipeline_is_whole(project):
    """Deterministic, no race: the first run (in this process) is held after its filtered
    events decided what to read (the lock taken), and there a second `dbt run` (another process,
    the same Thrift server) starts and ends; it is refused by the lock before writing anything.
    Then the first run goes on and the pipeline holds every event once."""
    project.reset()
    project.load(WORLD, until=WORLD.last_arrival(), cadence_seconds=3600)
    dbt = os.path.join(os.path.dirname(sys.executable), "dbt")
    env = {**os.environ, "TIDELINE_SCHEMA": project.schema}
    vars_ = json.dumps({**project.base_vars, **VARS})
    select = ["--select", "tl_filtered_events", "daily_user_activity"]

    def second_run():
        done = subprocess.run([dbt, "run", "--target", "cluster", *select, "--vars", vars_], env=env, cwd=PROJECT_DIR,
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=900)
        return done.returncode, done.stdout, project.tables()

    on_event, seen = pause_at({"tl_filtered_events:decided": second_run})
    project.dbt("run", *select, vars=VARS, on_event=on_event)
    code, output, tables_then = seen["tl_filtered_events:decided"]
    assert code != 0, output[-3000:]
    # refused by the run lock, in one line, before anything was written
    assert "tideline: another run (" in output and "holds the run lock" in output, output[-3000:]
    assert "TABLE_OR_VIEW_ALREADY_EXISTS" not in output, output[-3000:]
    assert "tl_filtered_events__tl_rows" not in tables_then, tables_then
    # the first run went on: every event once, one committed run per model, the lock freed
    assert project.rows(f"select count(*), count(distinct event_id) from {project.fresh('tl_filtered_events')}") \
        == [(WORLD.rows_total(), WORLD.rows_total())]
    assert project.rows(f"""select model, count(*) from {project.fresh('tl_incremental_manifest')}
        group by model order by model""") == [("daily_user_activity", 1), ("tl_filtered_events", 1)]
    assert "tl_run_lock" not in project.tables()

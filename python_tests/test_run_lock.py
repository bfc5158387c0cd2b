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

from tideline_tools.profile import PROJECT_DIR

from tideline_tools.generator import EventWorld

WORLD = EventWorld(seed=3, start=dt.datetime(2025, 7, 1), days=1, events_per_day=40, users=4, late_share=0,
                   duplicate_share=0, reload_share=0, pre_start_share=0, bot_share=0)
VARS = {"tideline__start_date": "2025-07-01", "tideline__now": "2025-07-03 00:00:00"}


def tables(project) -> list[str]:
    return sorted(r[1] for r in project.rows(f"show tables in {project.schema}") if not r[2])


@pytest.mark.both_targets
def test_a_held_run_lock_refuses_a_run_and_a_stale_one_is_taken_over(project, monkeypatch):
    monkeypatch.delenv("TIDELINE_LOCKED_DATA_DIR", raising=False)
    project.load(WORLD, until=WORLD.last_arrival(), cadence_seconds=3600)
    project.runner.execute(f"create schema if not exists {project.schema}")
    lock = f"{project.schema}.tl_run_lock"
    taken = (dt.datetime.now(dt.timezone.utc) - dt.timedelta(minutes=5)).strftime("%Y-%m-%d %H:%M:%S")
    project.runner.execute(f"""create table {lock} (run_id string) using parquet
        tblproperties ('tideline.run_id' = 'another-run', 'tideline.taken_at' = '{taken}')""")

    refused = project.dbt("run", "--select", "tl_filtered_events", vars=VARS, expect_success=False)
    text = "\n".join(refused.messages)
    assert f"tideline: another run (another-run, since {taken} UTC) holds the run lock {lock}" in text, text
    assert tables(project) == ["tl_run_lock"], "a refused run must create nothing"

    # A lock older than tideline__run_lock_minutes was left by a killed run: taken over, then freed.
    project.runner.execute(f"alter table {lock} set tblproperties ('tideline.taken_at' = '2025-01-01 00:00:00')")
    project.dbt("run", "--select", "tl_filtered_events", vars=VARS)
    assert "tl_run_lock" not in tables(project)
    assert project.rows(f"select count(*) from {project.fresh('tl_filtered_events')}") == [(WORLD.rows_total(),)]

    # An ordinary run takes a new lock and frees it at the end.
    project.dbt("run", "--select", "tl_filtered_events", vars=VARS)
    assert "tl_run_lock" not in tables(project)


@pytest.mark.both_targets
@pytest.mark.skipif(os.environ.get("TIDELINE_TARGET", "local") != "cluster",
                    reason="two dbt processes against one Thrift server; locally the process lock serialises them (test_environment.py)")
def test_two_cluster_runs_started_together_one_is_refused_the_pipeline_is_whole(project):
    project.reset()
    project.load(WORLD, until=WORLD.last_arrival(), cadence_seconds=3600)
    dbt = os.path.join(os.path.dirname(sys.executable), "dbt")
    env = {**os.environ, "TIDELINE_SCHEMA": project.schema}
    vars_ = json.dumps({**project.base_vars, **VARS})
    runs = [subprocess.Popen([dbt, "run", "--target", "cluster", "--select", "tl_filtered_events", "daily_user_activity",
                              "--vars", vars_], env=env, cwd=PROJECT_DIR, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                             text=True) for _ in range(2)]
    outputs = [r.communicate(timeout=900)[0] for r in runs]
    codes = [r.returncode for r in runs]
    # both boot together and the lock is held for the whole run: exactly one of them is refused
    assert codes.count(0) == 1, outputs
    for code, output in zip(codes, outputs):
        if code != 0:   # refused by the run lock, in one line, before anything was written
            assert "tideline: another run (" in output and "holds the run lock" in output, output[-3000:]
            assert "TABLE_OR_VIEW_ALREADY_EXISTS" not in output, output[-3000:]
    # whatever the interleaving, the pipeline holds every event once and one committed run per model
    assert project.rows(f"select count(*), count(distinct event_id) from {project.fresh('tl_filtered_events')}") \
        == [(WORLD.rows_total(), WORLD.rows_total())]
    assert project.rows(f"""select model, count(*) from {project.fresh('tl_incremental_manifest')}
        group by model order by model""") == [("daily_user_activity", 1), ("tl_filtered_events", 1)]
    assert "tl_run_lock" not in tables(project)

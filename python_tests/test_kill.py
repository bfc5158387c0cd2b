"""A dbt process killed with SIGKILL in the middle of a run (the OOM killer, a lost node), on
each table format: nothing of its work is seen, the rerun completes it, and the tables equal a
rebuild from the same loads.

Unlike the injected failures of test_crash_safety (an exception at a checkpoint, after which dbt
still ends its run), the process and its Spark JVM die at once, inside a statement: Delta's log
and Iceberg's metadata are left with whatever the statement had written. The test drives
processes of its own on a data folder of their own (the test's own SparkSession holds its
metastore), each a stretch of steps (STEPS: loads, dbt runs, reads); a stretch that ends in a
run to be killed is killed with its whole process group (Python and the Spark JVM) as soon as
that run's --debug output shows that it has sent the statement named in KILLS. Three processes in
all: a Spark JVM's start and warm-up is most of what each costs.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from harness import assert_rows_equal
from tideline_tools.profile import PROJECT_DIR
from tideline_tools.suite_speed import speed_env

# Delta and Iceberg: what a kill leaves inside a statement is theirs (a log entry, a metadata
# file); parquet's commit model is the one test_crash_safety injects failures into at every step.
# the extended tier only since 2026-11-30 (399 s of worker time, the suite's longest test but the
# demo's): in `make test` the crash tests die at checkpoints inside every node's writes instead
pytestmark = [pytest.mark.local_only, pytest.mark.formats("delta", "iceberg"), pytest.mark.extended]

SELECT = ["--select", "tl_filtered_events", "daily_user_activity"]
VARS = {"tideline__events_schema": "kill_source", "tideline__start_date": "2025-01-01",
        "tideline__backfill_limit_days": 30, "tideline__min_rows_to_process": 1}
# The statements the two killed runs are inside when they die: the append of the window's
# filtered events, then (in the rerun) the daily aggregate's commit to tl_state.
KILLS = [re.compile(r"insert into \S*tl_filtered_events__tl_rows partition \(event_date\)"),
         re.compile(r"insert into \S*tl_state partition \(model = 'daily_user_activity'\)")]
# One process of the test's own: its steps in order, each `["load", <until>]` (the generator's
# loads up to then), `["dbt", <now>, <args>...]` (dbt in-process, on the process's SparkSession;
# with --debug its output shows each statement as it is sent) or `["tables"]` (the two models'
# rows as a reader sees them, the commit columns left out, printed as one line). A process per
# step would start a Spark JVM each time.
STEPS = """
import json, os, sys
from tideline_tools.localenv import use_data_dir
use_data_dir()   # TIDELINE_DATA_DIR's metastore and warehouse; the profile's jars
from tideline_tools.sql import connect
from tideline_tools import generate
from tideline_tools.dbt import run_dbt
runner = connect("local")
steps, vars_, generate_args = json.loads(sys.argv[1])
for step in steps:
    if step[0] == "load":
        assert generate.main([*generate_args, "--until", step[1]]) == 0
    elif step[0] == "dbt":
        os.environ["TIDELINE_NOW"] = step[1]
        run_dbt(step[2:], vars=vars_)
    else:
        out = {}
        for name in ("tl_filtered_events", "daily_user_activity"):
            relation = "kill." + name
            columns = [c for c in runner.columns(f"select * from {relation}") if not c.startswith("_tl_")]
            out[name] = [dict(zip(columns, [str(v) for v in row])) for row in runner.rows(f"select {', '.join(columns)} from {relation}")]
        print("TABLES " + json.dumps(out), flush=True)
"""
GENERATE_ARGS = ["--start", "2025-01-01", "--days", "4", "--events-per-day", "80", "--users", "8", "--late-share", "0.2",
                 "--duplicate-share", "0.05", "--cadence", "3600", "--table", "kill_source.events"]


def command_env(tmp_path: Path, file_format: str) -> dict[str, str]:
    env = {"PATH": os.environ["PATH"], "HOME": os.environ.get("HOME", "/tmp"), "LANG": "C.UTF-8",
           "TIDELINE_DATA_DIR": str(tmp_path / "data"), "TIDELINE_SCHEMA": "kill", "TIDELINE_FILE_FORMAT": file_format,
           "PYTHONUNBUFFERED": "1"}   # each line of dbt's output as it is written: the kill is inside the statement
    for name in ("JAVA_HOME", "DBT_WRITE_JSON", "DBT_LOG_LEVEL_FILE"):
        if os.environ.get(name):
            env[name] = os.environ[name]
    return {**env, **speed_env()}


def steps(env: dict[str, str], tmp_path: Path, *plan: list[str], kill_at: re.Pattern | None = None) -> tuple[list[dict], str]:
    """The steps `plan` in one process (STEPS): the tables each `["tables"]` step read, and the
    process's output. With `kill_at`, the process (its last step a `dbt run` with --debug) is
    killed with SIGKILL to its process group as soon as its output shows that statement."""
    target = ["--target-path", str(tmp_path / "target")]
    plan = [[*step, *SELECT, *target] if step[0] == "dbt" else step for step in plan]
    process = subprocess.Popen([sys.executable, "-c", STEPS, json.dumps([plan, VARS, GENERATE_ARGS])], env=env,
                               cwd=PROJECT_DIR, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                               start_new_session=True)
    seen = []
    try:
        for line in process.stdout:
            seen.append(line)
            if kill_at is not None and kill_at.search(line):
                os.killpg(process.pid, signal.SIGKILL)
                break
        process.wait(timeout=900)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
    output = "".join(seen)
    if kill_at is None:
        assert process.returncode == 0, output[-7000:]
    else:
        assert process.returncode == -signal.SIGKILL, f"the run was not killed at {kill_at.pattern}:\n{output[-4000:]}"
        assert "Completed successfully" not in output.rsplit("Running with dbt=", 1)[-1], "the killed run completed"
    return [json.loads(line.split("TABLES ", 1)[1]) for line in seen if line.startswith("TABLES ")], output


def test_a_run_killed_inside_its_writes_then_rerun_equals_a_rebuild(tmp_path, file_format):
    env = command_env(tmp_path, file_format)
    first_now, now = "2025-01-02 12:00:00", "2025-01-04 06:00:00"
    # a first run; then, after the next loads, a run killed inside the append of the new window
    [first], _ = steps(env, tmp_path, ["load", first_now], ["dbt", first_now, "run"], ["tables"], ["load", now],
                       ["dbt", now, "--debug", "run"], kill_at=KILLS[0])
    # readers see the first run's rows only; the rerun redoes the window, killed again inside the aggregate's commit
    [after_kill], output = steps(env, tmp_path, ["tables"], ["dbt", now, "--debug", "run"], kill_at=KILLS[1])
    assert after_kill == first, "a killed run's rows are seen"
    assert "tideline tl_filtered_events: window (" in output, "the rerun did not read the window the killed run left"
    (incremental, rebuilt), _ = steps(env, tmp_path, ["dbt", now, "run"], ["tables"], ["dbt", now, "run", "--full-refresh"], ["tables"])
    for name in ("tl_filtered_events", "daily_user_activity"):
        assert_rows_equal(incremental[name], rebuilt[name], label=f"{name} ({file_format}): killed twice, rerun, against a rebuild")
    assert len(incremental["tl_filtered_events"]) > len(first["tl_filtered_events"]) > 0
    ids = [r["event_id"] for r in incremental["tl_filtered_events"]]
    assert len(ids) == len(set(ids)), "an event_id twice after the kills"

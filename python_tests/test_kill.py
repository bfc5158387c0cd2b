"""A dbt process killed with SIGKILL in the middle of a run (the OOM killer, a lost node), on
each table format: nothing of its work is seen, the rerun completes it, and the tables equal a
rebuild from the same loads.

Unlike the injected failures of test_crash_safety (an exception at a checkpoint, after which dbt
still ends its run), the process and its Spark JVM die at once, inside a statement: Delta's log
and Iceberg's metadata are left with whatever the statement had written. A killed run is a `dbt`
process of its own on a data folder of its own (the test's own SparkSession holds its metastore),
killed with its whole process group as soon as dbt's --debug output shows that it has sent the
statement named in KILLS; the loads, the other runs and the reads between the kills run in one
process per stretch (STEPS).
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

# Delta and Iceberg: what a kill leaves inside a statement is theirs (a log entry, a metadata
# file); parquet's commit model is the one test_crash_safety injects failures into at every step.
pytestmark = [pytest.mark.local_only, pytest.mark.formats("delta", "iceberg")]

SELECT = ["--select", "tl_filtered_events", "daily_user_activity"]
VARS = {"tideline__events_schema": "kill_source", "tideline__start_date": "2025-01-01",
        "tideline__backfill_limit_days": 30, "tideline__min_rows_to_process": 1}
# The statements the two killed runs are inside when they die: the append of the window's
# filtered events, then (in the rerun) the daily aggregate's commit to tl_state.
KILLS = [re.compile(r"insert into \S*tl_filtered_events__tl_rows partition \(event_date\)"),
         re.compile(r"insert into \S*tl_state partition \(model = 'daily_user_activity'\)")]
# One process of the test's own: its steps in order, each `["load", <until>]` (the generator's
# loads up to then), `["dbt", <now>, <args>...]` (dbt in-process, on the process's SparkSession)
# or `["tables"]` (the two models' rows as a reader sees them, the commit columns left out,
# printed as one line). A process per step would start a Spark JVM each time.
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
           "TIDELINE_DATA_DIR": str(tmp_path / "data"), "TIDELINE_SCHEMA": "kill", "TIDELINE_FILE_FORMAT": file_format}
    for name in ("JAVA_HOME", "TIDELINE_CODEGEN"):
        if os.environ.get(name):
            env[name] = os.environ[name]
    return env


def steps(env: dict[str, str], tmp_path: Path, *plan: list[str]) -> list[dict[str, list[dict]]]:
    """The steps `plan` in one process (STEPS); the tables each `["tables"]` step read."""
    target = ["--target-path", str(tmp_path / "target")]
    plan = [[*step, *SELECT, *target] if step[0] == "dbt" else step for step in plan]
    result = subprocess.run([sys.executable, "-c", STEPS, json.dumps([plan, VARS, GENERATE_ARGS])], env=env,
                            cwd=PROJECT_DIR, capture_output=True, text=True, timeout=900)
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-3000:]
    return [json.loads(line.split("TABLES ", 1)[1]) for line in result.stdout.splitlines() if line.startswith("TABLES ")]


def killed_dbt(env: dict[str, str], tmp_path: Path, now: str, at: re.Pattern) -> str:
    """`dbt run`, killed (SIGKILL to its process group: Python and the Spark JVM) as soon as its
    --debug output shows the statement `at`. Returns the output up to the kill."""
    process = subprocess.Popen([str(Path(sys.executable).parent / "dbt"), "--debug", "run", *SELECT, "--vars", json.dumps(VARS),
                                "--target-path", str(tmp_path / "target")],
                               env={**env, "TIDELINE_NOW": now}, cwd=PROJECT_DIR, stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, text=True, start_new_session=True)
    seen = []
    for line in process.stdout:
        seen.append(line)
        if at.search(line):
            os.killpg(process.pid, signal.SIGKILL)
            break
    process.wait(timeout=120)
    output = "".join(seen)
    assert process.returncode == -signal.SIGKILL, f"the run was not killed at {at.pattern}:\n{output[-4000:]}"
    assert "Completed successfully" not in output
    return output


def test_a_run_killed_inside_its_writes_then_rerun_equals_a_rebuild(tmp_path, file_format):
    env = command_env(tmp_path, file_format)
    first_now, now = "2025-01-02 12:00:00", "2025-01-04 06:00:00"
    [first] = steps(env, tmp_path, ["load", first_now], ["dbt", first_now, "run"], ["tables"], ["load", now])

    # killed inside the append of the new window: readers see the first run's rows only
    killed_dbt(env, tmp_path, now, KILLS[0])
    assert steps(env, tmp_path, ["tables"]) == [first], "a killed run's rows are seen"
    # the rerun redoes the window; killed again inside the aggregate's commit
    output = killed_dbt(env, tmp_path, now, KILLS[1])
    assert "tideline tl_filtered_events: window (" in output, "the rerun did not read the window the killed run left"
    incremental, rebuilt = steps(env, tmp_path, ["dbt", now, "run"], ["tables"], ["dbt", now, "run", "--full-refresh"], ["tables"])
    for name in ("tl_filtered_events", "daily_user_activity"):
        assert_rows_equal(incremental[name], rebuilt[name], label=f"{name} ({file_format}): killed twice, rerun, against a rebuild")
    assert len(incremental["tl_filtered_events"]) > len(first["tl_filtered_events"]) > 0
    ids = [r["event_id"] for r in incremental["tl_filtered_events"]]
    assert len(ids) == len(set(ids)), "an event_id twice after the kills"

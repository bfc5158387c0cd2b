"""A dbt process killed with SIGKILL in the middle of a run (the OOM killer, a lost node), on
each table format: nothing of its work is seen, the rerun completes it, and the tables equal a
rebuild from the same loads.

Unlike the injected failures of test_crash_safety (an exception at a checkpoint, after which dbt
still ends its run), the process and its Spark JVM die at once, inside a statement: Delta's log
and Iceberg's metadata are left with whatever the statement had written. Every command runs as a
process of its own on a data folder of its own (the test's own SparkSession holds its metastore),
and is killed, with its whole process group, as soon as dbt's --debug output shows that it has
sent the statement named in KILLS.
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
DUMP = """
import json, sys
from tideline_tools.sql import connect
runner = connect("local")
out = {}
for name in ("tl_filtered_events", "daily_user_activity"):
    relation = "kill." + name
    columns = [c for c in runner.columns(f"select * from {relation}") if not c.startswith("_tl_")]
    out[name] = [dict(zip(columns, [str(v) for v in row])) for row in runner.rows(f"select {', '.join(columns)} from {relation}")]
print("TABLES " + json.dumps(out), flush=True)
if len(sys.argv) > 1:   # then the next loads, in the same process
    from tideline_tools import generate
    sys.exit(generate.main(sys.argv[1:]))
"""


def command_env(tmp_path: Path, file_format: str) -> dict[str, str]:
    env = {"PATH": os.environ["PATH"], "HOME": os.environ.get("HOME", "/tmp"), "LANG": "C.UTF-8",
           "TIDELINE_DATA_DIR": str(tmp_path / "data"), "TIDELINE_SCHEMA": "kill", "TIDELINE_FILE_FORMAT": file_format}
    if os.environ.get("JAVA_HOME"):
        env["JAVA_HOME"] = os.environ["JAVA_HOME"]
    return env


def generate_args(until: str) -> list[str]:
    return ["--start", "2025-01-01", "--days", "4", "--events-per-day", "80", "--users", "8", "--late-share", "0.2",
            "--duplicate-share", "0.05", "--until", until, "--cadence", "3600", "--table", "kill_source.events"]


def load(env: dict[str, str], until: str) -> None:
    result = subprocess.run([sys.executable, "-m", "tideline_tools.generate", *generate_args(until)],
                            env=env, cwd=PROJECT_DIR, capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stdout + result.stderr


def dbt(env: dict[str, str], now: str, *args: str) -> str:
    result = subprocess.run([str(Path(sys.executable).parent / "dbt"), *args, *SELECT, "--vars", json.dumps(VARS)],
                            env={**env, "TIDELINE_NOW": now}, cwd=PROJECT_DIR, capture_output=True, text=True, timeout=900)
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-3000:]
    return result.stdout


def killed_dbt(env: dict[str, str], now: str, at: re.Pattern) -> str:
    """`dbt run`, killed (SIGKILL to its process group: Python and the Spark JVM) as soon as its
    --debug output shows the statement `at`. Returns the output up to the kill."""
    process = subprocess.Popen([str(Path(sys.executable).parent / "dbt"), "--debug", "run", *SELECT, "--vars", json.dumps(VARS)],
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


def tables(env: dict[str, str], then_load_until: str | None = None) -> dict[str, list[dict]]:
    """The two models' rows as a reader sees them (the commit columns left out); then, when
    given, the loads up to `then_load_until` (one Spark process for both)."""
    extra = generate_args(then_load_until) if then_load_until else []
    result = subprocess.run([sys.executable, "-c", DUMP, *extra], env=env, cwd=PROJECT_DIR, capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    return json.loads(result.stdout.split("TABLES ", 1)[1].split("\n", 1)[0])


def test_a_run_killed_inside_its_writes_then_rerun_equals_a_rebuild(tmp_path, file_format):
    env = command_env(tmp_path, file_format)
    load(env, "2025-01-02 12:00:00")
    dbt(env, "2025-01-02 12:00:00", "run")
    first = tables(env, then_load_until="2025-01-04 06:00:00")

    # killed inside the append of the new window: readers see the first run's rows only
    killed_dbt(env, "2025-01-04 06:00:00", KILLS[0])
    assert tables(env) == first, "a killed run's rows are seen"
    # the rerun redoes the window; killed again inside the aggregate's commit
    output = killed_dbt(env, "2025-01-04 06:00:00", KILLS[1])
    assert "tideline tl_filtered_events: window (" in output, "the rerun did not read the window the killed run left"
    dbt(env, "2025-01-04 06:00:00", "run")
    incremental = tables(env)

    dbt(env, "2025-01-04 06:00:00", "run", "--full-refresh")
    rebuilt = tables(env)
    for name in ("tl_filtered_events", "daily_user_activity"):
        assert_rows_equal(incremental[name], rebuilt[name], label=f"{name} ({file_format}): killed twice, rerun, against a rebuild")
    assert len(incremental["tl_filtered_events"]) > len(first["tl_filtered_events"]) > 0
    ids = [r["event_id"] for r in incremental["tl_filtered_events"]]
    assert len(ids) == len(set(ids)), "an event_id twice after the kills"

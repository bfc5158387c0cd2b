"""The ground the project stands on: profile settings, the metastore lock, the Java check."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tideline_tools.profile import PROJECT_DIR, ProfileError, target_config
from tideline_tools.suite_speed import SPEED_SETTINGS, speed_env, use_speed_settings

pytestmark = pytest.mark.local_only


def test_local_target_settings(project):
    spark = project.runner.spark
    assert spark.conf.get("spark.sql.session.timeZone") == "UTC"
    assert spark.conf.get("spark.sql.sources.partitionOverwriteMode") == "dynamic"
    assert spark.sparkContext._jvm.java.util.TimeZone.getDefault().getID() == "UTC"
    data_dir = Path(os.environ["TIDELINE_DATA_DIR"])
    assert data_dir.is_absolute()
    project.runner.execute(f"create schema if not exists {project.schema}")
    project.runner.execute(f"create table {project.schema}.where_am_i (x int) using parquet")
    location = [r for r in project.rows(f"describe table extended {project.schema}.where_am_i")
                if r[0] == "Location"][0][1]
    assert location.startswith(f"file:{data_dir}/warehouse/")
    assert (data_dir / "metastore_db").is_dir()
    # the suite's speed settings reach the session (a Delta read then skips no statistics query)
    for setting, variable in (("spark.databricks.delta.stats.skipping", "TIDELINE_DELTA_SKIPPING"),
                              ("spark.databricks.delta.snapshotPartitions", "TIDELINE_DELTA_SNAPSHOT_PARTITIONS"),
                              ("spark.sql.adaptive.enabled", "TIDELINE_ADAPTIVE"),
                              ("spark.sql.optimizer.dynamicPartitionPruning.enabled", "TIDELINE_DPP"),
                              ("spark.sql.optimizer.runtime.bloomFilter.enabled", "TIDELINE_RUNTIME_FILTER"),
                              ("spark.sql.codegen.wholeStage", "TIDELINE_CODEGEN")):
        assert spark.conf.get(setting) == os.environ[variable] == SPEED_SETTINGS[variable], setting
    # and the JVM options reach the JVM that runs the session
    started_with = list(spark.sparkContext._jvm.java.lang.management.ManagementFactory.getRuntimeMXBean().getInputArguments())
    assert os.environ["TIDELINE_JVM_OPTIONS"] == SPEED_SETTINGS["TIDELINE_JVM_OPTIONS"]
    assert set(SPEED_SETTINGS["TIDELINE_JVM_OPTIONS"].split()) <= set(started_with), started_with


def test_the_cluster_gets_the_suites_speed_settings_only_when_asked(monkeypatch):
    """`cluster up --suite-speed` (make test-cluster) starts the Thrift server with the suite's
    speed settings; a plain `cluster up` (make cluster-up) with Spark's and Delta's defaults."""
    from tideline_tools import cluster

    def confs() -> dict[str, str]:
        command = cluster._thrift_command()
        pairs = [command[i + 1] for i, arg in enumerate(command) if arg == "--conf"]
        return dict(pair.split("=", 1) for pair in pairs)

    for variable in SPEED_SETTINGS:
        monkeypatch.delenv(variable, raising=False)
    plain = confs()
    assert plain["spark.sql.shuffle.partitions"] == "4" and plain["spark.databricks.delta.snapshotPartitions"] == "2"
    assert plain["spark.executor.extraJavaOptions"] == "-Duser.timezone=UTC"
    assert not {"spark.sql.adaptive.enabled", "spark.databricks.delta.stats.skipping", "spark.sql.codegen.wholeStage",
                "spark.sql.optimizer.dynamicPartitionPruning.enabled", "spark.sql.optimizer.runtime.bloomFilter.enabled"} & set(plain)
    use_speed_settings()
    fast = confs()
    assert {key: fast[key] for key in set(fast) - set(plain) | {"spark.sql.shuffle.partitions"}} == {
        "spark.sql.adaptive.enabled": "false", "spark.databricks.delta.stats.skipping": "false",
        "spark.sql.codegen.wholeStage": "false", "spark.sql.codegen.factoryMode": "NO_CODEGEN",
        "spark.sql.optimizer.dynamicPartitionPruning.enabled": "false", "spark.sql.optimizer.runtime.bloomFilter.enabled": "false",
        "spark.sql.shuffle.partitions": "1"}
    assert fast["spark.databricks.delta.snapshotPartitions"] == "1"
    assert fast["spark.executor.extraJavaOptions"] == ("-Duser.timezone=UTC -XX:CompileThresholdScaling=10 -XX:+UnlockDiagnosticVMOptions"
                                                       " -XX:-BytecodeVerificationRemote")


def test_a_new_now_in_the_environment_parses_nothing_again(project):
    """A scheduler passes each run's logical time as TIDELINE_NOW (the harness does the same with
    tideline__now): dbt must keep its parsed project then. A model that read it while parsed
    (user_attributes, through its last-7-days window) was parsed again on every new now, and a
    var that changes makes dbt parse everything again (about 1 s)."""
    parsing: list[str] = []

    def watch(event) -> None:
        if event.info.name in ("PartialParsingEnabled", "UnableToPartialParse"):
            parsing.append(event.info.msg)

    project.dbt("parse", vars={"tideline__now": "2025-01-01 00:00:00"})
    project.dbt("parse", vars={"tideline__now": "2025-01-02 06:00:00"}, on_event=watch)
    assert parsing == ["Partial parsing enabled: 0 files deleted, 0 files added, 0 files changed."], parsing


def test_profile_targets(monkeypatch, tmp_path):
    # the local target needs a data folder and the jars' paths; a test process sets them when its
    # first Spark starts, which may come after this test
    from tideline_tools.localenv import jars_setting
    monkeypatch.setenv("TIDELINE_DATA_DIR", os.environ.get("TIDELINE_DATA_DIR") or str(tmp_path))
    monkeypatch.setenv("TIDELINE_JARS", os.environ.get("TIDELINE_JARS") or jars_setting())
    local = target_config("local")
    assert local["method"] == "session" and local["threads"] == 1
    cluster = target_config("cluster")
    assert cluster["method"] == "thrift"
    assert str(cluster["port"]) == os.environ.get("TIDELINE_THRIFT_PORT", "10016")
    assert cluster["connect_retries"] > 0 and str(cluster["poll_interval"]) == "1"
    # rendered by dbt's own ProfileRenderer: env_var() read now, numbers as numbers
    monkeypatch.setenv("TIDELINE_THRIFT_PORT", "12345")
    assert target_config("cluster")["port"] == 12345
    monkeypatch.setenv("TIDELINE_TARGET", "cluster")
    assert target_config()["name"] == "cluster"
    with pytest.raises(ProfileError, match="unknown target 'prod'; accepted: local, cluster"):
        target_config("prod")


def test_a_second_process_on_a_locked_metastore_gets_one_line(project):
    """This test process holds the Derby metastore; another tool pointed at it must say so plainly."""
    env = {**os.environ, "TIDELINE_LOCK_WAIT": "0"}
    result = subprocess.run(
        [sys.executable, "-m", "tideline_tools.generate", "--until", "2025-01-02", "--target", "local"],
        env=env, cwd=PROJECT_DIR, capture_output=True, text=True, timeout=120,
    )
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert "is in use by another process" in lines[0]
    assert os.environ["TIDELINE_DATA_DIR"] in lines[0]


def test_plain_dbt_on_a_locked_metastore_gets_one_line(project):
    """`dbt` from the venv `make setup` made checks the lock before Spark starts."""
    dbt = Path(sys.executable).parent / "dbt"
    assert "tideline_tools.dbt_cli" in dbt.read_text(), "run `make setup`: bin/dbt is not tideline's wrapper"
    result = subprocess.run([str(dbt), "run", "--target", "local"], env={**os.environ, "TIDELINE_LOCK_WAIT": "0"},
                            cwd=PROJECT_DIR,
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 2
    assert result.stderr.strip().count("\n") == 0 and "is in use by another process" in result.stderr
    assert result.stdout == ""


def clean_env(**extra: str) -> dict[str, str]:
    """What a scheduler gives a command: a PATH (with Java), a HOME, and nothing of tideline's
    but the suite's speed settings (tideline_tools/suite_speed.py; they change no result)."""
    env = {"PATH": os.environ["PATH"], "HOME": os.environ.get("HOME", "/tmp"), "LANG": "C.UTF-8"}
    if os.environ.get("JAVA_HOME"):
        env["JAVA_HOME"] = os.environ["JAVA_HOME"]
    return {**env, **speed_env(), **extra}


def test_dbt_called_by_path_from_another_folder_needs_no_activation(tmp_path):
    """Airflow, cron or an IDE call .venv/bin/dbt by path: the profile, the project and the data
    folder default to the project's own."""
    dbt = Path(sys.executable).parent / "dbt"
    result = subprocess.run([str(dbt), "ls", "--resource-type", "model", "--output", "name"], env=clean_env(),
                            cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "tl_filtered_events" in result.stdout.split() and "daily_user_activity" in result.stdout.split()
    assert "\x1b[" not in result.stdout   # no colour codes when the output is not a terminal
    usage = subprocess.run([str(dbt), "run", "-h"], env=clean_env(), cwd=tmp_path, capture_output=True, text=True,
                           timeout=300)
    assert usage.returncode == 0 and usage.stdout.startswith("Usage: dbt run [OPTIONS]"), usage.stdout[:300]


@pytest.mark.extended   # make test: the demo and kill tests start their processes one after another on one data folder
def test_back_to_back_commands_wait_for_the_metastore_and_all_succeed(tmp_path):
    """A scheduler runs one command right after another: each takes the data folder's lock,
    waits for a holder still releasing it, and frees the metastore when it ends."""
    dbt = str(Path(sys.executable).parent / "dbt")
    env = clean_env(TIDELINE_DATA_DIR=str(tmp_path / "data"), TIDELINE_SCHEMA="back_to_back")
    vars_ = '{tideline__events_schema: b2b_source, tideline__start_date: "2025-01-01", tideline__now: "2025-01-04"}'
    # A holder that keeps the lock until the loader started beside it says it waits (no sleep:
    # the holder lets go only then); the loader then loads.
    holder = subprocess.Popen([sys.executable, "-c", "import sys; from tideline_tools.localenv import use_data_dir; "
                               "use_data_dir(); print('held', flush=True); sys.stdin.readline()"],
                              env=env, cwd=tmp_path, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    assert holder.stdout.readline().strip() == "held"
    load = subprocess.Popen([sys.executable, "-m", "tideline_tools.generate", "--start", "2025-01-01", "--days", "2",
                             "--events-per-day", "60", "--users", "5", "--until", "2025-01-03", "--cadence", "3600",
                             "--table", "b2b_source.events"], env=env, cwd=tmp_path, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    before_wait = []
    for line in load.stderr:   # until the loader says it waits (or ends without saying so)
        before_wait.append(line)
        if "waiting up to 60s for another process to release the local metastore" in line:
            break
    assert before_wait and "waiting up to 60s" in before_wait[-1], "".join(before_wait)
    holder.communicate("go\n", timeout=60)
    out, err = load.communicate(timeout=600)
    assert load.returncode == 0, "".join(before_wait) + err
    # Then, with no pause, two runs started together on one data folder: the one that gets the
    # metastore first does not wait (the loader before it released it), the other waits for it (one
    # line) and then runs; both succeed, quietly (no Spark start-up lines, no colour codes in
    # redirected output, no "None" windows, no Java trace). Two models keep each command short:
    # what is tested is the hand-over between processes.
    # (the second waits up to 5 minutes: on a machine busy with other tests a run can take more than the default 60 s)
    select = ["--select", "tl_filtered_events", "daily_user_activity"]
    both = [subprocess.Popen([dbt, "run", *select, "--vars", vars_], env={**env, "TIDELINE_LOCK_WAIT": "300"}, cwd=PROJECT_DIR,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for _ in range(2)]
    outputs = [p.communicate(timeout=900) for p in both]
    assert [p.returncode for p in both] == [0, 0], outputs
    waited = [err for _, err in outputs if "waiting up to 300s for another process" in err]
    assert len(waited) == 1, outputs
    for out, err in outputs:
        output = out + err
        assert "Exception" not in output and "Setting default log level" not in output, output[-3000:]
        assert "\x1b[" not in output and "(None" not in output, output[-3000:]
        assert "Completed successfully" in out, out[-3000:]


def test_the_demo_then_the_next_load_show_recent_attributes(tmp_path):
    """The first hour: `make demo` (events dated up to today, the last day held back), then the
    documented `make next-load`: both succeed and the last-7-days attributes have values."""
    env = clean_env(TIDELINE_DATA_DIR=str(tmp_path / "data"))
    attributes = re.compile(r"user_attributes: (\d+) users, (\d+) active in the last 7 days, (\d+) page views")
    # events a user loaded before (the generator's table): the demo says what it replaces before it does
    small = subprocess.run([sys.executable, "-m", "tideline_tools.generate", "--days", "1", "--events-per-day", "20",
                            "--until", "all", "--table", "tideline_source.events"],
                           env=env, cwd=tmp_path, capture_output=True, text=True, timeout=900)
    assert small.returncode == 0, small.stdout[-3000:] + small.stderr[-3000:]
    small_rows = re.search(r"loaded (\d+) rows into tideline_source.events", small.stdout)[1]
    demo = subprocess.run([sys.executable, "-m", "tideline_tools.demo", "--days", "3", "--events-per-day", "150"],
                          env=env, cwd=tmp_path, capture_output=True, text=True, timeout=900)
    assert demo.returncode == 0, demo.stdout[-3000:] + demo.stderr[-3000:]
    assert demo.stdout.startswith(f"tideline: make demo replaces tideline_source.events ({small_rows} rows, loads up to "), \
        demo.stdout[:500]
    first = attributes.search(demo.stdout)
    assert first and int(first[2]) > 0 and int(first[3]) > 0, demo.stdout[-2000:]
    assert "next: make next-load" in demo.stdout
    # a summary table of what it built (rich), progress on stderr
    assert re.search(r"^ *tideline_source\.events +source +\d+ *$", demo.stdout, re.M), demo.stdout[-3000:]
    assert re.search(r"^ *[a-z_]+\.user_attributes +model +\d+ *$", demo.stdout, re.M), demo.stdout[-3000:]
    assert re.search(r"^done: generating 3 days of events into tideline_source\.events \(\d+s\)$", demo.stderr, re.M), demo.stderr
    # dbt source freshness of the events: the last 24 hours of loads are held back, so it warns
    assert re.search(r"source tideline\.events: last load \S+ \S+ UTC, 2\d\.\d hours ago: warn "
                     r"\(warn after 3 hours, error after 2 days; dbt source freshness checks it\)", demo.stdout), demo.stdout[-2000:]
    after = subprocess.run([sys.executable, "-m", "tideline_tools.demo", "next-load", "--hours", "3"],
                           env=env, cwd=tmp_path, capture_output=True, text=True, timeout=900)
    assert after.returncode == 0, after.stdout[-3000:] + after.stderr[-3000:]
    assert re.search(r"loaded \d+ event rows into tideline_source.events: hourly loads after ", after.stdout), after.stdout
    assert "tideline tl_filtered_events: window (" in after.stdout
    second = attributes.search(after.stdout)
    assert second and int(second[3]) >= int(first[3]), after.stdout[-2000:]
    assert "\x1b[" not in demo.stdout + after.stdout


def test_a_stale_lock_file_is_not_a_lock(tmp_path, runner):
    """A lock file that no process holds is not a lock; the metastore this process's Spark
    session (`runner`, whose JVM is a process of its own) has open is one."""
    runner.rows("show databases")   # Derby boots at the first metastore call
    from tideline_tools.localenv import metastore_holder

    (tmp_path / "metastore_db").mkdir()
    (tmp_path / "metastore_db" / "dbex.lck").write_bytes(b"left by a crashed process")
    assert metastore_holder(tmp_path) is False
    assert metastore_holder(Path(os.environ["TIDELINE_DATA_DIR"])) is True


@pytest.mark.parametrize("version_line, ok", [
    ('openjdk version "11.0.22" 2024-01-16', False),
    ('java version "1.8.0_402"', False),
    ('openjdk version "17.0.15" 2025-04-15', True),
    ('openjdk version "21" 2023-09-19', True),
])
def test_java_check(tmp_path, version_line, ok):
    fake = tmp_path / "bin" / "java"
    fake.parent.mkdir()
    fake.write_text(f"#!/bin/sh\necho '{version_line}' >&2\n")
    fake.chmod(0o755)
    env = {"PATH": f"{fake.parent}:/usr/bin:/bin", "JAVA_HOME": ""}
    result = subprocess.run(["bash", str(PROJECT_DIR / "tideline_tools" / "check_java.sh")],
                            env=env, capture_output=True, text=True)
    assert (result.returncode == 0) is ok
    if not ok:
        assert "too old" in result.stderr and "openjdk-17" in result.stderr


def test_java_missing(tmp_path):
    env = {"PATH": str(tmp_path), "JAVA_HOME": ""}
    result = subprocess.run(["/bin/bash", str(PROJECT_DIR / "tideline_tools" / "check_java.sh")],
                            env=env, capture_output=True, text=True)
    assert result.returncode == 1
    assert "Java was not found" in result.stderr and "Install Java 17" in result.stderr


def test_a_failed_cluster_start_stops_what_it_started(tmp_path):
    """A worker that cannot start makes `cluster up` fail with one line and stop the master it
    had started, so nothing is left running (CI's `make test-cluster` stops at that line)."""
    ports = {"TIDELINE_MASTER_PORT": "7377", "TIDELINE_MASTER_UI_PORT": "8380", "TIDELINE_WORKER_UI_PORT": "8381",
             "TIDELINE_THRIFT_PORT": "10316"}
    env = {**os.environ, **ports, "TIDELINE_CLUSTER_DIR": str(tmp_path), "TIDELINE_WORKER_MEMORY": "bogus"}
    result = subprocess.run([sys.executable, "-m", "tideline_tools.cluster", "up"], env=env, capture_output=True,
                            text=True, timeout=300)
    assert result.returncode != 0
    assert "tideline cluster: master up" in result.stdout
    assert "tideline cluster: master stopped" in result.stdout
    assert "tideline cluster: the worker exited during start-up (status 1)" in result.stdout + result.stderr
    assert not (tmp_path / "pids.json").exists()
    import socket
    with socket.socket() as sock:
        assert sock.connect_ex(("127.0.0.1", 7377)) != 0, "the master still listens"

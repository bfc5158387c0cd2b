"""A real Spark cluster on this machine: standalone master, one worker, Spark Thrift Server.

    python -m tideline_tools.cluster up      # start all three, wait until they answer
    python -m tideline_tools.cluster status  # which of them run
    python -m tideline_tools.cluster test    # the end-to-end tests against the `cluster` target
    python -m tideline_tools.cluster down    # stop exactly the processes `up` started

Everything comes from the pip `pyspark` distribution (bin/spark-class, bin/spark-submit). The
ports are not Spark's defaults, everything binds to 127.0.0.1, and the Thrift server keeps its
own Derby metastore and warehouse under .tideline/cluster. `up` writes the pid and command
line of each process it starts; `down` stops a pid only while its command line still is the
one `up` recorded, so no other process on the machine is touched.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from . import console, jars
from .profile import PROFILES_DIR, PROJECT_DIR
from .suite_speed import use_speed_settings

HOME = Path(os.environ.get("TIDELINE_CLUSTER_DIR", PROJECT_DIR / ".tideline" / "cluster")).resolve()
HOST = "127.0.0.1"
MASTER_PORT = int(os.environ.get("TIDELINE_MASTER_PORT", "7177"))
MASTER_UI_PORT = int(os.environ.get("TIDELINE_MASTER_UI_PORT", "8180"))
WORKER_UI_PORT = int(os.environ.get("TIDELINE_WORKER_UI_PORT", "8181"))
THRIFT_PORT = int(os.environ.get("TIDELINE_THRIFT_PORT", "10016"))
WORKER_CORES = os.environ.get("TIDELINE_WORKER_CORES", "2")
WORKER_MEMORY = os.environ.get("TIDELINE_WORKER_MEMORY", "4g")
PIDS = HOME / "pids.json"
STARTUP_SECONDS = 180


def spark_home() -> Path:
    import pyspark

    return Path(pyspark.__file__).resolve().parent


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env.update(
        SPARK_HOME=str(spark_home()),
        SPARK_CONF_DIR=str(PROFILES_DIR / "spark-conf"),
        SPARK_LOG_DIR=str(HOME / "logs"),
        SPARK_WORKER_DIR=str(HOME / "work"),
        SPARK_LOCAL_IP=HOST,
        SPARK_NO_DAEMONIZE="1",
        TZ="UTC",
    )
    return env


def _thrift_command() -> list[str]:
    # TIDELINE_JVM_OPTIONS: more options for the server's JVMs (`make test-cluster` raises the JIT's thresholds)
    jvm_options = f"-Duser.timezone=UTC {os.environ.get('TIDELINE_JVM_OPTIONS', '')}".strip()
    conf = {
        "spark.master": f"spark://{HOST}:{MASTER_PORT}",
        "spark.app.name": "tideline-thrift-server",
        "spark.driver.memory": "2g",
        "spark.executor.memory": "2g",
        "spark.cores.max": WORKER_CORES,
        "spark.ui.enabled": "false",
        "spark.driver.host": HOST,
        "spark.driver.bindAddress": HOST,
        "spark.sql.warehouse.dir": str(HOME / "warehouse"),
        "spark.hadoop.javax.jdo.option.ConnectionURL": f"jdbc:derby:;databaseName={HOME / 'metastore_db'};create=true",
        "spark.driver.extraJavaOptions": f"{jvm_options} -Dderby.stream.error.file={HOME / 'logs' / 'derby.log'}",
        "spark.executor.extraJavaOptions": jvm_options,
        "spark.sql.session.timeZone": "UTC",
        "spark.sql.sources.partitionOverwriteMode": "dynamic",
        "spark.sql.shuffle.partitions": "4",
        # the same formats as the local target: Delta owns spark_catalog, Iceberg its own hadoop catalog
        "spark.sql.extensions": "io.delta.sql.DeltaSparkSessionExtension,org.apache.iceberg.spark.extensions.IcebergSparkSessionExtensions",
        "spark.sql.catalog.spark_catalog": "org.apache.spark.sql.delta.catalog.DeltaCatalog",
        "spark.sql.catalog.tideline_iceberg": "org.apache.iceberg.spark.SparkCatalog",
        "spark.sql.catalog.tideline_iceberg.type": "hadoop",
        "spark.sql.catalog.tideline_iceberg.warehouse": str(HOME / "iceberg"),
        "spark.databricks.delta.snapshotPartitions": "2",
    }
    # `up --suite-speed` (make test-cluster) starts the server with the test suite's speed
    # settings (suite_speed.py); without it the server keeps Spark's defaults, as at volume.
    conf.update(_test_speed_settings())
    # the jars on the driver's own class path too: loaded by --jars alone, Delta's catalog cannot
    # see its other classes in the Thrift server (NoClassDefFoundError: DeltaSourceUtils$)
    pinned = [str(p) for p in jars.fetch()]
    conf["spark.driver.extraClassPath"] = ":".join(pinned)
    command = [str(spark_home() / "bin" / "spark-submit"), "--class", "org.apache.spark.sql.hive.thriftserver.HiveThriftServer2",
               "--jars", ",".join(pinned)]
    for key, value in conf.items():
        command += ["--conf", f"{key}={value}"]
    command += [
        "--hiveconf", f"hive.server2.thrift.port={THRIFT_PORT}",
        "--hiveconf", f"hive.server2.thrift.bind.host={HOST}",
        "spark-internal",
    ]
    return command


def _test_speed_settings() -> dict[str, str]:
    """The Thrift server's settings from the suite's speed variables, read as
    profiles/profiles.yml's local target reads them."""
    settings = {"TIDELINE_ADAPTIVE": "spark.sql.adaptive.enabled", "TIDELINE_SHUFFLE_PARTITIONS": "spark.sql.shuffle.partitions",
                "TIDELINE_DELTA_SKIPPING": "spark.databricks.delta.stats.skipping",
                "TIDELINE_DELTA_SNAPSHOT_PARTITIONS": "spark.databricks.delta.snapshotPartitions",
                "TIDELINE_DPP": "spark.sql.optimizer.dynamicPartitionPruning.enabled",
                "TIDELINE_RUNTIME_FILTER": "spark.sql.optimizer.runtime.bloomFilter.enabled"}
    conf = {setting: os.environ[variable] for variable, setting in settings.items() if os.environ.get(variable)}
    if os.environ.get("TIDELINE_CODEGEN") == "false":
        conf["spark.sql.codegen.wholeStage"] = "false"
        conf["spark.sql.codegen.factoryMode"] = "NO_CODEGEN"
    return conf


def _commands() -> dict[str, list[str]]:
    spark_class = str(spark_home() / "bin" / "spark-class")
    return {
        "master": [
            spark_class, "org.apache.spark.deploy.master.Master",
            "--host", HOST, "--port", str(MASTER_PORT), "--webui-port", str(MASTER_UI_PORT),
        ],
        "worker": [
            spark_class, "org.apache.spark.deploy.worker.Worker",
            "--host", HOST, "--webui-port", str(WORKER_UI_PORT), "--cores", WORKER_CORES,
            "--memory", WORKER_MEMORY, "--work-dir", str(HOME / "work"), f"spark://{HOST}:{MASTER_PORT}",
        ],
        "thrift": _thrift_command(),
    }


def _cmdline(pid: int) -> str | None:
    # A process in the middle of exec (spark-class execs java) shows an empty command line for
    # a moment: read again before concluding anything. A zombie stays empty: it has exited.
    for _ in range(20):
        try:
            line = Path(f"/proc/{pid}/cmdline").read_bytes()
        except OSError:
            return None
        if line:
            return line.replace(b"\0", b" ").decode(errors="replace")
        time.sleep(0.05)
    return ""


def _read_pids() -> dict[str, dict]:
    return json.loads(PIDS.read_text()) if PIDS.exists() else {}


def _alive(entry: dict) -> bool:
    """The recorded process still runs and is still ours (same marker in its command line)."""
    line = _cmdline(entry["pid"])
    return line is not None and entry["marker"] in line


def _port_open(port: int) -> bool:
    with socket.socket() as sock:
        sock.settimeout(1)
        return sock.connect_ex((HOST, port)) == 0


def _workers_alive() -> int:
    try:
        with urllib.request.urlopen(f"http://{HOST}:{MASTER_UI_PORT}/json/", timeout=2) as response:
            state = json.load(response)
        return sum(1 for w in state.get("workers", []) if w.get("state") == "ALIVE")
    except OSError:
        return 0


def _thrift_answers() -> bool:
    if not _port_open(THRIFT_PORT):
        return False
    try:
        from pyhive import hive

        connection = hive.connect(host=HOST, port=THRIFT_PORT, username="tideline")
        cursor = connection.cursor()
        cursor.execute("select 1")
        ok = cursor.fetchall() == [(1,)]
        connection.close()
        return ok
    except Exception:  # noqa: BLE001 - anything short of an answer means "not yet"
        return False


def _wait(what: str, ready, process: subprocess.Popen) -> None:
    deadline = time.monotonic() + STARTUP_SECONDS
    while time.monotonic() < deadline:
        if ready():
            return
        if process.poll() is not None:   # our own child: poll() knows, whatever exec did
            raise SystemExit(f"tideline cluster: the {what} exited during start-up (status {process.returncode}); "
                             f"see {HOME / 'logs'}")
        time.sleep(1)
    raise SystemExit(f"tideline cluster: the {what} did not answer within {STARTUP_SECONDS}s; see {HOME / 'logs'}")


def up(suite_speed: bool = False) -> None:
    if suite_speed:   # the test suite's speed settings for the Thrift server (suite_speed.py)
        use_speed_settings()
    pids = _read_pids()
    if any(_alive(e) for e in pids.values()):
        running = ", ".join(name for name, e in pids.items() if _alive(e))
        print(f"tideline cluster: already running ({running}); `make cluster-down` first to restart")
        return
    for port in (MASTER_PORT, MASTER_UI_PORT, WORKER_UI_PORT, THRIFT_PORT):
        if _port_open(port):
            raise SystemExit(f"tideline cluster: port {port} on {HOST} is taken by another process; "
                             "set TIDELINE_MASTER_PORT / TIDELINE_MASTER_UI_PORT / TIDELINE_WORKER_UI_PORT / TIDELINE_THRIFT_PORT")
    for sub in ("logs", "work"):
        (HOME / sub).mkdir(parents=True, exist_ok=True)
    readiness = {
        "master": lambda: _port_open(MASTER_PORT),
        "worker": lambda: _workers_alive() >= 1,
        "thrift": _thrift_answers,
    }
    started: dict[str, dict] = {}
    ports = {"master": MASTER_PORT, "worker": WORKER_UI_PORT, "thrift": THRIFT_PORT}
    summary: list[tuple] = []
    for name, command in _commands().items():
        log = open(HOME / "logs" / f"{name}.out", "ab")
        # Spark's own warnings and errors (profiles/spark-conf/log4j2.properties): a file beside its output
        env = {**_env(), "TIDELINE_SPARK_LOG": str(HOME / "logs" / f"{name}-spark.log")}
        process = subprocess.Popen(
            command, env=env, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
            start_new_session=True, cwd=HOME,
        )
        # The marker is a string only our own command line contains; `down` checks it.
        marker = str(HOME) if name != "master" else f"--webui-port {MASTER_UI_PORT}"
        started[name] = {"pid": process.pid, "marker": marker}
        PIDS.write_text(json.dumps(started, indent=2))
        t0 = time.monotonic()
        try:
            with console.step(f"starting the {name}"):
                _wait(name, readiness[name], process)
        except SystemExit:
            down()   # leave nothing running behind a failed start
            raise
        seconds = time.monotonic() - t0
        summary.append((name, process.pid, ports[name], seconds, str(HOME / "logs" / f"{name}.out")))
        print(f"tideline cluster: {name} up (pid {process.pid}, {seconds:.0f}s)")
    console.table("the cluster", ["process", "pid", "port", "start s", "log"], summary)
    print(f"tideline cluster: Thrift server at {HOST}:{THRIFT_PORT}; dbt target `cluster`")


def down() -> None:
    pids = _read_pids()
    for name in ("thrift", "worker", "master"):
        entry = pids.get(name)
        if not entry or not _alive(entry):
            continue
        # The worker's executors are its children in their own process group; stop the group.
        try:
            os.killpg(entry["pid"], signal.SIGTERM)
        except (ProcessLookupError, PermissionError):
            os.kill(entry["pid"], signal.SIGTERM)
        deadline = time.monotonic() + 30
        while _alive(entry) and time.monotonic() < deadline:
            time.sleep(0.5)
        if _alive(entry):
            os.killpg(entry["pid"], signal.SIGKILL)
        print(f"tideline cluster: {name} stopped (pid {entry['pid']})")
    PIDS.unlink(missing_ok=True)


def status() -> int:
    pids = _read_pids()
    rows = [(name, "running" if entry and _alive(entry) else "not running", entry["pid"] if entry else None)
            for name, entry in ((name, pids.get(name)) for name in ("master", "worker", "thrift"))]
    console.table("the cluster", ["process", "state", "pid"], rows)
    return 0 if pids and all(_alive(e) for e in pids.values()) else 1


def test(pytest_args: list[str]) -> int:
    """The end-to-end tests (marker `both_targets`) against the Thrift server."""
    if not _thrift_answers():
        print(f"tideline cluster: no Thrift server answers on {HOST}:{THRIFT_PORT}; run `make cluster-up`", file=sys.stderr)
        return 2
    env = dict(os.environ, TIDELINE_TARGET="cluster", TIDELINE_THRIFT_PORT=str(THRIFT_PORT),
               DBT_PROFILES_DIR=str(PROFILES_DIR))
    # dbt-spark sends each statement asynchronously and sleeps poll_interval whole seconds
    # between status polls: the suite's statements take milliseconds, so at the profile's 1 s
    # most of each one is the sleep. 0 polls without sleeping (measured: 88 s -> 57 s for the
    # run lock and filtered events tests); against a busy shared server keep 1 or more.
    env.setdefault("TIDELINE_THRIFT_POLL_INTERVAL", "0")
    command = [sys.executable, "-m", "pytest", "python_tests", "-m", "both_targets", *pytest_args]
    return subprocess.call(command, env=env, cwd=PROJECT_DIR)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tideline_tools.cluster", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("action", choices=["up", "down", "status", "test"])
    parser.add_argument("--suite-speed", action="store_true",
                        help="up: start the Thrift server with the test suite's speed settings (tideline_tools/suite_speed.py)")
    args, rest = parser.parse_known_args(argv)
    if args.action == "up":
        up(args.suite_speed)
    elif args.action == "down":
        down()
    elif args.action == "status":
        return status()
    else:
        return test(rest)
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""The process environment of a tideline tool: data folder, profile location, UTC, one process at a time.

Embedded Derby (the local Hive metastore) admits one process at a time. Every tool, `dbt` from
.venv/bin and the Python API therefore take the data folder's lock before Spark starts: an OS
file lock (`<data folder>/tideline.lock`) held for the life of the process, and they also wait
for Derby's own lock (a JVM that is still shutting down). A second process waits up to
TIDELINE_LOCK_WAIT seconds (default 60), saying so in one line, then stops with one line.
When the process exits, `release_local_spark()` (registered with atexit) stops Spark and its
JVM at once, so the next command does not wait for a JVM that lingers after Python is gone.
"""

from __future__ import annotations

import atexit
import fcntl
import os
import sys
import time
from pathlib import Path

from .profile import PROFILES_DIR, PROJECT_DIR

# Spark settings that must exist before the JVM starts: quiet logging, loopback only.
SPARK_PROCESS_ENV = {
    "SPARK_CONF_DIR": str(PROFILES_DIR / "spark-conf"),
    "SPARK_LOCAL_IP": "127.0.0.1",
}

DEFAULT_DATA_DIR = PROJECT_DIR / ".tideline" / "local"
DEFAULT_LOCK_WAIT = 60.0

_held: dict[Path, object] = {}   # data folder -> the open lock file (the lock lives as long as it)


class MetastoreLocked(RuntimeError):
    pass


def metastore_holder(data_dir: Path) -> bool:
    """True when another process has the Derby metastore in `data_dir` open.

    Derby takes an exclusive file lock on `metastore_db/dbex.lck` while a database is booted
    (Java's FileChannel.tryLock, which is an fcntl lock on Linux and macOS). A leftover lock
    file from a crashed process holds no lock, so only a live holder is reported.
    Call this before starting Spark in this process: fcntl locks belong to the process.
    """
    lock_file = Path(data_dir) / "metastore_db" / "dbex.lck"
    if not lock_file.exists():
        return False
    with open(lock_file, "a+b") as handle:
        try:
            fcntl.lockf(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            return True
        fcntl.lockf(handle, fcntl.LOCK_UN)
    return False


def lock_wait_seconds() -> float:
    text = os.environ.get("TIDELINE_LOCK_WAIT", "")
    try:
        value = float(text) if text else DEFAULT_LOCK_WAIT
    except ValueError:
        raise MetastoreLocked(f"TIDELINE_LOCK_WAIT = {text!r} is invalid; accepted: a number of seconds >= 0")
    if value < 0:
        raise MetastoreLocked(f"TIDELINE_LOCK_WAIT = {text!r} is invalid; accepted: a number of seconds >= 0")
    return value


def _try_lock(path: Path):
    handle = open(path / "tideline.lock", "a+b")
    try:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        handle.close()
        return None
    if metastore_holder(path):   # a JVM of an earlier process still holds Derby
        fcntl.flock(handle, fcntl.LOCK_UN)
        handle.close()
        return None
    return handle


def lock_data_dir(path: Path) -> None:
    """Take the data folder's lock for the life of this process, waiting for another holder."""
    if path in _held:
        return
    wait = lock_wait_seconds()
    deadline = time.monotonic() + wait
    said = False
    while True:
        handle = _try_lock(path)
        if handle is not None:
            if not _held:
                atexit.register(release_local_spark)
            _held[path] = handle
            # tells tideline's macros that this process runs one at a time on this folder, so
            # they need no run-lock table (that is for a shared cluster)
            os.environ["TIDELINE_LOCKED_DATA_DIR"] = str(path)
            return
        if time.monotonic() >= deadline:
            raise MetastoreLocked(
                f"the local metastore in {path}/metastore_db is in use by another process "
                f"(embedded Derby admits one process at a time; waited {wait:g}s, TIDELINE_LOCK_WAIT): wait for "
                "that dbt or tideline process to end, or set TIDELINE_DATA_DIR to another folder"
            )
        if not said:
            print(f"tideline: waiting up to {wait:g}s for another process to release the local metastore in {path}",
                  file=sys.stderr, flush=True)
            said = True
        time.sleep(0.25)


def jars_setting() -> str:
    """The value of spark.jars for the local target: the pinned Delta and Iceberg jars
    (profiles/jars.lock, fetched by `make setup`), as one comma-separated list of paths."""
    from .jars import classpath

    return ",".join(str(p) for p in classpath())


def use_data_dir(data_dir: Path | str | None = None) -> Path:
    """Point this process (and the dbt it runs in-process) at one data folder and take its lock."""
    path = Path(data_dir or os.environ.get("TIDELINE_DATA_DIR") or DEFAULT_DATA_DIR).resolve()
    path.mkdir(parents=True, exist_ok=True)
    lock_data_dir(path)
    os.environ["TIDELINE_DATA_DIR"] = str(path)
    os.environ.setdefault("DBT_PROFILES_DIR", str(PROFILES_DIR))
    os.environ.setdefault("TIDELINE_JARS", jars_setting())
    for key, value in SPARK_PROCESS_ENV.items():
        os.environ.setdefault(key, value)
    os.environ["TZ"] = "UTC"
    time.tzset()  # PySpark turns timestamps into naive datetimes in the process's local zone
    return path


def release_local_spark(timeout: float = 30.0) -> None:
    """Stop this process's Spark and its JVM now (the JVM would otherwise outlive us by seconds,
    holding the metastore), then let go of the data folder's lock."""
    try:
        from pyspark import SparkContext
    except ImportError:
        return
    context = SparkContext._active_spark_context
    gateway = SparkContext._gateway
    if context is not None:
        context.stop()
    process = getattr(gateway, "proc", None) if gateway is not None else None
    if process is not None and process.poll() is None:
        import logging

        # py4j's threads log every call that finds the JVM gone: expected here, not news
        logging.getLogger().setLevel(logging.CRITICAL)
        if process.stdin is not None:
            process.stdin.close()      # the gateway JVM exits when its stdin closes
        try:
            process.wait(timeout=timeout)
        except Exception:
            process.kill()
            process.wait()
    for handle in _held.values():
        handle.close()
    _held.clear()
    os.environ.pop("TIDELINE_LOCKED_DATA_DIR", None)

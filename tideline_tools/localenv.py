"""The process environment of a tideline tool: data folder, profile location, UTC.

Embedded Derby (the local Hive metastore) admits one process at a time. Every tool therefore
names its own data folder (TIDELINE_DATA_DIR) and checks, before Spark starts, that no other
process holds that folder's metastore, so a clash is one readable line instead of a Java
stack trace.
"""

from __future__ import annotations

import fcntl
import os
import time
from pathlib import Path

from .profile import PROFILES_DIR, PROJECT_DIR

# Spark settings that must exist before the JVM starts: quiet logging, loopback only.
SPARK_PROCESS_ENV = {
    "SPARK_CONF_DIR": str(PROFILES_DIR / "spark-conf"),
    "SPARK_LOCAL_IP": "127.0.0.1",
}

DEFAULT_DATA_DIR = PROJECT_DIR / ".tideline" / "local"


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


def use_data_dir(data_dir: Path | str | None = None) -> Path:
    """Point this process (and the dbt it runs in-process) at one data folder; check its lock."""
    path = Path(data_dir or os.environ.get("TIDELINE_DATA_DIR") or DEFAULT_DATA_DIR).resolve()
    if metastore_holder(path):
        raise MetastoreLocked(
            f"the local metastore in {path}/metastore_db is in use by another process "
            "(embedded Derby admits one process at a time): wait for that dbt or tideline "
            "process to end, or set TIDELINE_DATA_DIR to another folder"
        )
    path.mkdir(parents=True, exist_ok=True)
    os.environ["TIDELINE_DATA_DIR"] = str(path)
    os.environ.setdefault("DBT_PROFILES_DIR", str(PROFILES_DIR))
    for key, value in SPARK_PROCESS_ENV.items():
        os.environ.setdefault(key, value)
    os.environ["TZ"] = "UTC"
    time.tzset()  # PySpark turns timestamps into naive datetimes in the process's local zone
    return path

"""`dbt` as installed by `make setup` (.venv/bin/dbt): dbt's own CLI, ready to be called by path.

A scheduler (cron, Airflow, an IDE) calls .venv/bin/dbt without activating the venv, from any
folder. So this wrapper, before dbt starts:
  * defaults the profile folder to the project's profiles/, the local data folder to the
    project's .tideline/local, Spark's settings and UTC (each only when not set already);
  * runs tideline's own project when the working folder holds no dbt_project.yml and no
    --project-dir is given;
  * on the local target, takes the data folder's lock (waiting up to TIDELINE_LOCK_WAIT
    seconds for another process, see tideline_tools/localenv.py; not for an operation that
    sends no statement, WITHOUT_STATEMENTS), and when dbt is done stops
    Spark's JVM at once, so that the next command starts right away;
  * turns colours off when the output is not a terminal;
  * prints a failing statement's error as what Spark says went wrong, without Java's stack
    or Spark's plan (tideline_tools/spark_errors.py; dbt's log keeps the whole of it).
Everything else is dbt, unchanged.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from .profile import PROFILES_DIR, PROJECT_DIR

# Commands that open a connection (and so start Spark on the local target).
CONNECTING = {"run", "build", "test", "seed", "snapshot", "compile", "show", "run-operation", "debug",
              "retry", "source", "docs", "clone"}
# tideline's operations that send no statement: they never start Spark, so they take no lock
# and run beside a dbt run that holds it.
WITHOUT_STATEMENTS = {"tideline.check_attribute_views", "check_attribute_views"}


def _option(argv: list[str], *names: str) -> str | None:
    for i, arg in enumerate(argv):
        if arg in names and i + 1 < len(argv):
            return argv[i + 1]
        for name in names:
            if arg.startswith(name + "="):
                return arg.split("=", 1)[1]
    return None


def set_defaults(argv: list[str]) -> None:
    """The environment a bare `dbt` call needs, where the caller did not set it."""
    from .localenv import DEFAULT_DATA_DIR, SPARK_PROCESS_ENV, jars_setting

    defaults = {"DBT_PROFILES_DIR": str(PROFILES_DIR), "TIDELINE_DATA_DIR": str(DEFAULT_DATA_DIR), "TIDELINE_JARS": jars_setting(),
                "TZ": "UTC", **SPARK_PROCESS_ENV}
    for key, value in defaults.items():
        os.environ.setdefault(key, value)
    if _option(argv, "--project-dir") is None and not os.environ.get("DBT_PROJECT_DIR") \
            and not (Path.cwd() / "dbt_project.yml").exists():
        os.environ["DBT_PROJECT_DIR"] = str(PROJECT_DIR)
    if not sys.stdout.isatty():
        os.environ.setdefault("DBT_USE_COLORS", "false")


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    set_defaults(argv)
    words = [a for a in argv if not a.startswith("-")]
    command = words[0] if words else None
    if command in CONNECTING and not (command == "run-operation" and len(words) > 1 and words[1] in WITHOUT_STATEMENTS):
        from .localenv import MetastoreLocked, use_data_dir
        from .profile import ProfileError, target_name

        try:
            local = target_name(_option(argv, "--target", "-t")) == "local"
        except ProfileError:
            local = False  # an unknown target is dbt's to report
        if local:
            try:
                use_data_dir()
            except MetastoreLocked as exc:
                print(f"tideline: {exc}", file=sys.stderr)
                return 2
    from dbt.cli.main import cli

    from .spark_errors import install

    install()   # a failing statement's error without Java's stack or Spark's plan
    sys.argv = ["dbt", *argv]
    # prog_name: click would otherwise name this module in its usage lines ("python -m ...")
    return cli(prog_name="dbt")   # on exit, localenv stops Spark's JVM at once (atexit)


if __name__ == "__main__":
    sys.exit(main())

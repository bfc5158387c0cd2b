"""`dbt` as installed by `make setup`: dbt's own CLI, after a check of the local metastore.

With the `local` target, dbt runs Spark inside its process on embedded Derby, which admits
one process at a time. Started while another process holds the metastore, plain dbt would
fail deep inside Spark with pages of Java stack trace; this wrapper says so in one line
before Spark starts. Everything else is dbt, unchanged.
"""

from __future__ import annotations

import os
import sys

# Commands that open a connection (and so start Spark on the local target).
CONNECTING = {"run", "build", "test", "seed", "snapshot", "compile", "show", "run-operation", "debug",
              "retry", "source", "docs", "clone"}


def _target(argv: list[str]) -> str | None:
    for i, arg in enumerate(argv):
        if arg in ("--target", "-t") and i + 1 < len(argv):
            return argv[i + 1]
        if arg.startswith("--target="):
            return arg.split("=", 1)[1]
    return None


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    command = next((a for a in argv if not a.startswith("-")), None)
    if command in CONNECTING and os.environ.get("TIDELINE_DATA_DIR"):
        from .localenv import MetastoreLocked, use_data_dir
        from .profile import ProfileError, target_name

        try:
            local = target_name(_target(argv)) == "local"
        except ProfileError:
            local = False  # an unknown target is dbt's to report
        if local:
            try:
                use_data_dir()
            except MetastoreLocked as exc:
                print(f"tideline: {exc}", file=sys.stderr)
                return 2
    from dbt.cli.main import cli

    sys.argv = ["dbt", *argv]
    return cli()


if __name__ == "__main__":
    sys.exit(main())

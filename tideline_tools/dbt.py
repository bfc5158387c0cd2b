"""Run dbt in this process through dbtRunner, so one SparkSession serves every invocation."""

from __future__ import annotations

import json
import os
import re
import sys
import time
from dataclasses import dataclass
from typing import Any

from .profile import PROFILES_DIR, PROJECT_DIR


class DbtFailed(RuntimeError):
    def __init__(self, args: list[str], messages: list[str], result: Any):
        self.args_ = args
        self.messages = messages
        self.result = result
        super().__init__("dbt " + " ".join(args) + " failed:\n" + "\n".join(messages))


@dataclass
class DbtResult:
    args: list[str]
    success: bool
    result: Any  # dbt's RunExecutionResult (or other) object
    messages: list[str]
    tideline_lines: list[str]  # tideline's one-line summaries ("tideline <model>...") from dbt's log

    def node_status(self) -> dict[str, str]:
        """{node name: status} of the nodes this invocation ran."""
        results = getattr(self.result, "results", None) or []
        return {r.node.name: str(r.status) for r in results if getattr(r, "node", None) is not None}


def run_dbt(
    args: list[str],
    vars: dict[str, Any] | None = None,
    target: str | None = None,
    expect_success: bool = True,
    project_dir: str | os.PathLike | None = None,
    on_event=None,
    profiles_dir: str | os.PathLike | None = None,
    manifest: Any = None,
) -> DbtResult:
    """`dbt <args> --vars <vars>` in-process; raise DbtFailed when expect_success and it fails.
    `manifest`: a project dbt parsed already (dbtRunner's own reuse of a parsed project), so that
    this command does not parse it again."""
    from dbt.cli.main import dbtRunner

    from .spark_errors import install

    install()   # a failing statement's error as `.venv/bin/dbt` prints it (spark_errors.py)

    if not sys.stdout.isatty():
        os.environ.setdefault("DBT_USE_COLORS", "false")   # no colour codes in logs and pipes

    full = list(args)
    full += ["--project-dir", str(project_dir or PROJECT_DIR), "--profiles-dir", str(profiles_dir or PROFILES_DIR)]
    if target:
        full += ["--target", target]
    if vars:
        full += ["--vars", json.dumps(vars, default=str)]
    messages: list[str] = []
    tideline_lines: list[str] = []

    statement_log = os.environ.get("TIDELINE_STATEMENT_LOG")
    last = [time.perf_counter(), None]

    def collect(event) -> None:
        if statement_log and event.info.name in ("SQLQuery", "NodeFinished"):
            # the time since the previous statement began: this statement's predecessor,
            # its execute and its fetch (PySpark plans lazily), with its node and first words
            now = time.perf_counter()
            if last[1] is not None:
                with open(statement_log, "a") as out:
                    out.write(json.dumps({"seconds": round(now - last[0], 3), **last[1]}) + "\n")
            last[:] = [now, None if event.info.name == "NodeFinished" else {
                "node": getattr(event.data, "node_info", None) and event.data.node_info.node_name,
                "sql": re.sub(r"^\s*/\*.*?\*/\s*", "", event.data.sql, flags=re.S)}]
        if event.info.level in ("error", "warn"):
            messages.append(event.info.msg)
        elif event.info.msg.startswith("tideline "):
            tideline_lines.append(event.info.msg)
        if on_event is not None:
            on_event(event)

    outcome = dbtRunner(manifest=manifest, callbacks=[collect]).invoke(full)
    failures = []
    for r in getattr(outcome.result, "results", None) or []:
        if str(r.status) in ("error", "fail", "runtime error") and getattr(r, "message", None):
            failures.append(f"{r.node.name}: {r.message}")
    if outcome.exception is not None:
        failures.append(str(outcome.exception))
    result = DbtResult(full, bool(outcome.success), outcome.result, messages + failures, tideline_lines)
    if expect_success and not result.success:
        raise DbtFailed(full, result.messages, outcome.result)
    return result

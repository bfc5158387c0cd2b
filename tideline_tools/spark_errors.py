"""A failing statement's error as dbt prints it: what Spark says went wrong, not its Java stack
or its query plan.

dbt-spark turns any exception of a statement into dbt's error with the exception's whole text
(and one raised while dbt fetches a select's rows reaches dbt as py4j's exception itself).
For a statement that fails while it runs (a job aborted by `raise_error`, a division by zero, a
value too large for its column), that text is py4j's: every Java frame of the driver's stack and
of each cause's, a hundred lines and more, once per nested cause; for one refused by Spark's
analyzer, the message and then the whole logical plan. dbt prints it in its summary, after the
model's name. `install()` (called by `.venv/bin/dbt`, tideline_tools.dbt_cli, and by the
Python tools' dbt calls, tideline_tools.dbt) keeps of it:

* a line tideline raised itself (`tideline: ...`, raise_error in its statements): that line
  alone, which names the model, what failed and what to do;
* any error that is not Spark's (dbt's compilation errors, tideline's refusals) as it is;
* otherwise the first cause Spark names (the innermost `Caused by`, else the message itself),
  without the Java class before it, and where the whole error is.

dbt's own debug log (logs/dbt.log, or the console with `dbt --debug`) keeps the whole text:
dbt-spark writes it there before it raises. Refusals of tideline's checks are dbt compilation
errors and pass unchanged.
"""

from __future__ import annotations

import functools
import re
from contextlib import contextmanager
from typing import Iterator

# a Java stack frame, the "... 17 more" of a repeated one, and the header of the driver's stack
_FRAME = re.compile(r"^\s*(at\s|\.\.\.\s\d+\smore|Driver stacktrace:)")
# the Java exception class a message starts with (org.apache.spark.SparkException: ...)
_JAVA_CLASS = re.compile(r"^(?:[A-Za-z_$][\w$]*\.)+[A-Za-z_$][\w$]*(?:Exception|Error|Throwable)(?::\s*|$)")
_JAVA_ERRORS = ("An error occurred while calling", "Error running query")   # py4j's, the Thrift server's
_DBT_HEADERS = ("Runtime Error", "Database Error")
_ERROR_CLASS = re.compile(r"^\[[A-Z][A-Z0-9_]*(?:\.[A-Z0-9_]+)*\]")
_SQLSTATE = re.compile(r"\s*SQLSTATE: \w+\s*$")
WHERE_IN_FULL = "(the whole error: dbt's log, logs/dbt.log, or the console with dbt --debug)"


def readable(text: str) -> str:
    """The part of a Spark error that says what went wrong (module docstring)."""
    lines = [line for line in text.splitlines() if line.strip()]
    while lines and lines[0].strip() in _DBT_HEADERS:   # an error dbt-spark wrapped twice
        lines = [line.removeprefix("  ") for line in lines[1:]]
    if not lines or not _from_spark(lines[0]):
        return text   # dbt's own errors (a compilation error, a refusal of tideline's checks) as they are
    # tideline's own line: the message itself, or a cause of a Java error's chain (a plan that
    # follows an analysis error may quote tideline's raise_error texts: those never count)
    causes = [line.strip().removeprefix("Caused by: ") for line in lines[1:] if line.strip().startswith("Caused by: ")]
    own = next((_own(m) for m in [lines[0], *causes] if _own(m)), None)
    if own:
        return own
    if not lines[0].startswith(_JAVA_ERRORS):
        # a PySpark exception (an analysis error): the first line says it, the plan follows
        return f"{lines[0].strip()}\n{WHERE_IN_FULL}" if len(lines) > 1 else lines[0].strip()
    # py4j's text or the Thrift server's: the innermost cause Spark names
    messages = []
    for line in lines[1:]:
        if _FRAME.match(line):
            continue
        message = line.strip().removeprefix(": ").removeprefix("Caused by: ")
        messages.append(_JAVA_CLASS.sub("", message, count=1).strip() or message)
    last = messages[-1] if messages else _JAVA_CLASS.sub("", lines[0].strip().removeprefix("Error running query: "), count=1)
    return f"{last}\n{WHERE_IN_FULL}" if len(lines) > 1 or last != text.strip() else last


def _from_spark(first: str) -> bool:
    """Whether an error's first line is Spark's: py4j's call, the Thrift server's message, or a
    PySpark exception's error class ([UNRESOLVED_COLUMN.WITH_SUGGESTION] ...)."""
    first = first.strip()
    return first.startswith(_JAVA_ERRORS) or _ERROR_CLASS.match(first) is not None


def _own(message: str) -> str | None:
    """A message tideline raised in a statement (raise_error('tideline: ...')), without what
    Spark puts around it."""
    if "tideline:" not in message:
        return None
    return _SQLSTATE.sub("", message[message.index("tideline:"):]).strip()


def install() -> None:
    """dbt-spark's errors of a statement, shortened by readable() (once per process): those of
    its execution (dbt-spark's exception handler) and, on the local target, those of fetching
    its rows (a `select` whose job fails while dbt reads its result, outside that handler)."""
    from dbt.adapters.events.logging import AdapterLogger
    from dbt.adapters.spark import session
    from dbt.adapters.spark.connections import SparkConnectionManager
    from dbt_common.exceptions import DbtRuntimeError

    original = SparkConnectionManager.exception_handler
    if getattr(original, "tideline_readable", False):
        return
    logger = AdapterLogger("Spark")

    @contextmanager
    def exception_handler(self, sql: str) -> Iterator[None]:
        try:
            with original(self, sql):
                yield
        except DbtRuntimeError as exc:
            short = readable(exc.msg)
            if short == exc.msg:
                raise
            raise DbtRuntimeError(short) from exc

    def fetching(fetch):
        @functools.wraps(fetch)
        def fetch_readably(cursor):
            try:
                return fetch(cursor)
            except DbtRuntimeError:
                raise
            except Exception as exc:   # py4j's error of the job that computes the rows
                logger.debug(f"Error while fetching a result:\n{exc}")
                raise DbtRuntimeError(readable(str(exc))) from exc
        return fetch_readably

    exception_handler.tideline_readable = True
    SparkConnectionManager.exception_handler = exception_handler
    session.Cursor.fetchall = fetching(session.Cursor.fetchall)
    session.Cursor.fetchone = fetching(session.Cursor.fetchone)

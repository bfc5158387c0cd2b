"""Fast tier: a failing statement's error as dbt prints it (tideline_tools/spark_errors.py):
tideline's own line alone, else the cause Spark names and where the whole error is; never a
Java frame nor a query plan. The error texts are those py4j, PySpark and dbt-spark give (their
shapes as Spark 3.5 and dbt-spark 1.11 write them). The end-to-end checks are in the tests of
a failing first build (test_continual_task.py, test_channel.py), which assert what dbt
reported."""

from __future__ import annotations

import pytest

from tideline_tools.spark_errors import WHERE_IN_FULL, readable

pytestmark = pytest.mark.fast

FRAMES = "\tat org.apache.spark.sql.execution.X.y(X.scala:1)\n\tat java.base/java.lang.Thread.run(Thread.java:840)\n"
JOB_ABORTED = (
    "An error occurred while calling o86.sql.\n"
    ": org.apache.spark.SparkException: Job aborted due to stage failure: Task 1 in stage 0.0 failed 1 times, most "
    "recent failure: Lost task 1.0 (TID 1) (localhost executor driver): org.apache.spark.SparkException: "
    "[TASK_WRITE_FAILED] Task failed while writing rows to file:/tmp/w/t/-ext-10000.\n"
    f"{FRAMES}\t... 17 more\n"
    "Caused by: CAUSE\n"
    f"{FRAMES}\nDriver stacktrace:\n{FRAMES}"
    "Caused by: org.apache.spark.SparkException: [TASK_WRITE_FAILED] Task failed while writing rows to file:/tmp/w.\n"
    f"{FRAMES}Caused by: CAUSE\n{FRAMES}"
)


@pytest.mark.parametrize("cause, expected", [
    # tideline's own raise_error: its line alone, whatever Spark put before and after it
    ("java.lang.RuntimeException: tideline: continual task t: inserted column val is not a int: 50000000000",
     "tideline: continual task t: inserted column val is not a int: 50000000000"),
    ("org.apache.spark.SparkRuntimeException: [USER_RAISED_EXCEPTION] tideline: channel c: column value is not a int: 3 "
     "SQLSTATE: P0001", "tideline: channel c: column value is not a int: 3"),
    # Spark's own: the innermost cause without its Java class, and where the whole error is
    ("org.apache.spark.SparkArithmeticException: [DIVIDE_BY_ZERO] Division by zero. SQLSTATE: 22012",
     f"[DIVIDE_BY_ZERO] Division by zero. SQLSTATE: 22012\n{WHERE_IN_FULL}"),
    ("java.lang.RuntimeException: '(id#15L < cast(2 as bigint))' is not true!",
     f"'(id#15L < cast(2 as bigint))' is not true!\n{WHERE_IN_FULL}"),
])
def test_a_failed_job_reads_as_its_cause(cause, expected):
    assert readable(JOB_ABORTED.replace("CAUSE", cause)) == expected


def test_an_analysis_error_reads_as_its_first_line_never_a_plan_quoting_tideline():
    """PySpark's message and then the plan, wrapped twice by dbt-spark ("Runtime Error" and an
    indent): the message. A plan that quotes one of tideline's raise_error texts (a checked cast
    in the statement) is no tideline failure."""
    text = ("Runtime Error\n  [UNRESOLVED_COLUMN.WITH_SUGGESTION] A column or function parameter with name `kye` cannot be "
            "resolved. Did you mean one of the following? [`key`].; line 6 pos 11;\n"
            "  'InsertIntoStatement 'UnresolvedRelation [t__tl_data]\n"
            "  +- 'Project [CASE WHEN isnull(try_cast('kye as int)) THEN raise_error(tideline: continual task t: inserted "
            "column key is not a int: ) END AS key#1]\n     +- Range (0, 3, step=1)\n")
    assert readable(text) == ("[UNRESOLVED_COLUMN.WITH_SUGGESTION] A column or function parameter with name `kye` cannot be "
                              f"resolved. Did you mean one of the following? [`key`].; line 6 pos 11;\n{WHERE_IN_FULL}")


def test_the_thrift_servers_error_reads_the_same():
    """The cluster target: the Thrift server's message, its Java chain after it."""
    text = ("Error running query: org.apache.spark.SparkException: Job aborted due to stage failure: Task 0 failed\n"
            f"{FRAMES}Caused by: java.lang.RuntimeException: tideline: channel c: column value is not a int: 3\n{FRAMES}")
    assert readable(text) == "tideline: channel c: column value is not a int: 3"
    cause = "Caused by: org.apache.spark.SparkArithmeticException: [DIVIDE_BY_ZERO] Division by zero."
    assert readable(text.replace("Caused by: java.lang.RuntimeException: tideline: channel c: column value is not a int: 3", cause)) \
        == f"[DIVIDE_BY_ZERO] Division by zero.\n{WHERE_IN_FULL}"


@pytest.mark.parametrize("text", [
    "tideline: derivation d: config unqiue_key is not a config of materialized='derivation' (did you mean unique_key?)",
    "[TABLE_OR_VIEW_NOT_FOUND] The table or view `s`.`t` cannot be found.",
    # a refusal raised by a macro a run-operation runs: dbt wraps the compilation error, tideline's line after it
    "Compilation Error in macro cron_cases (macros/mutability/cron_cases.sql)\n  tideline: update_cron = \"61 * * * *\" is not a "
    "valid cron expression: minute value '61' is not in 0-59; accepted: five fields",
    "Runtime Error\n  Compilation Error in macro maintain_tables (macros/maintenance/maintain_tables.sql)\n"
    "  tideline: maintain_tables: retain_hours = 24 is invalid; accepted: 168 or more",
])
def test_a_one_line_error_is_left_as_it_is(text):
    assert readable(text) == text


def test_no_java_frame_survives_any_job_error():
    """Whatever the cause, nothing of a stack is left."""
    for cause in ("java.lang.IllegalStateException: boom", "org.apache.spark.SparkException: [INTERNAL_ERROR] x"):
        shown = readable(JOB_ABORTED.replace("CAUSE", cause))
        assert "\tat " not in shown and "Driver stacktrace" not in shown and "more" not in shown.split("\n")[0], shown
        assert "An error occurred while calling" not in shown

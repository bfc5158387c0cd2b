"""The test suite's Spark speed settings: one list for the local tier (python_tests/conftest.py
sets them in its environment, and the subprocesses its tests start inherit them) and for the
cluster tier (`python -m tideline_tools.cluster up --suite-speed`, which `make test-cluster`
runs, starts the Thrift server with them).

Each one trades planning, compile or file-statistics work that pays off at volume for nothing
on the suite's tables of a few hundred rows. None changes a result; the demo, the benchmarks and a cluster
started without `--suite-speed` keep Spark's defaults (docs/decisions.md has the measurements).
"""

from __future__ import annotations

import os

SPEED_SETTINGS = {
    # Spark's code generation: a Java compile per new plan, and per new expression (each run's
    # literals make new ones). Off: whole-stage code generation off, expressions interpreted
    # (profiles/profiles.yml reads it).
    "TIDELINE_CODEGEN": "false",
    # The JVM's JIT compilers took about half of a test JVM's CPU (C2 alone a third): every
    # statement reaches new Spark, Delta and Iceberg code, and on tiny tables little of it runs
    # often enough to repay a compile. Methods must run 10 times as often before they are
    # compiled (test_crash_safety: CPU -7 to -11%, the same rows). And the bytecode of the
    # classes that Spark, Delta and Iceberg load (from the pinned, checksummed jars) is not
    # verified again by every test JVM (a diagnostic option of the JVM, hence the unlock): four
    # tests of four capabilities in one process, alternating, wall 112.1 s and 111.3 s -> 107.6 s
    # and 106.4 s, CPU 145 s and 147 s -> 140 s and 139 s (2026-12-07); the same rows.
    "TIDELINE_JVM_OPTIONS": "-XX:CompileThresholdScaling=10 -XX:+UnlockDiagnosticVMOptions -XX:-BytecodeVerificationRemote",
    # Adaptive query execution re-plans each stage from its shuffle's statistics, and each
    # shuffle had 4 partitions: planning and task overhead. Off, with one shuffle partition
    # (test_crash_safety, test_mutability and test_channel in two processes: wall 655 s ->
    # 605 s, CPU 1211 s -> 1116 s).
    "TIDELINE_ADAPTIVE": "false",
    "TIDELINE_SHUFFLE_PARTITIONS": "1",
    # Delta's data skipping checks a read's filters against every file's statistics in a query
    # over the table's log (its state rebuilt first, in snapshot-partitions tasks): worth it at
    # volume, where it opens only new loads' files; on tables of a few files pure overhead.
    # Off, and the log in one task (test_crash_safety[delta] alone, quiet: wall 125 s -> 107 s,
    # CPU 173 s -> 140 s; the same rows).
    "TIDELINE_DELTA_SKIPPING": "false",
    "TIDELINE_DELTA_SNAPSHOT_PARTITIONS": "1",
    # Dynamic partition pruning plans, for each join on a partitioned table's partition column, a
    # subquery that filters the table's partitions by the other side's keys at run time: worth
    # it when a partition holds a day of a million events, a second plan and job for nothing
    # when it holds a few rows. Off (four tests of four capabilities in one process, alternating
    # with it on: wall 131.7 s and 135.5 s -> 123.2 s and 124.4 s; the same rows).
    "TIDELINE_DPP": "false",
    # The runtime Bloom filter: for a join whose one side is large (10 MB and more), a filter built
    # from the other side's keys and applied to the large side's scan. The suite's tables never
    # reach that size, yet the optimizer's rule (InjectRuntimeFilter) looks at every plan: over
    # four tests of four capabilities in one process it took 1.5 s of the 51 s that all analyzer
    # and optimizer rules took, and changed no plan (0 effective runs of 1,145; Spark's
    # RuleExecutor.dumpTimeSpent, 2026-12-07). Off; the same plans, the same rows.
    "TIDELINE_RUNTIME_FILTER": "false",
}


def use_speed_settings() -> None:
    """Give this process (and so the processes it starts) the settings it does not set itself."""
    for name, value in SPEED_SETTINGS.items():
        os.environ.setdefault(name, value)


def speed_env() -> dict[str, str]:
    """The speed settings this process has, for a subprocess's environment."""
    return {name: os.environ[name] for name in SPEED_SETTINGS if os.environ.get(name)}

"""Fixtures shared by the whole suite.

One SQL runner per test run: on `local` (default) the in-process SparkSession that dbt's
`method: session` also uses, with a data folder of its own under pytest's temp folder; on
`cluster` (TIDELINE_TARGET=cluster, see `make test-cluster`) a PyHive connection to the
Thrift server. Each test module gets a `Project`: its own schemas, dropped when it ends.
Tests that must also pass on the cluster carry the marker `both_targets`.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from dbt_common.tests import enable_test_caching

from harness import Project, extended_tier
from tideline_tools.profile import PROJECT_DIR
from tideline_tools.suite_speed import use_speed_settings

TARGET = os.environ.get("TIDELINE_TARGET", "local")
# Spark's settings for the suite's speed (tideline_tools/suite_speed.py): code generation and
# adaptive execution off, one shuffle partition, the JIT's thresholds raised. Only speed changes;
# every subprocess the tests start (dbt, the demo, the kill tests) inherits them.
use_speed_settings()
# dbt writes manifest.json and run_results.json after every command, and a debug log of every
# event to logs/dbt.log: about 0.3 s of Python per command, and no test reads them (the tests
# read dbt's results and events in-process; compiled SQL and partial parsing's file are still
# written). Measured on test_crash_safety[parquet]: 133 s -> 124 s. A failing test still shows
# dbt's messages.
os.environ.setdefault("DBT_WRITE_JSON", "false")
os.environ.setdefault("DBT_LOG_LEVEL_FILE", "none")
# dbt's own cache for test suites (dbt_common.tests, which dbt's functional-test fixtures turn
# on): a Jinja text dbt parsed once in this process (a macro file's blocks, a macro's template,
# the macro calls in it) is not parsed again. A full parse of a project (a new schema, a new set
# of parse-time vars) spent about 70% of its time parsing the same 1,200 macros again
# (dbt's perf_info: load_macros 3.0 of 4.1 s); with the cache a full parse after the first takes
# 1.3 to 2.7 s instead of about 6 s (four parses in one process, 2026-12-07). What dbt builds
# from the parsed text (the manifest, the compiled SQL, every run) is unchanged.
enable_test_caching()


# The format a multi-format scenario runs at full length on: the project's default. On the others
# (parquet, Iceberg) the same scenario runs a shorter schedule (fixture `deep`): what differs
# between formats is each write and commit, which the shorter schedules and every crash point
# still reach; the long schedules are about the rules, which do not change with the format.
DEEP_FORMAT = "delta"
FORMAT_IN_ID = re.compile(r"[\[-](parquet|delta|iceberg)[\]-]")


# Seconds each unit of work (a module, or a module's table format) took in the suite
# (`pytest --durations=0` over `make test-local`'s tests, 2026-12-02, a busy machine; the units
# that only `make test-extended` runs keep earlier profiles' figures: only their sizes relative
# to each other matter). The two processes take the longest units first, so that the suite does
# not end with one process running a long unit alone while the other waits; xdist's own order
# (by number of tests, `--no-loadscope-reorder` turns it off) put units of few long tests,
# such as a format's kill test or the Delta pipeline, last. A unit not listed counts as 120 s.
UNIT_SECONDS = {
    "test_derivation.py[parquet]": 950, "test_continual_task.py[parquet]": 630, "test_channel.py": 580,
    "test_environment.py": 350, "test_merged_daily_aggregate.py[delta]": 285,
    "test_kill.py[delta]": 285, "test_continual_task.py[iceberg]": 320,
    "test_attribute_view.py[parquet]": 255, "test_table_formats.py[parquet]": 215,
    "test_merged_daily_aggregate.py[parquet]": 215, "test_rule_channel_runs.py[parquet]": 250,
    "test_kill.py[iceberg]": 190, "test_time_based_pipeline.py[delta]": 185,
    "test_mutability.py[parquet]": 185, "test_bad_inputs.py[parquet]": 185,
    "test_crash_safety.py[parquet]": 180, "test_crash_safety.py[iceberg]": 180,
    "test_crash_safety.py[delta]": 175, "test_merged_daily_aggregate.py[iceberg]": 175,
    "test_channel.py[delta]": 170, "test_state_migration.py[delta]": 150,
    "test_source_events.py[parquet]": 145, "test_filtered_events.py[parquet]": 145,
    "test_state_migration.py[iceberg]": 140, "test_no_trace_without_work.py[parquet]": 135,
    "test_time_based_pipeline.py[iceberg]": 130, "test_state_migration.py[parquet]": 130,
    "test_attribute_view.py": 125, "test_rule_days_to_process.py[parquet]": 125,
    "test_catch_up_and_backfill.py[parquet]": 120, "test_continual_task.py[delta]": 220,
    "test_mutability.py[delta]": 110, "test_merge_refusals.py[parquet]": 105,
    "test_state_compaction.py[parquet]": 100, "test_derivation.py[delta]": 260,
    "test_rule_run_window.py[parquet]": 85, "test_end_to_end.py[parquet]": 70,
    "test_session_settings.py[parquet]": 55, "test_rule_continual_step.py[parquet]": 55,
    "test_merged_source_aggregate.py[parquet]": 45, "test_derivation.py[iceberg]": 45,
    "test_rule_reductions.py[parquet]": 45, "test_rule_attribute_periods.py[parquet]": 45,
    "test_time_based_pipeline.py[parquet]": 40, "test_rule_append_only.py[parquet]": 35,
    "test_incremental_equals_rebuild.py[parquet]": 30, "test_no_data_lost.py[parquet]": 30,
    "test_mutability.py[iceberg]": 25, "test_as_a_package.py[parquet]": 25, "test_cron.py": 25,
    "test_channel.py[parquet]": 95, "test_generator.py[parquet]": 20, "test_channel.py[iceberg]": 15,
    "test_run_lock.py[parquet]": 15, "test_install_from_git.py": 10,
    "test_environment.py[parquet]": 10, "test_rule_type_assignment.py": 5,
    "test_rule_type_names.py": 2, "test_config_docs.py": 2, "test_rule_definitions.py": 1,
    "test_macro_docs.py": 1, "test_generator.py": 1, "test_tiers.py": 15, "test_rows_written_after.py[parquet]": 15,
    "test_rows_written_after.py[delta]": 12, "test_rows_written_after.py[iceberg]": 6,
}


def unit_of(nodeid: str) -> str:
    """The unit of work a test belongs to: its module, and its table format if it has one."""
    module = nodeid.split("::", 1)[0]
    found = FORMAT_IN_ID.search(nodeid)
    return f"{module}[{found[1]}]" if found else module


def pytest_xdist_make_scheduler(config, log):
    """Two pytest processes (make test-local): a module's tests stay in one process, as with
    `--dist loadscope` (its module-scoped schemas are built once), except that each table format
    of a module marked `formats` is a unit of its own (its schemas are its own anyway), so the
    long multi-format modules spread over both processes."""
    from xdist.scheduler import LoadScopeScheduling

    class ModuleAndFormatScheduling(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            return unit_of(nodeid)

    return ModuleAndFormatScheduling(config, log)


def in_extended_tier(item) -> bool:
    """A variant that `make test` leaves to `make test-extended`: a test marked `extended`, or a
    multi-format test's variant on a format its `make_test_formats` marker leaves out
    (docs/tests.md, "Tiers")."""
    if "extended" in item.keywords:
        return True
    kept = item.get_closest_marker("make_test_formats")
    file_format = getattr(item, "callspec", None) and item.callspec.params.get("file_format")
    return kept is not None and file_format is not None and file_format not in kept.args


def pytest_collection_modifyitems(config, items):
    extended = extended_tier()
    if extended:   # the variants make test leaves out, every crash test at each statement (crash_stride)
        # and every property test with all its cases (harness.drawn_examples)
        # and the scenarios that make test runs shorter (marker longer_in_extended) at full length
        left = [item for item in items if not (in_extended_tier(item) or "crash_report" in item.fixturenames
                                               or "longer_in_extended" in item.keywords
                                               or getattr(item.obj, "is_hypothesis_test", False))]
    else:
        left = [item for item in items if in_extended_tier(item)]
    if left:
        config.hook.pytest_deselected(items=left)
        items[:] = [item for item in items if item not in left]
    # the longest units first (UNIT_SECONDS); a unit's tests keep their order
    first: dict[str, int] = {}
    for index, item in enumerate(items):
        first.setdefault(unit_of(item.nodeid), index)

    def longest_first(item) -> tuple[int, int]:
        unit = unit_of(item.nodeid)
        return -UNIT_SECONDS.get(unit.rsplit("/", 1)[-1], 120), first[unit]
    items.sort(key=longest_first)
    if TARGET == "cluster":
        skip = pytest.mark.skip(reason="runs on the local target only")
        for item in items:
            if "both_targets" not in item.keywords:
                item.add_marker(skip)


@pytest.fixture(scope="session")
def runner(tmp_path_factory):
    if TARGET == "local":
        from tideline_tools.localenv import use_data_dir

        use_data_dir(tmp_path_factory.mktemp("tideline_data"))
    from tideline_tools.sql import connect

    return connect(TARGET)


def is_deep(item) -> bool:
    """Whether a test runs its scenario at full length: it is not marked `formats`, or runs in
    its deep format (the first its `make_test_formats` marker names, else DEEP_FORMAT), or its
    formats leave that format out."""
    marker = item.get_closest_marker("formats")
    kept = item.get_closest_marker("make_test_formats")
    deep_format = kept.args[0] if kept is not None else DEEP_FORMAT
    file_format = getattr(item, "callspec", None) and item.callspec.params.get("file_format")
    return marker is None or deep_format not in marker.args or file_format == deep_format


def pytest_generate_tests(metafunc):
    """A module or test marked `formats("parquet", "delta")` runs once per table format, each
    with schemas of its own; the others run in TIDELINE_FILE_FORMAT's (default parquet). On the
    cluster target a test marked with formats runs on DEEP_FORMAT (Delta) only: the Thrift
    server has Delta and Iceberg, the unmarked tests run there on parquet, and one format of
    each scenario keeps `make test-cluster` short."""
    if "file_format" in metafunc.fixturenames:
        marker = metafunc.definition.get_closest_marker("formats")
        formats = marker.args if marker else (os.environ.get("TIDELINE_FILE_FORMAT", "parquet"),)
        if TARGET == "cluster" and marker and DEEP_FORMAT in formats:
            formats = (DEEP_FORMAT,)
        metafunc.parametrize("file_format", formats, scope="module")


@pytest.fixture
def deep(request) -> bool:
    """True where the test runs its scenario at full length (is_deep), False on the other
    formats of a multi-format test, which run a shorter schedule of the same scenario."""
    return is_deep(request.node)


@pytest.fixture(scope="module")
def project(runner, request, file_format):
    name = request.module.__name__.rsplit(".", 1)[-1]
    default = os.environ.get("TIDELINE_FILE_FORMAT", "parquet")
    proj = Project(runner, name if file_format == default else f"{name}_{file_format}", file_format=file_format)
    proj.reset()
    yield proj
    if TARGET != "local":
        # the cluster's warehouse outlives the run; a local run's is this pytest process's own
        # temporary folder (fixture runner), and dropping a module's schemas there took 5 to 10 s
        # of Spark and metastore work each for nothing
        proj.reset()


# ---- where a test's time goes (TIDELINE_SUITE_PROFILE=<file>: one JSON line per test) --------
if os.environ.get("TIDELINE_SUITE_PROFILE"):
    import json
    import time

    import harness
    from tideline_tools import sql as _sql

    _spent: dict[str, float] = {}

    def _timed(owner, name, key):
        inner = getattr(owner, name)

        def timed(*args, **kwargs):
            start = time.perf_counter()
            try:
                return inner(*args, **kwargs)
            finally:
                _spent[key] = _spent.get(key, 0.0) + time.perf_counter() - start
                _spent[key + "_calls"] = _spent.get(key + "_calls", 0) + 1
        setattr(owner, name, timed)

    _timed(harness, "run_dbt", "dbt")
    for _runner in (_sql.LocalSpark, _sql.ThriftSpark):
        for _name in ("execute", "rows", "columns", "columns_and_rows"):
            _timed(_runner, _name, "sql")

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_protocol(item, nextitem):
        _spent.clear()
        start = time.perf_counter()
        yield
        record = {"test": item.nodeid, "wall": round(time.perf_counter() - start, 1),
                  **{k: round(v, 1) for k, v in _spent.items()}}
        with open(os.environ["TIDELINE_SUITE_PROFILE"], "a") as out:
            out.write(json.dumps(record) + "\n")


# Each crash-point scenario (harness.CrashPoints) adds a line here; the suite prints them at its end.
# One file per target: `make test` runs the local and the cluster tests side by side.
CRASH_REPORT = Path(PROJECT_DIR) / "target" / "tests" / f"crash_points_{TARGET}.txt"


def pytest_configure(config):
    if not hasattr(config, "workerinput"):   # the controller (or the only process), not an xdist worker
        CRASH_REPORT.unlink(missing_ok=True)


def pytest_terminal_summary(terminalreporter):
    if CRASH_REPORT.exists():
        terminalreporter.write_sep("-", "crash points: a crash after each, then a rerun, gave the uninterrupted tables")
        for line in sorted(CRASH_REPORT.read_text().splitlines()):
            terminalreporter.write_line(line)


@pytest.fixture(scope="session")
def crash_report():
    """report(line): one scenario's crash points, for the summary at the suite's end."""
    def report(line: str) -> None:
        CRASH_REPORT.parent.mkdir(parents=True, exist_ok=True)
        with open(CRASH_REPORT, "a") as out:
            out.write(line + "\n")
    return report

"""Contract 2: a run that dies after any of its statements, then reruns, leaves every table as
an uninterrupted run would.

Every statement that changes storage is a crash point (harness.CrashPoints): each run of the
schedule is repeated, each attempt dying right after the first such statement no earlier attempt
died after, until an attempt finishes; then every table is compared with the independent
reference (python_tests/reference.py), which knows nothing of crashes. The first run builds
everything, the next ones append, reprocess late rows and skip dates below
min_rows_to_process, the last has nothing new: so the points are those of a first build, of the
hourly run and of the reruns after each crash. A crash after a read leaves the tables as a crash
after the change before it, so those are not run again."""

from __future__ import annotations

import datetime as dt

import pytest

from harness import CrashPoints
from reference import Pipeline, Settings
from pipeline_scenario import run_and_compare
from tideline_tools.generator import EventWorld

pytestmark = pytest.mark.formats("parquet", "delta", "iceberg")

WORLD = EventWorld(seed=77, start=dt.datetime(2025, 4, 1), days=4, events_per_day=100, users=10,
                   late_share=0.1, max_late_days=2, reload_share=0.05, duplicate_share=0.03)
# backfill_limit_days is large so that one run takes everything up to now (a rerun after a crash
# past the filtered events' commit has nothing more to read, as the uninterrupted run).
SETTINGS = Settings(start_date=dt.date(2025, 4, 1), backfill_limit_days=30, reprocess_days=2, min_rows_to_process=2)
RUN_TIMES = [dt.datetime(2025, 4, 2, 6), dt.datetime(2025, 4, 3, 6), dt.datetime(2025, 4, 4, 6),
             dt.datetime(2025, 4, 5, 18), dt.datetime(2025, 4, 7, 6), dt.datetime(2025, 4, 9, 6)]
# daily_user_events_from_source reads the source itself (tideline.source_events()): its rows are
# those of the same columns of daily_user_activity
FROM_SOURCE = "daily_user_events_from_source"
FROM_SOURCE_COLUMNS = ["event_date", "attribute_key", "event_count", "page_views", "last_event_tstamp"]
MODELS = {"tl_filtered_events", "daily_user_activity", "user_attributes", FROM_SOURCE}


def windows(project) -> list[tuple]:
    return project.rows(f"""select lower_limit, upper_limit from {project.fresh('tl_incremental_manifest')}
        where model = 'tl_filtered_events' order by upper_limit""")


@pytest.mark.make_test_formats("delta")
def test_a_crash_after_any_statement_then_a_rerun_gives_the_uninterrupted_result(project, crash_report):
    project.reset_models()
    points = CrashPoints(project)
    reference = Pipeline(SETTINGS)
    crashes = []   # per run: (attempts that died, storage-changing statements it sent)
    skipping = False

    def run(select, run_vars):
        before = points.seen()
        died = points.until_done(
            lambda on_event: project.dbt("run", "--select", *select, FROM_SOURCE, vars=run_vars, on_event=on_event, expect_success=False),
            f"run at {run_vars['tideline__now']}")
        crashes.append((died, points.seen() - before))

    for now in RUN_TIMES:
        project.load(WORLD, until=now, cadence_seconds=3600)
        run_and_compare(project, reference, now, SETTINGS, run=run)
        project.assert_table_equals(FROM_SOURCE, [{c: r[c] for c in FROM_SOURCE_COLUMNS} for r in reference.daily_user_activity()])
        assert windows(project) == [(lower, upper) for lower, upper, rows in reference.windows if rows], now
        skipping = skipping or any(reference.skipped.values())
    assert skipping, "the scenario should leave late rows skipped below min_rows_to_process"
    assert points.nodes() >= MODELS | {"dbt"}, points.nodes()
    # the first two runs send many statements, and (at any stride) attempts died in the first
    assert crashes[0][1] >= 10 and crashes[1][1] >= 4 and crashes[0][0] >= 1, crashes
    crash_report(points.report(f"time-based pipeline ({project.file_format})"))

"""A daily aggregate over tideline.source_events() (models/examples/daily_user_events_from_source):
the same filtered events as tl_filtered_events, read from the source itself with the
aggregate's own run window, one write a run.

Its outcomes must be those of the same select over tideline.filtered_events(): after every run
of a scenario with late, duplicate and reloaded events, skipped dates and a backfill, its rows and
its per-date state equal those of daily_user_activity (same columns), run by run. A crash after
any of its statements and a rerun leaves what an uninterrupted run leaves. Its property test
(incremental equals a --full-refresh) is in test_incremental_equals_rebuild.py."""

from __future__ import annotations

import datetime as dt
import re

import pytest

from harness import (FROM_SOURCE, OVER_FILTERED, SOURCE_COLUMNS, Project, assert_rows_equal,
                     assert_same_as_over_filtered_events, data_rows, date_state, extended_tier)
from reference import Pipeline, Settings, source_rows
from tideline_tools.generator import EventWorld

WORLD = EventWorld(seed=515, start=dt.datetime(2025, 5, 1), days=4, events_per_day=90, users=9,
                   late_share=0.15, max_late_days=3, duplicate_share=0.05, reload_share=0.06,
                   reload_after_days=1, pre_start_share=0.05, pre_start_days=1, bot_share=0.03, bot_users=1)
# backfill_limit_days 1 makes the catch-up after a gap take several runs, each its own window
VARS = {"tideline__start_date": "2025-05-01", "tideline__backfill_limit_days": 1, "tideline__reprocess_days": 1,
        "tideline__min_rows_to_process": 3, "tideline__dedupe_lookback_days": 1,
        "tideline__compact_every": 4}   # compactions of its state, between runs
SELECT = ["tl_filtered_events", OVER_FILTERED, FROM_SOURCE]
# the same rules for the Python reference (compact_every changes no row)
SETTINGS = Settings(start_date=dt.date(2025, 5, 1), backfill_limit_days=1, reprocess_days=1, min_rows_to_process=3,
                    dedupe_lookback_days=1)
RUN_TIMES = [dt.datetime(2025, 5, 1, 9), dt.datetime(2025, 5, 2, 1), dt.datetime(2025, 5, 2, 13),
             dt.datetime(2025, 5, 4, 2), dt.datetime(2025, 5, 6, 8), dt.datetime(2025, 5, 7, 8)]


def assert_as_the_reference(project, reference: Pipeline, label: str) -> None:
    """FROM_SOURCE's rows and per-date state (dates with processed or skipped rows) are those of
    the Python reference's aggregate."""
    expected = [{c: r[c] for c in SOURCE_COLUMNS} for r in reference.daily_user_activity()]
    assert_rows_equal(project.table(FROM_SOURCE, SOURCE_COLUMNS), expected, label=f"{label}: rows against the reference")
    got = {r["event_date"]: (r["processed_rows"], r["skipped_rows"]) for r in date_state(project, FROM_SOURCE)
           if r["processed_rows"] or r["skipped_rows"]}
    want = {r["event_date"]: (r["processed_rows"], r["skipped_rows"]) for r in reference.aggregation_manifest()}
    assert got == want, f"{label}: date state against the reference"


@pytest.mark.longer_in_extended
def test_every_run_and_a_backfill_give_what_the_aggregate_over_filtered_events_gives(project):
    """Each run, the backfill and the catch-up equal the Python reference (independent of
    tideline) and, as a second check, the same aggregate over the filtered events."""
    project.reset()
    reference = Pipeline(SETTINGS)
    skipped = 0
    for now in RUN_TIMES:
        project.load(WORLD, until=now, cadence_seconds=3600)
        # after a gap, as many runs as the window needs (backfill_limit_days 1): in `make test`
        # until a run's window reaches `now`, in the extended tier 4 runs each time (the runs
        # after that read nothing new and must change nothing)
        for _ in range(4):
            project.dbt("run", "--select", *SELECT, vars={**VARS, "tideline__now": str(now)})
            reference.run(source_rows(project), now)
            assert_as_the_reference(project, reference, f"run at {now}")
            assert_same_as_over_filtered_events(project, f"run at {now}")
            if reference.windows[-1][1] == now and not extended_tier():
                break
        skipped += sum(r["skipped_rows"] for r in date_state(project, FROM_SOURCE))
    assert skipped > 0, "the scenario should skip late rows"
    windows = project.rows(f"""select count(*), count(distinct upper_limit) from {project.fresh('tl_incremental_manifest')}
        where model = '{FROM_SOURCE}'""")[0]
    assert windows[0] > len(RUN_TIMES) and windows[0] == windows[1], "one window a run, several for a gap"
    files = project.rows(f"""select count(distinct _metadata.file_path) from {project.fresh('tl_state')}
        where model = '{FROM_SOURCE}'""")[0][0]
    assert windows[0] > 4 and files <= 4, f"{windows[0]} commits in {files} files: its state is compacted (compact_every 4)"

    # A backfill of two past dates processes them whole (their skipped rows included) and
    # moves no watermark.
    last = str(RUN_TIMES[-1])
    backfilled = (dt.date(2025, 5, 2), dt.date(2025, 5, 3))
    assert [r for r in date_state(project, FROM_SOURCE) if r["event_date"] in backfilled and r["skipped_rows"]], \
        "the scenario should leave skipped rows on the backfilled dates"
    manifest = f"select model, max(upper_limit) from {project.fresh('tl_incremental_manifest')} group by model"
    before = sorted(project.rows(manifest))
    backfill = {**VARS, "tideline__now": last, "tideline__backfill_dates": ["2025-05-02", "2025-05-03"]}
    project.dbt("run", "--select", OVER_FILTERED, FROM_SOURCE, vars=backfill)
    reference.backfill(*backfilled)
    assert_as_the_reference(project, reference, "after a backfill")
    assert_same_as_over_filtered_events(project, "after a backfill")
    assert sorted(project.rows(manifest)) == before
    assert not [r for r in date_state(project, FROM_SOURCE) if r["event_date"] in backfilled and r["skipped_rows"]]
    # and the catch-up with the repair thresholds: nothing stays skipped
    catch_up = {**VARS, "tideline__now": last, "tideline__min_rows_to_process": 1, "tideline__reprocess_days": 3650}
    project.dbt("run", "--select", *SELECT, vars=catch_up)
    reference.run(source_rows(project), RUN_TIMES[-1], Settings(**{**SETTINGS.__dict__, "min_rows_to_process": 1, "reprocess_days": 3650}))
    assert_as_the_reference(project, reference, "after the catch-up")
    assert_same_as_over_filtered_events(project, "after the catch-up")
    assert not [r for r in date_state(project, FROM_SOURCE) if r["skipped_rows"]]


def test_a_crash_after_any_of_its_statements_then_a_rerun_gives_the_uninterrupted_result(project, runner):
    project.reset()
    crashing = Project(runner, "source_events_crashing", source_of=project)
    crashing.reset_models()
    faults = [f"{FROM_SOURCE}:decided", f"{FROM_SOURCE}:written", f"{FROM_SOURCE}:decided", f"{FROM_SOURCE}:written"]
    try:
        for now, fault in zip(RUN_TIMES[1:], faults):
            project.load(WORLD, until=now, cadence_seconds=3600)
            vars_ = {**VARS, "tideline__now": str(now), "tideline__backfill_limit_days": 30}
            project.dbt("run", "--select", FROM_SOURCE, vars=vars_)
            failed = crashing.dbt("run", "--select", FROM_SOURCE, vars={**vars_, "tideline__fail_at": fault}, expect_success=False)
            assert any("injected failure" in m for m in failed.messages), fault
            crashing.dbt("run", "--select", FROM_SOURCE, vars=vars_)
            assert_rows_equal(data_rows(crashing.table(FROM_SOURCE)), data_rows(project.table(FROM_SOURCE)),
                              label=f"rows after a crash at {fault} and a rerun")
            assert_rows_equal(date_state(crashing, FROM_SOURCE), date_state(project, FROM_SOURCE),
                              label=f"date state after a crash at {fault} and a rerun")
    finally:
        crashing.reset_models()


@pytest.mark.both_targets
def test_a_daily_run_writes_once_and_never_reads_the_filtered_events(project):
    project.reset()
    project.load(WORLD, until=RUN_TIMES[2], cadence_seconds=3600)
    project.dbt("run", "--select", FROM_SOURCE, vars={**VARS, "tideline__now": str(RUN_TIMES[1])})
    statements: list[str] = []

    def watch(event) -> None:
        if event.info.name == "SQLQuery":
            # without dbt's comment header
            statements.append(re.sub(r"^/\*.*?\*/", "", " ".join(event.data.sql.split()).lower()).strip())

    project.dbt("run", "--select", FROM_SOURCE, vars={**VARS, "tideline__now": str(RUN_TIMES[2])}, on_event=watch)
    writes = [s for s in statements if s.startswith("insert")]
    assert len(writes) == 2, writes   # the insert overwrite of its dates, then the commit into tl_state
    assert "insert overwrite table" in writes[0] and "tl_state" in writes[1]
    assert not [s for s in statements if f"{project.schema}.tl_filtered_events" in s]
    assert project.rows(f"select count(*) from {project.fresh(FROM_SOURCE)}")[0][0] > 0


def test_a_model_that_never_committed_cannot_be_backfilled_and_its_next_run_builds_it_whole(project):
    project.reset()
    project.load(WORLD, until=RUN_TIMES[1], cadence_seconds=3600)
    # the first load is at 01:00: a run at 00:30 finds nothing, creates the empty table and commits nothing
    project.dbt("run", "--select", FROM_SOURCE, vars={**VARS, "tideline__now": "2025-05-01 00:30:00"})
    assert project.rows(f"select count(*) from {project.fresh(FROM_SOURCE)}") == [(0,)]
    project.refused(f"tideline: cannot backfill {FROM_SOURCE}: no run of it has committed yet; run it without tideline__backfill_dates first",
                    lambda: project.dbt("run", "--select", FROM_SOURCE, expect_success=False, vars={
                        **VARS, "tideline__now": str(RUN_TIMES[1]), "tideline__backfill_dates": ["2025-05-01", "2025-05-01"]}))
    project.dbt("run", "--select", *SELECT, vars={**VARS, "tideline__now": str(RUN_TIMES[1])})
    assert project.rows(f"select count(*) from {project.fresh(FROM_SOURCE)}")[0][0] > 0
    assert_same_as_over_filtered_events(project, "the first committed run")

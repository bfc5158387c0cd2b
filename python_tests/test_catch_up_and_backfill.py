"""Each daily aggregate keeps its own progress (a failed or newly added model catches up by
itself, the others untouched), and a custom backfill recomputes past dates [a, b] without
moving any watermark."""

from __future__ import annotations

import datetime as dt
import json

import pytest

from harness import Project, assert_rows_equal, data_rows
from reference import Pipeline, Settings, source_rows
from tideline_tools.generator import EventWorld

WORLD = EventWorld(seed=5150, start=dt.datetime(2025, 9, 1), days=4, events_per_day=80, users=10,
                   late_share=0.2, max_late_days=3, reload_share=0.03)
# Catching up reads the missed batches in one window, judged at the new "now": with thresholds
# that skip late rows it may reflect more than the uninterrupted model did (both then agree
# with their own manifests). The catch-up tests use thresholds that skip nothing, so the
# caught-up tables must equal the uninterrupted ones exactly; the backfill test skips.
VARS = {"tideline__start_date": "2025-09-01", "tideline__reprocess_days": 3650, "tideline__min_rows_to_process": 1}
SKIPPING = {**VARS, "tideline__reprocess_days": 2, "tideline__min_rows_to_process": 4}
MODELS = ["tl_filtered_events", "daily_user_activity",
          "daily_page_activity", "user_attributes"]
TIMES = [dt.datetime(2025, 9, 2, 6), dt.datetime(2025, 9, 4, 6), dt.datetime(2025, 9, 9, 6)]
# the same rules for the Python reference (tideline's defaults for the others)
REFERENCE = Settings(start_date=dt.date(2025, 9, 1), reprocess_days=3650, min_rows_to_process=1)
REFERENCE_SKIPPING = Settings(start_date=dt.date(2025, 9, 1), reprocess_days=2, min_rows_to_process=4)


def windows(project, model: str) -> list[tuple]:
    return project.rows(f"""select lower_limit, upper_limit from {project.fresh('tl_incremental_manifest')}
        where model = '{model}' order by upper_limit""")


@pytest.fixture(scope="module")
def reference(project):
    """The uninterrupted pipeline: every model, every run. Tables after each run; daily_user_activity
    equal to the Python reference's after each."""
    snapshots = []
    pipeline = Pipeline(REFERENCE)
    for now in TIMES:
        project.load(WORLD, until=now, cadence_seconds=3600)
        project.dbt("run", "--select", *MODELS, vars={**VARS, "tideline__now": str(now)})
        pipeline.run(source_rows(project), now)
        project.assert_table_equals("daily_user_activity", pipeline.daily_user_activity())
        snapshots.append({t: data_rows(project.table(t)) for t in ("daily_user_activity", "daily_page_activity")})
    return snapshots


def test_a_failed_model_catches_up_and_the_others_are_untouched(project, runner, reference):
    other = Project(runner, "catch_up_failed", source_of=project)
    other.reset_models()
    other.dbt("run", "--select", *MODELS, vars={**VARS, "tideline__now": str(TIMES[0])})
    failed = other.dbt("run", "--select", *MODELS, expect_success=False, vars={
        **VARS, "tideline__now": str(TIMES[1]), "tideline__fail_at": "daily_user_activity:written"})
    status = failed.node_status()
    assert status["daily_user_activity"] == "error" and status["daily_page_activity"] == "success"
    other.dbt("run", "--select", *MODELS, vars={**VARS, "tideline__now": str(TIMES[2])})
    for table in ("daily_user_activity", "daily_page_activity"):
        assert_rows_equal(data_rows(other.table(table)), reference[-1][table], label=table)
    # The failed model read the two batches it missed in one window; the other only the new one.
    filtered = [u for _, u in windows(other, "tl_filtered_events")]
    assert windows(other, "daily_user_activity") == [(None, filtered[0]), (filtered[0], filtered[2])]
    assert windows(other, "daily_page_activity") == [(None, filtered[0]), (filtered[0], filtered[1]),
                                                     (filtered[1], filtered[2])]
    other.reset_models()


def test_a_model_added_later_builds_its_history_by_itself(project, runner, reference):
    other = Project(runner, "catch_up_added", source_of=project)
    other.reset_models()
    for now in TIMES[:2]:
        other.dbt("run", "--select", *MODELS, "--exclude", "daily_page_activity", vars={**VARS, "tideline__now": str(now)})
    before = windows(other, "daily_user_activity")
    other.dbt("run", "--select", *MODELS, vars={**VARS, "tideline__now": str(TIMES[2])})
    assert_rows_equal(data_rows(other.table("daily_page_activity")), reference[-1]["daily_page_activity"], label="added model")
    assert_rows_equal(data_rows(other.table("daily_user_activity")), reference[-1]["daily_user_activity"], label="other model")
    assert windows(other, "daily_user_activity")[:-1] == before   # the others' progress is theirs
    assert len(windows(other, "daily_page_activity")) == 1
    other.reset_models()


def after_rows(project) -> list[tuple]:
    return project.rows(f"""select event_date, processed_rows, skipped_rows from {project.fresh('tl_daily_aggregation_manifest')}
        where model = 'daily_user_activity'""")


def test_custom_backfill_between_two_past_dates_moves_no_watermark(project, runner, reference):
    project = Project(runner, "backfill_skipping", source_of=project)  # same events, thresholds that skip
    project.reset_models()
    pipeline = Pipeline(REFERENCE_SKIPPING)
    for now in TIMES:
        project.dbt("run", "--select", *MODELS, vars={**SKIPPING, "tideline__now": str(now)})
        pipeline.run(source_rows(project), now)
        project.assert_table_equals("daily_user_activity", pipeline.daily_user_activity())
    state_sql = """select event_date, processed_rows, skipped_rows from {}
        where model = 'daily_user_activity' order by event_date"""
    before = project.rows(state_sql.format(project.fresh("tl_daily_aggregation_manifest")))
    skipped = [r[0] for r in before if r[2] > 0]
    assert skipped, "the scenario should leave late rows skipped"
    manifest_before = project.table("tl_incremental_manifest")
    first, last = min(skipped), max(skipped)
    project.dbt("run", "--select", "daily_user_activity", vars={
        **SKIPPING, "tideline__now": str(TIMES[-1]), "tideline__backfill_dates": [str(first), str(last)]})
    after = {r[0]: r[1:] for r in project.rows(state_sql.format(project.fresh("tl_daily_aggregation_manifest")))}
    for d, processed, skip in before:
        if first <= d <= last:
            assert after[d] == (processed + skip, 0), d
        else:
            assert after[d] == (processed, skip), d
    # The recomputed dates reflect every filtered event; no watermark moved.
    counts = dict(project.rows(f"""select event_date, sum(event_count) from {project.fresh('daily_user_activity')}
        where event_date between date'{first}' and date'{last}' group by 1"""))
    filtered = dict(project.rows(f"""select event_date, count(*) from {project.fresh('tl_filtered_events')}
        where event_date between date'{first}' and date'{last}' group by 1"""))
    assert counts == filtered
    assert_rows_equal(project.table("tl_incremental_manifest"), manifest_before, label="manifest")
    # and the whole aggregate is the reference's after the same backfill
    pipeline.backfill(first, last)
    project.assert_table_equals("daily_user_activity", pipeline.daily_user_activity())
    assert {d: (p, s) for d, p, s in after_rows(project) if p or s} == \
        {r["event_date"]: (r["processed_rows"], r["skipped_rows"]) for r in pipeline.aggregation_manifest()}
    project.reset_models()


@pytest.mark.parametrize("dates", [["2025-09-05", "2025-09-03"], ["2025-09-03", "2025-09-09"], ["2025-09-03"]])
def test_bad_backfill_dates_are_refused(project, reference, dates):
    project.refused(f"tideline: var tideline__backfill_dates = {json.dumps(dates)} is invalid; accepted: "
                    "[first, last]: two past dates YYYY-MM-DD, first <= last < today",
                    lambda: project.dbt("run", "--select", "daily_user_activity", expect_success=False, vars={
                        **VARS, "tideline__now": str(TIMES[-1]), "tideline__backfill_dates": dates}))


def test_a_full_refresh_of_the_filtered_events_alone_is_refused(project, reference):
    project.refused("tideline: --full-refresh of tl_filtered_events without the daily aggregates built on it "
                    "(daily_user_activity) would leave them behind; refresh them together, e.g. dbt run --full-refresh --select "
                    "tl_filtered_events+",
                    lambda: project.dbt("run", "--full-refresh", "--select", "tl_filtered_events", "daily_page_activity",
                                        vars={**VARS, "tideline__now": str(TIMES[-1])}, expect_success=False))

"""A daily aggregate that declares its measures mergeable (models/examples/
daily_user_activity_merged, config `measures`): each run aggregates only the new filtered events
of the dates it processes and appends that partial aggregate; the model is a view that merges
the committed parts; every settle_every runs the dates holding several parts are settled
(merged into one row per key), after which on Delta and Iceberg the view reads them as they are.

After every run of a scenario with late, duplicate and reloaded events, held dates
(min_rows_to_process, reprocess_days), gaps and compactions, its rows equal the Python
reference's and the per-date state equals the recompute path's (daily_user_activity, same
select without `measures`); a --full-refresh rebuild gives the same rows. A crash after any of
its statements and a rerun leave what an uninterrupted run leaves. Bad `measures` are refused
by name before anything is written."""

from __future__ import annotations

import datetime as dt

import pytest

from merged_rows import MERGED, expected_rows, merged_rows
from harness import ICEBERG_CATALOG, OVER_FILTERED, CrashPoints, Project, assert_rows_equal, date_state, extended_tier, rows_equal
from reference import Pipeline, Settings, source_rows
from tideline_tools.generator import EventWorld

pytestmark = pytest.mark.formats("delta", "parquet", "iceberg")

WORLD = EventWorld(seed=733, start=dt.datetime(2025, 6, 1), days=4, events_per_day=90, users=9,
                   late_share=0.2, max_late_days=3, duplicate_share=0.05, reload_share=0.06,
                   reload_after_days=1, pre_start_share=0.05, pre_start_days=1, bot_share=0.03, bot_users=1)
VARS = {"tideline__start_date": "2025-06-01", "tideline__backfill_limit_days": 2, "tideline__reprocess_days": 1,
        "tideline__min_rows_to_process": 3, "tideline__dedupe_lookback_days": 1, "tideline__settle_every": 3}
SETTINGS = Settings(start_date=dt.date(2025, 6, 1), backfill_limit_days=2, reprocess_days=1, min_rows_to_process=3,
                    dedupe_lookback_days=1)
SELECT = ["tl_filtered_events", OVER_FILTERED, MERGED]
RUN_TIMES = [dt.datetime(2025, 6, 1, 9), dt.datetime(2025, 6, 2, 1), dt.datetime(2025, 6, 2, 13),
             dt.datetime(2025, 6, 4, 2), dt.datetime(2025, 6, 5, 8), dt.datetime(2025, 6, 6, 8), dt.datetime(2025, 6, 7, 8)]
def assert_as_the_reference(project, reference: Pipeline, label: str) -> None:
    assert_rows_equal(merged_rows(project), expected_rows(reference), label=f"{label}: merged rows against the reference")
    assert_rows_equal(date_state(project, MERGED), date_state(project, OVER_FILTERED),
                      label=f"{label}: date state against the recompute path's")


@pytest.mark.make_test_formats("delta")
@pytest.mark.longer_in_extended
def test_every_run_merges_to_the_reference_and_a_rebuild_gives_the_same(project, runner, deep):
    project.reset()
    reference = Pipeline(SETTINGS)
    held = 0
    # the full schedule on Delta in the extended tier, a shorter one on parquet and Iceberg there,
    # and the shortest in make test (docs/tests.md, "Tiers")
    times = (RUN_TIMES if deep else RUN_TIMES[:5]) if extended_tier() else RUN_TIMES[:4]
    for now in times:
        project.load(WORLD, until=now, cadence_seconds=3600)
        # the last load's runs settle: the catch-up below then releases held rows without a new
        # batch, so its parts carry the very batch the view was settled at
        settle = {"tideline__settle_every": 1} if now == times[-1] else {}
        for _ in range(2):   # after a gap, the window needs two runs (backfill_limit_days 2)
            result = project.dbt("run", "--select", *SELECT, vars={**VARS, "tideline__now": str(now), **settle})
            reference.run(source_rows(project), now)
            assert_as_the_reference(project, reference, f"run at {now}")
        held += sum(r["skipped_rows"] for r in date_state(project, MERGED))
        lines = [m for m in result.tideline_lines if f"tideline {MERGED}:" in m]
        assert lines and all("path merge" in m for m in lines), lines
    assert held > 0, "the scenario should hold late rows"
    assert project.is_view(project.relation(MERGED))
    parts = project.rows(f"select count(*), count(distinct _tl_run) from {project.fresh(project.data_tables(MERGED)[0])}")[0]
    assert parts[1] > 1, "the parts table holds parts of several runs"

    # the catch-up (the repair thresholds, settling the parts) merges every held row; then a
    # --full-refresh rebuild (into the other slot, swapped in) gives the same rows
    assert [r for r in date_state(project, MERGED) if r["skipped_rows"]], "rows held for the catch-up to release"
    catch_up = {**VARS, "tideline__now": str(times[-1]), "tideline__min_rows_to_process": 1, "tideline__reprocess_days": 3650,
                "tideline__settle_every": 1}
    project.dbt("run", "--select", *SELECT, vars=catch_up)
    reference.run(source_rows(project), times[-1], Settings(**{**SETTINGS.__dict__, "min_rows_to_process": 1, "reprocess_days": 3650}))
    assert_as_the_reference(project, reference, "after the catch-up")
    assert not [r for r in date_state(project, MERGED) if r["skipped_rows"]]
    assert_settled_read(project)
    before = merged_rows(project)
    project.dbt("run", "--full-refresh", "--select", MERGED, vars=catch_up)
    assert_rows_equal(merged_rows(project), before, label="after a --full-refresh")
    assert project.data_tables(MERGED) == [f"{MERGED}__tl_data_b"]


@pytest.mark.formats("delta")   # the format whose view reads the parts as they are
@pytest.mark.extended   # make test: the crash test on Delta (readers never see a dead run's part; each rerun equals the reference)
def test_a_part_of_a_run_that_died_is_dropped_when_the_rerun_settles(project):
    """A run that dies after its append leaves a part no commit names, also in a date no earlier
    run wrote; the rerun appends its own part there and settles: the dead part goes, every date
    holds one run's rows, and readers (on Delta and Iceberg the plain read) see the reference's."""
    project.reset()
    reference = Pipeline(SETTINGS)
    first, second = RUN_TIMES[0], RUN_TIMES[2]
    settle = {**VARS, "tideline__settle_every": 1}
    project.load(WORLD, until=first, cadence_seconds=3600)
    project.dbt("run", "--select", *SELECT, vars={**settle, "tideline__now": str(first)})
    reference.run(source_rows(project), first)
    after_first = expected_rows(reference)
    project.load(WORLD, until=second, cadence_seconds=3600)
    died = project.dbt("run", "--select", *SELECT, expect_success=False,
                       vars={**settle, "tideline__now": str(second), "tideline__fail_at": f"{MERGED}:written"})
    assert any(f"injected failure after {MERGED}:written" in m for m in died.messages), died.messages
    parts = project.fresh(project.data_tables(MERGED)[0])
    committed = f"select run_id from {project.relation('tl_state')} where model = '{MERGED}' and kind = 'run'"
    dead_only = project.rows(f"""select count(distinct event_date) from {parts} where event_date not in
                                 (select event_date from {parts} where _tl_run in ({committed}))""")[0][0]
    assert dead_only > 0, "the run that died wrote a date no committed run holds"
    assert_rows_equal(merged_rows(project), after_first, label="readers while the dead part is there")
    project.dbt("run", "--select", *SELECT, vars={**settle, "tideline__now": str(second)})
    reference.run(source_rows(project), second)
    assert_as_the_reference(project, reference, "after the rerun")
    assert_settled_read(project)


@pytest.mark.make_test_formats("delta")
def test_a_crash_after_any_statement_then_a_rerun_gives_the_uninterrupted_result(project, crash_report):
    """Every storage-changing statement of its runs (first build, appends, compactions, a
    --full-refresh into the other slot and its swap) is a crash point (harness.CrashPoints);
    after each run the merged rows are the reference's, and after each crash readers see the
    rows before the run or those after it, never a part of the run that died."""
    project.reset()
    points = CrashPoints(project, [f"{ICEBERG_CATALOG}.{project.schema}"])
    reference = Pipeline(SETTINGS)
    settings = Settings(**{**SETTINGS.__dict__, "backfill_limit_days": 30})
    run_vars = {**VARS, "tideline__settle_every": 2, "tideline__backfill_limit_days": 30}
    times = RUN_TIMES[1:] if project.file_format == "delta" else RUN_TIMES[1:4]
    for index, now in enumerate(times):
        project.load(WORLD, until=now, cadence_seconds=3600)
        last = index == len(times) - 1   # the last run catches up: nothing stays held
        these = {**run_vars, "tideline__now": str(now), **({"tideline__min_rows_to_process": 1, "tideline__reprocess_days": 3650} if last else {})}
        before = merged_rows(project)
        reference.run(source_rows(project), now, Settings(**{**settings.__dict__, **({"min_rows_to_process": 1, "reprocess_days": 3650} if last else {})}))
        after = expected_rows(reference)
        points.until_done(lambda on_event: project.dbt("run", "--select", "tl_filtered_events", MERGED, on_event=on_event,
                                                       expect_success=False, vars=these),
                          f"run at {now}", after_crash=lambda label: _before_or_after(project, before, after, label))
        assert_rows_equal(merged_rows(project), after, label=f"run at {now}: against the reference")
    points.until_done(lambda on_event: project.dbt("run", "--full-refresh", "--select", MERGED, on_event=on_event, expect_success=False,
                                                   vars=these), "--full-refresh",
                      after_crash=lambda label: _before_or_after(project, after, after, label))
    assert_rows_equal(merged_rows(project), after, label="after a --full-refresh")
    assert MERGED in points.nodes(), points.nodes()
    crash_report(points.report(f"merged daily aggregate ({project.file_format})"))


def assert_settled_read(project) -> None:
    """After a settling run every date of the parts table holds one committed run's rows, one
    row per key; on Delta and Iceberg the view reads them as they are, at the table's version,
    without merging (parquet has no versions: its view merges)."""
    parts = project.fresh(project.data_tables(MERGED)[0])
    per_date = project.rows(f"select event_date, count(distinct _tl_run), count(*), count(distinct attribute_key) from {parts} group by 1")
    assert per_date and all(runs == 1 and rows == keys for _, runs, rows, keys in per_date), per_date
    text = project.rows(f"show create table {project.fresh(MERGED)}")[0][0].lower()
    if project.file_format == "parquet":
        assert "group by" in text, text
    else:
        assert "version as of" in text and "group by" not in text and "tl_state" not in text, text


def _before_or_after(project, before: list[dict], after: list[dict], label: str) -> None:
    seen = merged_rows(project)
    assert rows_equal(seen, before) or rows_equal(seen, after), f"{label}: readers see neither the rows before the run nor those after it"

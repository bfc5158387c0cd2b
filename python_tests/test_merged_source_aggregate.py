"""The merge path over source_events(): a daily aggregate that declares its measures and reads
the source itself (no tl_filtered_events). Each run appends the partial aggregate of the first
copies loaded since each processed date's last batch, read from the oldest of those batches
(less the dedupe lookback) on, instead of recomputing the touched dates from all their loads.

A project of two models with one select (the example daily_user_activity_merged's measures, over
source_events()): `merged_src` with `measures`, `recompute_src` without. Over a scenario with
late, duplicate and reloaded events, held dates (min_rows_to_process, reprocess_days), gaps and
compactions, after every run the merged rows equal the Python reference's, and both models' per
date state (processed and skipped rows) are the same; every run line of merged_src says `path
merge`; a --full-refresh and the runs that catch up after it give the same rows. A crash after
any of its storage-changing statements and a rerun leave what an uninterrupted run leaves, and
readers see the rows before the run or those after it meanwhile."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from harness import CrashPoints, assert_rows_equal, date_state, rows_equal
from merged_rows import expected_rows, merged_rows
from reference import Pipeline, Settings, source_rows
from tideline_tools.generator import EventWorld

pytestmark = pytest.mark.local_only

WORLD = EventWorld(seed=734, start=dt.datetime(2025, 6, 1), days=4, events_per_day=90, users=9,
                   late_share=0.2, max_late_days=3, duplicate_share=0.05, reload_share=0.06,
                   reload_after_days=1, pre_start_share=0.05, pre_start_days=1, bot_share=0.03, bot_users=1)
VARS = {"tideline__start_date": "2025-06-01", "tideline__backfill_limit_days": 2, "tideline__reprocess_days": 1,
        "tideline__min_rows_to_process": 3, "tideline__dedupe_lookback_days": 1, "tideline__settle_every": 3}
SETTINGS = Settings(start_date=dt.date(2025, 6, 1), backfill_limit_days=2, reprocess_days=1, min_rows_to_process=3,
                    dedupe_lookback_days=1)
RUN_TIMES = [dt.datetime(2025, 6, 1, 9), dt.datetime(2025, 6, 2, 1), dt.datetime(2025, 6, 2, 13),
             dt.datetime(2025, 6, 4, 2), dt.datetime(2025, 6, 5, 8), dt.datetime(2025, 6, 6, 8)]
MEASURES = ("{'event_count': 'count', 'page_views': 'count', 'page_pings': 'count', 'transactions': 'count', "
            "'revenue': 'sum', 'first_event_tstamp': 'min', 'last_event_tstamp': 'max', "
            "'first_os': 'first', 'last_os': 'last', 'os_sketch': 'hll'}")
SELECT = """
select
    event_date,
    domain_userid as attribute_key,
    count(*) as event_count,
    count_if(event_name = 'page_view') as page_views,
    count_if(event_name = 'page_ping') as page_pings,
    count_if(event_name = 'transaction') as transactions,
    coalesce(sum(tr_total), 0) as revenue,
    min(derived_tstamp) as first_event_tstamp,
    max(derived_tstamp) as last_event_tstamp,
    min(struct(derived_tstamp, event_id, os_family)) as first_os,
    max(struct(derived_tstamp, event_id, os_family)) as last_os,
    hll_sketch_agg(os_family) as os_sketch
from {{ tideline.source_events() }}
group by event_date, attribute_key
"""
PROJECT_YML = """name: tideline_merged_source
version: "0.1.0"
config-version: 2
profile: tideline
model-paths: ["models"]
models:
  +file_format: "{{ env_var('TIDELINE_FILE_FORMAT', 'parquet') }}"
  tideline:
    examples:
      +enabled: false
"""
MODELS = ["merged_src", "recompute_src"]


@pytest.fixture(scope="module")
def folder(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("merged_source")
    (root / "models").mkdir()
    (root / "dbt_project.yml").write_text(PROJECT_YML)
    (root / "packages.yml").write_text(f"packages:\n  - local: {Path(__file__).resolve().parents[1]}\n")
    config = "{{{{ config(materialized='tideline_daily_aggregate'{}) }}}}"
    (root / "models" / "merged_src.sql").write_text(config.format(f", measures={MEASURES}") + SELECT)
    (root / "models" / "recompute_src.sql").write_text(config.format("") + SELECT)
    return root


@pytest.mark.extended   # make test: the crash scenario below, against the same reference after every run
def test_every_run_merges_what_a_recompute_gives_and_a_rebuild_gives_the_same(project, folder):
    project.reset()
    project.dbt("deps", project_dir=folder)
    reference = Pipeline(SETTINGS)
    held = 0
    for now in RUN_TIMES:
        project.load(WORLD, until=now, cadence_seconds=3600)
        for _ in range(2):   # after a gap, the window needs two runs (backfill_limit_days 2)
            result = project.dbt("run", "--select", *MODELS, vars={**VARS, "tideline__now": str(now)}, project_dir=folder)
            reference.run(source_rows(project), now)
            label = f"run at {now}"
            assert_rows_equal(merged_rows(project, "merged_src"), expected_rows(reference), label=f"{label}: merged rows against the reference")
            assert_rows_equal(date_state(project, "merged_src"), date_state(project, "recompute_src"),
                              label=f"{label}: date state against the recompute path's")
        held += sum(r["skipped_rows"] for r in date_state(project, "merged_src"))
        lines = [m for m in result.tideline_lines if "tideline merged_src:" in m]
        assert lines and all("path merge" in m for m in lines), lines
    assert held > 0, "the scenario should hold late rows"
    assert project.is_view(project.relation("merged_src"))
    data = project.fresh(project.data_tables("merged_src")[0])
    assert project.rows(f"select count(distinct _tl_run) from {data}")[0][0] > 1, "the parts table holds parts of several runs"

    # the catch-up (the repair thresholds) merges every held row; then a --full-refresh rebuilds
    # from the first window on (backfill_limit_days 2 a run, as the recompute path over the
    # source does) and the runs after it catch up to the same rows
    catch_up = {**VARS, "tideline__now": str(RUN_TIMES[-1]), "tideline__min_rows_to_process": 1, "tideline__reprocess_days": 3650}
    project.dbt("run", "--select", *MODELS, vars=catch_up, project_dir=folder)
    reference.run(source_rows(project), RUN_TIMES[-1], Settings(**{**SETTINGS.__dict__, "min_rows_to_process": 1, "reprocess_days": 3650}))
    before = merged_rows(project, "merged_src")
    assert_rows_equal(before, expected_rows(reference), label="after the catch-up")
    project.dbt("run", "--full-refresh", "--select", "merged_src", vars=catch_up, project_dir=folder)
    for _ in range(3):
        project.dbt("run", "--select", "merged_src", vars=catch_up, project_dir=folder)
    assert_rows_equal(merged_rows(project, "merged_src"), before, label="after a --full-refresh and its catch-up")


def test_a_crash_after_any_statement_then_a_rerun_gives_the_uninterrupted_result(project, folder, crash_report):
    project.reset()
    project.dbt("deps", project_dir=folder)
    points = CrashPoints(project)
    reference = Pipeline(SETTINGS)
    settings = Settings(**{**SETTINGS.__dict__, "backfill_limit_days": 30})
    run_vars = {**VARS, "tideline__settle_every": 2, "tideline__backfill_limit_days": 30}
    times = RUN_TIMES[1:5]
    for index, now in enumerate(times):
        project.load(WORLD, until=now, cadence_seconds=3600)
        last = index == len(times) - 1   # the last run catches up: nothing stays held
        these = {**run_vars, "tideline__now": str(now), **({"tideline__min_rows_to_process": 1, "tideline__reprocess_days": 3650} if last else {})}
        before = merged_rows(project, "merged_src")
        reference.run(source_rows(project), now, Settings(**{**settings.__dict__, **({"min_rows_to_process": 1, "reprocess_days": 3650} if last else {})}))
        after = expected_rows(reference)
        points.until_done(lambda on_event: project.dbt("run", "--select", "merged_src", on_event=on_event, expect_success=False,
                                                       vars=these, project_dir=folder),
                          f"run at {now}", after_crash=lambda label: _before_or_after(project, before, after, label))
        assert_rows_equal(merged_rows(project, "merged_src"), after, label=f"run at {now}: against the reference")
    points.until_done(lambda on_event: project.dbt("run", "--full-refresh", "--select", "merged_src", on_event=on_event,
                                                   expect_success=False, vars=these, project_dir=folder), "--full-refresh",
                      after_crash=lambda label: _before_or_after(project, after, after, label))
    assert_rows_equal(merged_rows(project, "merged_src"), after, label="after a --full-refresh")
    crash_report(points.report("merged daily aggregate over source_events()"))


def _before_or_after(project, before: list[dict], after: list[dict], label: str) -> None:
    seen = merged_rows(project, "merged_src")
    assert rows_equal(seen, before) or rows_equal(seen, after), f"{label}: readers see neither the rows before the run nor those after it"

"""Contract 2: a run that dies after any of its statements, then reruns, leaves every table as
an uninterrupted run would. A clean project is the reference; a second project over the same
events fails at a different point in each run (a test-only var, tideline__fail_at, or a run
that stops after some models, as a killed process would) and then reruns."""

from __future__ import annotations

import datetime as dt

import pytest

from harness import RUN_COLUMNS, Project, assert_rows_equal
from tideline_tools.generator import EventWorld

pytestmark = pytest.mark.formats("parquet", "delta", "iceberg")

WORLD = EventWorld(seed=77, start=dt.datetime(2025, 4, 1), days=4, events_per_day=100, users=10,
                   late_share=0.1, max_late_days=2, reload_share=0.05, duplicate_share=0.03)
# backfill_limit_days is large so that one run takes everything up to now: then a rerun after
# a crash past the filtered events' commit has nothing more to read, as the uninterrupted run.
VARS = {"tideline__start_date": "2025-04-01", "tideline__backfill_limit_days": 30, "tideline__reprocess_days": 2,
        "tideline__min_rows_to_process": 2}
SELECT = ["tl_filtered_events", "daily_user_activity", "user_attributes"]
RUN_TIMES = [dt.datetime(2025, 4, 2, 6), dt.datetime(2025, 4, 3, 6), dt.datetime(2025, 4, 4, 6),
             dt.datetime(2025, 4, 5, 18), dt.datetime(2025, 4, 7, 6), dt.datetime(2025, 4, 9, 6)]
# Where each run of the crashing project dies: a checkpoint, or "after:<models>" for a run
# that stopped once those models were done.
FAULTS = [
    "tl_filtered_events:written",
    "tl_filtered_events:decided",
    "after:tl_filtered_events",
    "daily_user_activity:decided",
    "daily_user_activity:written",
    "daily_user_activity:decided",   # the last run has nothing new: only the decision is reached
]
TABLES = ["tl_filtered_events", "daily_user_activity", "user_attributes", "tl_incremental_manifest",
          "aggregation_state"]


def test_a_crash_after_any_statement_then_a_rerun_gives_the_uninterrupted_result(project, runner):
    crashing = Project(runner, "crash_safety_crashing", source_of=project)
    crashing.reset_models()
    try:
        for now, fault in zip(RUN_TIMES, FAULTS):
            project.load(WORLD, until=now, cadence_seconds=3600)
            vars_ = {**VARS, "tideline__now": str(now)}
            project.dbt("run", "--select", *SELECT, vars=vars_)
            expected = project.pipeline_state()

            if fault.startswith("after:"):
                crashing.dbt("run", "--select", *fault[6:].split(), vars=vars_)
            else:
                failed = crashing.dbt("run", "--select", *SELECT, vars={**vars_, "tideline__fail_at": fault},
                                      expect_success=False)
                assert not failed.success and any("injected failure" in m for m in failed.messages), fault
            crashing.dbt("run", "--select", *SELECT, vars=vars_)
            got = crashing.pipeline_state()
            for table in TABLES:
                keep = [c for c in (expected[table][0] if expected[table] else {}) if c not in RUN_COLUMNS or c == "_tl_batch"]
                assert_rows_equal([{k: r[k] for k in keep} for r in got[table]],
                                  [{k: r[k] for k in keep} for r in expected[table]],
                                  label=f"{table} after a crash at {fault} and a rerun")
        assert any(r["skipped_rows"] for r in expected["aggregation_state"]), "the scenario should skip late rows"
    finally:
        crashing.reset_models()

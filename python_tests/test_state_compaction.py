"""Contract 3 for tideline's own state: tl_state holds at most compact_every files per model
however many runs there were (a state read costs the same after a year of hourly runs as after
a day), compaction changes nothing any reader sees, and a run that dies inside a compaction,
then reruns, leaves the same state as an uninterrupted run.

A reference project that never compacts (compact_every 1000) and a compacting project
(compact_every 2) run the pipeline over the same events; the compacting one dies inside its
compactions on some runs (after the copy, before the partition is pointed at it) and reruns.
Both then rebuild with --full-refresh."""

from __future__ import annotations

import datetime as dt

import pytest

from harness import RUN_COLUMNS, Project, assert_rows_equal
from tideline_tools.generator import EventWorld

# local only since 2026-11-29: what it proves is the state's storage, the same through the Thrift
# server, and it was the cluster tier's longest test (271 s of 1,064). The extended tier only since
# 2026-11-30 (273 s in CI): in `make test`, test_source_events' scenario checks that a model's
# state stays within compact_every files over its runs.
pytestmark = [pytest.mark.formats("parquet", "delta", "iceberg"), pytest.mark.extended]

WORLD = EventWorld(seed=5, start=dt.datetime(2025, 6, 1), days=3, events_per_day=60, users=6,
                   late_share=0.2, max_late_days=2, reload_share=0.05, duplicate_share=0.03)
VARS = {"tideline__start_date": "2025-06-01", "tideline__backfill_limit_days": 30, "tideline__reprocess_days": 3}
SELECT = ["tl_filtered_events", "daily_user_activity"]
COMPACT_EVERY = 2
RUN_TIMES = [dt.datetime(2025, 6, 1, 6) + dt.timedelta(hours=9 * i) for i in range(5)]
# Where the compacting project dies on each run (none: it does not). Each model compacts on
# every second commit after its first, runs 3 and 5 (the commit that makes 3 files); a fault
# on a run where that model does not compact is never reached, and the run just succeeds.
# On parquet a compaction is two steps (copy, then point the partition at the copy): the fault
# falls between them; on Delta it is one `optimize` (on Iceberg one `rewrite_data_files`): the
# fault falls right after it.
FAULTS = [None, None, "tl_filtered_events:{step}", None, "daily_user_activity:{step}"]
COMPACTION_STEP = {"parquet": "state_copied", "delta": "state_compacted", "iceberg": "state_compacted"}
STATE_VIEWS = ["tl_incremental_manifest", "tl_daily_aggregation_manifest", "tl_days_to_process", "tl_filtered_events_log"]


def state_files(project: Project) -> dict[str, int]:
    file = "_file" if project.file_format == "iceberg" else "_metadata.file_path"   # tideline's state_file_column()
    return dict(project.rows(f"select model, count(distinct {file}) from {project.fresh('tl_state')} group by model"))


def readers_view(project: Project) -> dict[str, list[dict]]:
    """Everything a reader sees: the pipeline's outputs, the state views and tl_state's rows,
    without the columns that name the run or its commit time (they differ between projects)."""
    tables = {name: project.table(name) for name in SELECT + STATE_VIEWS + ["tl_state"]}
    return {name: [{k: v for k, v in row.items() if k not in RUN_COLUMNS or k == "_tl_batch"} for row in rows]
            for name, rows in tables.items()}


def test_state_stays_within_compact_every_files_and_compaction_changes_nothing_a_reader_sees(project, runner):
    compacting = Project(runner, "state_compaction_compacting", source_of=project)
    compacting.reset_models()
    most_files = {"reference": 0, "compacting": 0}
    logged: list[str] = []
    try:
        for now, fault in zip(RUN_TIMES, FAULTS):
            fault = fault.format(step=COMPACTION_STEP[project.file_format]) if fault else None
            project.load(WORLD, until=now, cadence_seconds=3600)
            vars_ = {**VARS, "tideline__now": str(now)}
            project.dbt("run", "--select", *SELECT, vars={**vars_, "tideline__compact_every": 1000})
            if fault:
                failed = compacting.dbt("run", "--select", *SELECT, expect_success=False,
                                        vars={**vars_, "tideline__compact_every": COMPACT_EVERY, "tideline__fail_at": fault})
                assert not failed.success and any("injected failure" in m for m in failed.messages), fault
            result = compacting.dbt("run", "--select", *SELECT, vars={**vars_, "tideline__compact_every": COMPACT_EVERY})
            logged.extend(m for m in result.tideline_lines if "state compacted" in m)

            expected, got = readers_view(project), readers_view(compacting)
            for name in expected:
                assert_rows_equal(got[name], expected[name], label=f"{name} after the run at {now}")
            files = state_files(compacting)
            # a compaction that died leaves one commit more until the model's next commit
            assert max(files.values()) <= COMPACT_EVERY + (1 if fault else 0), files
            most_files["compacting"] = max(most_files["compacting"], *files.values())
            most_files["reference"] = max(most_files["reference"], *state_files(project).values())
        # the scenario must make the reference grow past what compaction allows
        # (on parquet a compaction that died before its second step leaves one file more; on
        # Delta the fault comes after the compaction's one commit, which holds)
        assert most_files == {"reference": len(RUN_TIMES),
                              "compacting": COMPACT_EVERY + (1 if project.file_format == "parquet" else 0)}, most_files
        # each compaction says so in dbt's log
        for model in SELECT:
            assert f"tideline {model}: state compacted, 3 files of tl_state into 1 (compact_every 2)" in logged, logged

        # a rebuild after compactions replaces the state wherever the partition points now
        for p, every in ((project, 1000), (compacting, COMPACT_EVERY)):
            p.dbt("run", "--full-refresh", "--select", *SELECT, vars={**vars_, "tideline__compact_every": every})
        expected, got = readers_view(project), readers_view(compacting)
        for name in expected:
            assert_rows_equal(got[name], expected[name], label=f"{name} after a --full-refresh")
        assert state_files(compacting) == {"tl_filtered_events": 1, "daily_user_activity": 1}
    finally:
        compacting.reset_models()

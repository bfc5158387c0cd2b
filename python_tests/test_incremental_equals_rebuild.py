"""Contract 1, as a property: the same events, loaded in random batches and processed by a
random sequence of runs (random backfill limits and thresholds), end, after a catch-up run with
min_rows_to_process 1 and a large reprocess_days, with the tables one --full-refresh build makes.

The catch-up recomputes every date the last load touched, which can hide a wrong run before it;
so after every run daily_user_activity must equal the Python reference given the same runs, and
the daily aggregate over source_events() the same select over filtered_events() (rows and
per-date state): two ways to the same days, each run."""

from __future__ import annotations

import datetime as dt

from hypothesis import given, strategies as st

from harness import (FROM_SOURCE, OVER_FILTERED, Project, assert_rows_equal, assert_same_as_over_filtered_events, data_rows,
                     end_to_end_property)
from merged_rows import MERGED, expected_rows, merged_rows
from reference import Pipeline, Settings, source_rows
from tideline_tools.generator import EventWorld

WORLD = EventWorld(seed=4242, start=dt.datetime(2025, 8, 1), days=3, events_per_day=60, users=8,
                   late_share=0.15, max_late_days=3, duplicate_share=0.05, reload_share=0.08,
                   reload_after_days=1, pre_start_share=0.05, pre_start_days=1, bot_share=0.03, bot_users=1)
FIRST_HOUR = WORLD.start.replace(tzinfo=None)
LAST = WORLD.last_arrival().replace(tzinfo=None)
HOURS = int((LAST - FIRST_HOUR).total_seconds() // 3600)
BASE = {"tideline__start_date": "2025-08-01", "tideline__dedupe_lookback_days": 3}
# daily_user_events_from_source reads the source itself (source_events()), with its own windows
SELECT = ["tl_filtered_events", OVER_FILTERED, "user_attributes", FROM_SOURCE, MERGED]
CATCH_UP = {**BASE, "tideline__min_rows_to_process": 1, "tideline__reprocess_days": 3650,
            "tideline__backfill_limit_days": 3650, "tideline__now": str(LAST)}

run_step = st.fixed_dictionaries({
    "backfill": st.integers(min_value=1, max_value=3),
    "min_rows": st.integers(min_value=1, max_value=6),
    "reprocess": st.integers(min_value=0, max_value=4),
    "run": st.booleans(),
})


def comparable(project, table: str) -> list[dict]:
    return data_rows(project.table(table))


def settings_of(run_vars: dict) -> Settings:
    """The Python reference's settings for a run's vars."""
    return Settings(start_date=dt.date.fromisoformat(run_vars["tideline__start_date"]),
                    backfill_limit_days=run_vars["tideline__backfill_limit_days"],
                    reprocess_days=run_vars["tideline__reprocess_days"],
                    min_rows_to_process=run_vars["tideline__min_rows_to_process"],
                    dedupe_lookback_days=run_vars["tideline__dedupe_lookback_days"])


@end_to_end_property(make_test=1)
@given(cuts=st.lists(st.integers(min_value=1, max_value=HOURS - 1), min_size=1, max_size=4, unique=True).map(sorted),
       steps=st.lists(run_step, min_size=4, max_size=4))
def test_random_loads_and_runs_end_equal_to_a_full_refresh(project, runner, cuts, steps):
    project.reset()
    rebuild = Project(runner, "equals_rebuild_full", source_of=project)
    rebuild.reset_models()
    # Loads at random hours (one load each), then one last load with everything else. After each
    # run the aggregate equals the Python reference given the same runs (independent of tideline).
    reference = Pipeline(settings_of(CATCH_UP))
    for cut, step in zip(cuts, steps):
        now = FIRST_HOUR + dt.timedelta(hours=cut)
        project.load(WORLD, until=now)
        if step["run"]:
            run_vars = {**BASE, "tideline__now": str(now), "tideline__backfill_limit_days": step["backfill"],
                        "tideline__min_rows_to_process": step["min_rows"], "tideline__reprocess_days": step["reprocess"]}
            project.dbt("run", "--select", *SELECT, vars=run_vars)
            reference.run(source_rows(project), now, settings_of(run_vars))
            project.assert_table_equals(OVER_FILTERED, reference.daily_user_activity())
            assert_rows_equal(merged_rows(project), expected_rows(reference), label=f"{MERGED}: run at {now} (cuts {cuts})")
            assert_same_as_over_filtered_events(project, f"run at {now} (cuts {cuts})")
    project.load(WORLD, until=LAST)
    # Catch up: the documented repair thresholds, as many runs as the window needs (one here).
    project.dbt("run", "--select", *SELECT, vars=CATCH_UP)
    reference.run(source_rows(project), LAST, settings_of(CATCH_UP))
    project.assert_table_equals(OVER_FILTERED, reference.daily_user_activity())
    assert_rows_equal(merged_rows(project), expected_rows(reference), label=f"{MERGED}: catch-up (cuts {cuts})")
    assert_same_as_over_filtered_events(project, f"catch-up (cuts {cuts})")
    rebuild.dbt("run", "--full-refresh", "--select", *SELECT, vars=CATCH_UP)
    assert_rows_equal(merged_rows(project), merged_rows(rebuild), label=f"{MERGED}: incremental vs full refresh (cuts {cuts})")
    for table in [t for t in SELECT if t != MERGED]:
        assert_rows_equal(comparable(project, table), comparable(rebuild, table),
                          label=f"{table}: incremental vs full refresh (cuts {cuts})")
    assert project.rows(f"select count(*) from {project.fresh('daily_user_activity')}")[0][0] > 0
    rebuild.reset_models()

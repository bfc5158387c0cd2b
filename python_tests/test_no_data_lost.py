"""No data lost by a failed run: a rebuild whose query fails (a --full-refresh of a daily
aggregate, a tideline_table) leaves the old table and the old state, and the next run does
not rebuild history; a daily aggregate whose date column is not a date is refused before its
first build. Runs in python_tests/consumer_project, where tideline is a package."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from tideline_tools.generator import EventWorld

CONSUMER = Path(__file__).parent / "consumer_project"
WORLD = EventWorld(seed=77, start=dt.datetime(2025, 9, 1), days=3, events_per_day=40, users=5,
                   app_ids=("website", "mobile"))
VARS = {"tideline__start_date": "2025-09-01", "tideline__now": "2025-09-08 00:00:00"}
MODELS = ["tl_filtered_events", "consumer_daily_events", "consumer_app_totals"]


def state_of(project, model: str) -> list[tuple]:
    return sorted(project.rows(f"select * from {project.fresh('tl_state')} where model = '{model}'"), key=str)


def test_a_failed_rebuild_keeps_the_table_and_its_state(project):
    project.load(WORLD, until=dt.datetime(2025, 9, 8), cadence_seconds=3600)
    project.dbt("deps", project_dir=CONSUMER)
    project.dbt("run", "--select", *MODELS, vars=VARS, project_dir=CONSUMER)
    daily, totals = project.table("consumer_daily_events"), project.table("consumer_app_totals")
    state, names = state_of(project, "consumer_daily_events"), project.tables()
    assert daily and totals and state

    failed = project.dbt("run", "--full-refresh", "--select", "consumer_daily_events", project_dir=CONSUMER,
                         vars={**VARS, "consumer__fail": True}, expect_success=False)
    assert not failed.success and "consumer__fail is set" in "\n".join(failed.messages), failed.messages
    assert project.table("consumer_daily_events") == daily
    assert state_of(project, "consumer_daily_events") == state
    assert project.tables() == names

    failed = project.dbt("run", "--select", "consumer_app_totals", project_dir=CONSUMER,
                         vars={**VARS, "consumer__fail": True}, expect_success=False)
    assert not failed.success and "consumer__fail is set" in "\n".join(failed.messages), failed.messages
    assert project.table("consumer_app_totals") == totals
    assert project.tables() == names

    # the next ordinary run finds nothing new: no rebuild of the history
    after = project.dbt("run", "--select", "consumer_daily_events", vars=VARS, project_dir=CONSUMER)
    assert any("nothing to do" in line for line in after.tideline_lines), after.tideline_lines
    assert project.table("consumer_daily_events") == daily
    assert state_of(project, "consumer_daily_events") == state


def test_a_daily_aggregate_whose_date_column_is_not_a_date_is_refused(project):
    names = project.tables()
    project.refused("tideline: daily aggregate consumer_hourly_events: its date column event_date is timestamp; it must be a date, "
                    "one partition per day (e.g. to_date(derived_tstamp) as event_date, or set config date_column to the "
                    "select's date column)",
                    lambda: project.dbt("run", "--select", "consumer_hourly_events", vars=VARS, project_dir=CONSUMER,
                                        expect_success=False))
    assert project.tables() == names

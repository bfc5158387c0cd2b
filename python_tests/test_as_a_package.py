"""tideline used as a dbt package by another project (python_tests/consumer_project): the
package's pipeline runs there, a daily aggregate of the consumer's own uses the package's
materialization, and a backfill after the aggregate's logic changed clears the days that now
have no rows (dynamic partition overwrite alone would leave them)."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from tideline_tools.generator import EventWorld

CONSUMER = Path(__file__).parent / "consumer_project"
WORLD = EventWorld(seed=31, start=dt.datetime(2025, 10, 1), days=5, events_per_day=50, users=6,
                   app_ids=("website",), late_share=0.05)
VARS = {"tideline__start_date": "2025-10-01", "tideline__now": "2025-10-12 00:00:00"}
SELECT = ["tl_filtered_events", "consumer_daily_events"]


def dates(project) -> list:
    return [r[0] for r in project.rows(
        f"select distinct event_date from {project.fresh('consumer_daily_events')} order by 1")]


def test_the_package_in_another_project_and_clearing_emptied_days(project):
    project.load(WORLD, until=WORLD.last_arrival(), cadence_seconds=3600)
    project.dbt("deps", project_dir=CONSUMER)
    project.dbt("run", "--select", *SELECT, vars=VARS, project_dir=CONSUMER)
    all_days = [dt.date(2025, 10, d) for d in range(1, 6)]
    assert dates(project) == all_days
    total = project.rows(f"select sum(event_count) from {project.fresh('consumer_daily_events')}")[0][0]
    assert total == project.rows(f"select count(*) from {project.fresh('tl_filtered_events')}")[0][0]

    # The aggregate now leaves out the only app; backfill the 2nd to the 4th.
    project.dbt("run", "--select", "consumer_daily_events", project_dir=CONSUMER, vars={
        **VARS, "consumer__left_out_app": "website", "tideline__backfill_dates": ["2025-10-02", "2025-10-04"]})
    assert dates(project) == [dt.date(2025, 10, 1), dt.date(2025, 10, 5)]
    partitions = [r[0] for r in project.rows(f"show partitions {project.relation('consumer_daily_events')}")]
    assert partitions == ["event_date=2025-10-01", "event_date=2025-10-05"]

"""The time-based pipeline's scenario, shared by the modules that run it: the event world, the
settings, the models a run selects, and `run_and_compare`, one run and then every table against
the independent reference (python_tests/reference.py)."""

from __future__ import annotations

import datetime as dt

from reference import Pipeline, Settings, source_rows, user_attributes
from tideline_tools.generator import EventWorld

START = dt.date(2025, 3, 1)
WORLD = EventWorld(
    seed=1234, start=dt.datetime(2025, 3, 1), days=10, events_per_day=120, users=15,
    late_share=0.12, max_late_days=4, duplicate_share=0.03, reload_share=0.04, reload_after_days=2,
    pre_start_share=0.03, pre_start_days=2, bot_share=0.02, bot_users=1,
)
SETTINGS = Settings(start_date=START, backfill_limit_days=2, reprocess_days=3, min_rows_to_process=3)
GAP = (dt.datetime(2025, 3, 5), dt.datetime(2025, 3, 7))   # no loads on the 5th and 6th
SELECT = ["tl_filtered_events", "daily_user_activity", "user_attributes"]


def run_and_compare(project, reference: Pipeline, now: dt.datetime, settings: Settings = SETTINGS, run=None) -> None:
    """One `dbt run` (or `run(select, vars)` when given), then every table against the reference."""
    run_vars = {**settings.vars(), "tideline__now": str(now)}
    if run is None:
        project.dbt("run", "--select", *SELECT, vars=run_vars)
    else:
        run(SELECT, run_vars)
    reference.run(source_rows(project), now, settings)
    label = f"after the run at {now}"
    project.assert_table_equals("tl_filtered_events", reference.filtered_rows())
    daily = reference.daily_user_activity()
    project.assert_table_equals("daily_user_activity", daily)
    state = project.rows(f"""select event_date, processed_rows, skipped_rows
        from {project.fresh('tl_daily_aggregation_manifest')} where model = 'daily_user_activity'""")
    got = {r[0]: (r[1], r[2]) for r in state if r[1] or r[2]}
    want = {r["event_date"]: (r["processed_rows"], r["skipped_rows"]) for r in reference.aggregation_manifest()}
    assert got == want, label
    project.assert_table_equals("user_attributes", user_attributes(daily, now))
    # each committed window of the filtered events: its bounds and the rows it read (a boundary
    # row read twice is dropped as a duplicate, but it is counted)
    windows = project.rows(f"""select lower_limit, upper_limit, rows_read from {project.fresh('tl_incremental_manifest')}
        where model = 'tl_filtered_events' order by upper_limit""")
    assert windows == [window for window in reference.windows if window[2]], label

"""The time-based pipeline over many runs: every table against the independent reference.

Hourly loads over 10 days with late events, same-load and cross-run duplicates, a two-day gap
in loading and events before the start date; a run every 20 hours (so runs fall at
every time of day). After every run the filtered
events, the daily aggregate, its manifest and the attributes equal what python_tests/reference.py
computes from the loaded rows and the documented rules.
"""

from __future__ import annotations

import datetime as dt

import os

import pytest

from harness import extended_tier
from pipeline_scenario import GAP, SELECT, SETTINGS, WORLD, run_and_compare
from reference import Pipeline, Settings, source_rows
from tideline_tools.generator import EventWorld

pytestmark = pytest.mark.formats("parquet", "delta", "iceberg")

# The full length (conftest `deep`): a run every 26 hours in the extended tier (runs fall two
# hours later each day: 14 runs), every 52 hours in `make test` (7 runs, at hours that cycle
# through the day: 6, 10, 14, 18, 22, 2, 6). Every 60 hours (7 runs and the repair run) on the formats
# that run the short schedule and on the cluster, which keeps the scenario at about 4 minutes
# through the Thrift server. docs/tests.md, "Tiers".
RUN_EVERY = {True: dt.timedelta(hours=26 if extended_tier() else 52), False: dt.timedelta(hours=60)}
ON_CLUSTER = os.environ.get("TIDELINE_TARGET") == "cluster"


@pytest.mark.both_targets
@pytest.mark.make_test_formats("delta")
@pytest.mark.longer_in_extended
def test_hourly_loads_over_ten_days_match_the_reference_after_every_run(project, deep):
    reference = Pipeline(SETTINGS)
    run_every = RUN_EVERY[deep and not ON_CLUSTER]
    t = dt.datetime(2025, 3, 1, 6)
    while t <= dt.datetime(2025, 3, 16, 6):
        project.load(WORLD, until=t, cadence_seconds=3600, gaps=[GAP])
        run_and_compare(project, reference, t)
        t += run_every
    # The invariant of the aggregation manifest: skipped(d) = filtered events of d not reflected.
    skipped_total = sum(reference.skipped.values())
    assert skipped_total > 0, "the scenario should leave late rows below min_rows_to_process skipped"
    # The documented repair path: one run with other thresholds catches everything up.
    repair = Settings(**{**SETTINGS.__dict__, "min_rows_to_process": 1, "reprocess_days": 3650})
    run_and_compare(project, reference, t, repair)
    assert sum(reference.skipped.values()) == 0
    project.assert_formats(["tl_filtered_events__tl_rows", "daily_user_activity", "user_attributes", "tl_state"])
    # Every filtered event is now reflected: the aggregate equals a full rebuild.
    total = project.rows(f"select sum(event_count) from {project.fresh('daily_user_activity')}")[0][0]
    assert total == len(reference.filtered)


@pytest.mark.make_test_formats("delta")
def test_a_first_run_before_any_load_builds_empty_tables_then_the_runs_match_the_reference(project):
    """The first hour of a new install: the scheduler runs before the loader delivered anything.
    Every model still gets its (empty) table or view, so the data tests find them; nothing is
    committed, and the first run with events builds everything as a first build would."""
    project.reset()
    project.load(WORLD, until=dt.datetime(2025, 2, 20), cadence_seconds=3600)   # before the first arrival
    now = dt.datetime(2025, 3, 1, 0, 30)
    project.dbt("run", "--select", *SELECT, vars={**SETTINGS.vars(), "tideline__now": str(now)})
    for model in SELECT:
        assert project.rows(f"select count(*) from {project.fresh(model)}") == [(0,)], model
    assert project.rows(f"select count(*) from {project.fresh('tl_state')} where kind = 'run'") == [(0,)]
    project.dbt("test", "--select", *SELECT, vars={**SETTINGS.vars(), "tideline__now": str(now)})
    reference = Pipeline(SETTINGS)
    reference.run(source_rows(project), now, SETTINGS)
    for t in (dt.datetime(2025, 3, 3, 6), dt.datetime(2025, 3, 6, 12), dt.datetime(2025, 3, 9, 18)):
        project.load(WORLD, until=t, cadence_seconds=3600, gaps=[GAP])
        run_and_compare(project, reference, t)


@pytest.mark.formats("parquet")
def test_late_rows_reaching_min_rows_to_process_exactly_reprocess_their_date(project):
    """The rule's boundary (macros/incremental/days_to_process.sql): late rows one fewer than
    min_rows_to_process leave their date skipped; one more late row (pending = min_rows exactly)
    and the date is processed. Each step against the reference."""
    project.reset()
    world = EventWorld(seed=5, start=dt.datetime(2025, 3, 1), days=2, events_per_day=40, users=5, late_share=0,
                       duplicate_share=0, reload_share=0, pre_start_share=0, bot_share=0)
    settings = Settings(start_date=dt.date(2025, 3, 1), backfill_limit_days=30, reprocess_days=3, min_rows_to_process=3)
    reference = Pipeline(settings)
    project.load(world, until=dt.datetime(2025, 3, 3), cadence_seconds=3600)
    run_and_compare(project, reference, dt.datetime(2025, 3, 3, 1), settings)
    late_date = dt.date(2025, 3, 1)
    columns = project.runner.columns(f"select * from {project.events_table}")
    for copies, loaded in ((2, dt.datetime(2025, 3, 3, 6)), (1, dt.datetime(2025, 3, 3, 12))):
        # copies of events of the 1st under new ids, loaded on the 3rd: late rows of the 1st
        replaced = {"event_id": "uuid()", "load_tstamp": f"timestamp'{loaded}'", "load_date": f"date'{loaded.date()}'"}
        project.runner.execute(f"""insert into {project.events_table}
            select {', '.join(replaced.get(c, c) for c in columns)} from {project.events_table}
            where to_date(derived_tstamp) = date'{late_date}' and app_id is not null order by event_id limit {copies}""")
        run_and_compare(project, reference, loaded + dt.timedelta(minutes=30), settings)
        skipped = project.rows(f"""select skipped_rows from {project.fresh('tl_daily_aggregation_manifest')}
            where model = 'daily_user_activity' and event_date = date'{late_date}'""")
        assert skipped == [(2 if copies == 2 else 0,)], (copies, skipped)

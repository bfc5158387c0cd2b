"""Run limits, events this run and filtered events over several runs, against a reference.

The reference is computed in Python from the raw source rows and the documented rules
(macros/incremental/run_limits.sql, macros/incremental/filtered_events.sql), not from the
models' SQL: the first-loaded copy of an event_id wins, events before the start date and
unwanted app ids are left out, and every event loaded up to the last run's upper limit is in.
"""

from __future__ import annotations

import datetime as dt
import json

import pytest

from tideline_tools.generator import EventWorld, create_events_table

START = dt.datetime(2025, 6, 1)
WORLD = EventWorld(
    seed=99, start=START, days=4, events_per_day=300, users=25, late_share=0.1, max_late_days=2,
    duplicate_share=0.03, reload_share=0.05, reload_after_days=1, pre_start_share=0.03, bot_share=0.02,
)
VARS = {"tideline__start_date": "2025-06-01", "tideline__app_id": ["website", "mobile"],
        "tideline__backfill_limit_days": 1, "tideline__dedupe_lookback_days": 3}
MODELS = ["tl_filtered_events"]


def run(project, now: str, expect_success: bool = True, **extra):
    return project.dbt("run", "--select", *MODELS, vars={**VARS, "tideline__now": now, **extra},
                       expect_success=expect_success)


def reference_filtered(project, upper: dt.datetime) -> list[dict]:
    """First-loaded copy per event_id among rows loaded up to `upper`, then the filters."""
    rows = project.rows(f"""select event_id, load_tstamp, dvce_created_tstamp, derived_tstamp, collector_tstamp,
        event_fingerprint, app_id from {project.events_table} where load_tstamp <= timestamp'{upper}'""")
    first: dict[str, tuple] = {}
    for row in rows:
        key = row[1:6]
        if row[0] not in first or key < first[row[0]][1:6]:
            first[row[0]] = row
    return [
        {"event_id": r[0], "load_tstamp": r[1], "derived_tstamp": r[3], "event_date": r[3].date()}
        for r in first.values()
        if r[3] >= START and r[6] in VARS["tideline__app_id"]
    ]


def manifest(project) -> list[tuple]:
    return project.rows(f"""select lower_limit, upper_limit, watermark, rows_read from
        {project.fresh('tl_incremental_manifest')} where model = 'tl_filtered_events' order by upper_limit""")


def test_runs_with_gaps_late_and_duplicate_loads_match_the_reference(project):
    # Day 1: hourly loads up to noon of the 2nd; first run with a 1-day backfill limit.
    project.load(WORLD, until=dt.datetime(2025, 6, 2, 12), cadence_seconds=3600)
    run(project, "2025-06-02 12:00:00")
    first = manifest(project)
    assert first[0][0] == dt.datetime(2025, 5, 31, 23, 59, 59, 999999)   # start minus 1 µs
    assert first[0][1] == dt.datetime(2025, 6, 2, 1, 0)                  # first load + 1 day
    project.assert_table_equals("tl_filtered_events", reference_filtered(project, first[0][1]))

    # Catch up, then loads resume after a two-day gap (nothing loaded on the 3rd and 4th).
    run(project, "2025-06-02 12:00:00")
    project.load(WORLD, until=dt.datetime(2025, 6, 5), since=dt.datetime(2025, 6, 2, 12), cadence_seconds=3600,
                 gaps=[(dt.datetime(2025, 6, 2, 12), dt.datetime(2025, 6, 4, 12))])
    run(project, "2025-06-05 00:00:00")
    project.load(WORLD, until=WORLD.last_arrival(), cadence_seconds=3600)
    for _ in range(6):
        run(project, "2025-06-12 00:00:00")
    runs = manifest(project)
    # Windows chain: each lower limit is the previous run's watermark (largest load processed).
    for previous, current in zip(runs, runs[1:]):
        assert current[0] == previous[2]
    assert sum(r[3] for r in runs) == WORLD.rows_total()   # every loaded row read exactly once
    project.assert_table_equals("tl_filtered_events", reference_filtered(project, runs[-1][1]))
    # What each run counted per date in its decide query (its tl_filtered_events_log rows: the
    # new rows the daily aggregates decide on) is what its write kept, first copies only: the
    # events of its batch per date, and of those the ones loaded after their date.
    counted = project.rows(f"""select cast(batch as string), cast(event_date as string), new_rows, late_rows
        from {project.fresh('tl_filtered_events_log')}""")
    written = project.rows(f"""select cast(_tl_batch as string), cast(event_date as string), count(*),
        count_if(load_date > event_date) from {project.fresh('tl_filtered_events')} group by 1, 2""")
    assert sorted(counted) == sorted(written)


def test_an_empty_first_window_neither_fails_nor_stalls(project):
    project.reset()
    world = EventWorld(seed=5, start=dt.datetime(2025, 6, 1), days=1, events_per_day=50, late_share=0,
                       duplicate_share=0, reload_share=0, pre_start_share=0, bot_share=0)
    # Nothing loaded yet: the run succeeds, reads nothing and commits nothing (no state to move).
    project.load(world, until=dt.datetime(2025, 6, 1), since=dt.datetime(2025, 5, 31))
    result = run(project, "2025-06-01 00:00:00", tideline__app_id=[])
    assert result.node_status()["tl_filtered_events"] == "success"
    assert manifest(project) == []
    # ...but it creates the (empty) view, so that readers and the model's data tests find it.
    assert project.rows(f"select count(*) from {project.fresh('tl_filtered_events')}") == [(0,)]
    project.dbt("test", "--select", "tl_filtered_events", vars={**VARS, "tideline__now": "2025-06-01 00:00:00"})
    # The first load comes 40 days after the start date: the next run skips ahead to it.
    project.load(world, until=dt.datetime(2025, 7, 11), since=dt.datetime(2025, 6, 1))
    run(project, "2025-07-12 00:00:00", tideline__app_id=[])
    runs = manifest(project)
    assert runs[-1][1] == dt.datetime(2025, 7, 12) and runs[-1][3] == world.rows_total()
    assert project.rows(f"select count(*) from {project.fresh('tl_filtered_events')}") == [(world.rows_total(),)]


def test_a_first_window_that_keeps_no_event_still_builds_the_aggregates_empty(project):
    # Every row is of an unwanted app: tl_filtered_events commits a run that read rows and kept
    # none (no date rows). The first builds of a daily aggregate over it and of one over the
    # source must still get their bounds (the total row of their decide query) and build empty.
    project.reset()
    world = EventWorld(seed=6, start=dt.datetime(2025, 6, 1), days=1, events_per_day=30, late_share=0,
                       duplicate_share=0, reload_share=0, pre_start_share=0, bot_share=0)
    last = world.last_arrival().replace(tzinfo=None)
    project.load(world, until=last)
    aggregates = ["daily_user_activity", "daily_user_events_from_source"]
    project.dbt("run", "--select", *MODELS, *aggregates,
                vars={**VARS, "tideline__now": str(last), "tideline__app_id": ["no-such-app"]})
    assert manifest(project)[-1][3] == world.rows_total()   # every row read, none kept
    for table in ["tl_filtered_events", *aggregates]:
        assert project.rows(f"select count(*) from {project.fresh(table)}") == [(0,)], table


def test_an_event_loaded_exactly_on_a_boundary_is_read_once(project):
    project.reset()
    world = EventWorld(seed=8, start=dt.datetime(2025, 6, 1), days=1, events_per_day=40, late_share=0,
                       duplicate_share=0, reload_share=0, pre_start_share=0, bot_share=0)
    # One load at 00:00:00 of the start date: the first window (start - 1 µs, ...] holds it.
    project.load(world, until=dt.datetime(2025, 6, 1), since=dt.datetime(2025, 5, 1))
    # One load exactly at the first run's "now", the upper limit.
    project.load(world, until=dt.datetime(2025, 6, 1, 12))
    run(project, "2025-06-01 12:00:00", tideline__app_id=[])
    project.load(world, until=world.last_arrival())
    run(project, "2025-06-10 00:00:00", tideline__app_id=[])
    runs = manifest(project)
    assert runs[0][1] == dt.datetime(2025, 6, 1, 12) and runs[0][2] == dt.datetime(2025, 6, 1, 12)
    assert sum(r[3] for r in runs) == world.rows_total()
    assert project.rows(f"""select count(*), count(distinct event_id)
        from {project.fresh('tl_filtered_events')}""") == [(world.rows_total(), world.rows_total())]


@pytest.mark.parametrize("name, value, accepted", [
    ("tideline__backfill_limit_days", 0, "an integer >= 1"),
    ("tideline__backfill_limit_days", "7", "an integer >= 1"),
    ("tideline__start_date", "2025-02-30", "a date written YYYY-MM-DD"),
    ("tideline__min_rows_to_process", 0, "an integer >= 1"),
    ("tideline__reprocess_days", -1, "an integer >= 0"),
    ("tideline__app_id", "website", "a list of strings"),
    ("tideline__now", "yesterday", "a UTC time written"),
    ("tideline__attribute_key", "user id", "a column name"),
    ("tideline__on_bad_rows", "skip", "warn (the default: each run counts them in its line and in its run row, rows_rejected, "
                                      "and goes on) or fail (a run whose window holds any is refused before anything is written, "
                                      "naming the first by its load time and event_id) or quarantine (as warn, and each is set "
                                      "aside once in <model>__tl_quarantine with the reason)"),
])
def test_bad_vars_are_refused_before_anything_is_written(project, name, value, accepted):
    project.reset()
    project.refused(f"tideline: var {name} = {json.dumps(value)} is invalid; accepted: {accepted}",
                    lambda: project.dbt("run", "--select", *MODELS, vars={**VARS, name: value}, expect_success=False))
    assert project.tables() == []


def test_rows_without_a_load_time_are_counted_and_never_processed(project):
    project.reset()
    world = EventWorld(seed=21, start=dt.datetime(2025, 6, 1), days=1, events_per_day=30, late_share=0,
                       duplicate_share=0, reload_share=0, pre_start_share=0, bot_share=0)
    project.load(world, until=world.last_arrival(), cadence_seconds=3600)
    columns = project.runner.columns(f"select * from {project.events_table}")

    def copies(load_date: str) -> str:
        """Copies of loaded rows with a new event_id and no load_tstamp, in the table's column order."""
        values = {"event_id": "concat('no-load-', event_id)", "load_tstamp": "cast(null as timestamp)", "load_date": load_date}
        return ", ".join(values.get(c, c) for c in columns)

    # Two rows in the load_date-null partition, one in a load date the window reads.
    project.runner.execute(f"""insert into {project.events_table} select {copies('cast(null as date)')}
        from {project.events_table} order by event_id limit 2""")
    project.runner.execute(f"""insert into {project.events_table} select {copies("date'2025-06-01'")}
        from {project.events_table} where load_tstamp is not null order by event_id limit 1""")
    result = run(project, "2025-06-03 00:00:00", tideline__app_id=[])
    warnings = [m for m in result.messages if "have no load_tstamp" in m]
    assert len(warnings) == 1 and warnings[0].startswith("tideline: 3 rows of "), result.messages
    counted = project.rows(f"""select rows_read, rows_without_load_time from {project.fresh('tl_incremental_manifest')}
        where model = 'tl_filtered_events'""")
    assert counted == [(world.rows_total(), 3)]
    assert project.rows(f"""select count(*), count_if(event_id like 'no-load-%')
        from {project.fresh('tl_filtered_events')}""") == [(world.rows_total(), 0)]
    # a daily aggregate over source_events() reads the same window: the same warning and count,
    # in its run that reads the rows and in its next one, which has nothing new
    for now in ("2025-06-03 00:00:00", "2025-06-03 01:00:00"):
        result = project.dbt("run", "--select", "daily_user_events_from_source",
                             vars={**VARS, "tideline__now": now, "tideline__app_id": []})
        warnings = [m for m in result.messages if "have no load_tstamp" in m]
        assert len(warnings) == 1 and warnings[0].startswith("tideline: 3 rows of "), result.messages
    assert project.rows(f"""select rows_read, rows_without_load_time from {project.fresh('tl_incremental_manifest')}
        where model = 'daily_user_events_from_source'""") == [(world.rows_total(), 3)]


def test_rejected_events_are_counted_refused_or_set_aside_as_on_bad_rows_says(project):
    """tideline__on_bad_rows: a window's rejected events (no event_id; a first copy without
    derived_tstamp) are counted by every policy; 'fail' refuses the run before anything is
    written, naming the first; 'quarantine' writes the rest and sets each aside once (a rerun
    and a later run add none), in the quarantine of each model that reads the window: the
    filtered events and a daily aggregate over source_events(). A later copy of an id whose
    first copy is rejected is a duplicate, neither kept nor set aside; so is a later copy without
    derived_tstamp of an id whose first copy has one."""
    project.reset()
    world = EventWorld(seed=23, start=dt.datetime(2025, 6, 1), days=1, events_per_day=30, late_share=0,
                       duplicate_share=0, reload_share=0, pre_start_share=0, bot_share=0)
    project.load(world, until=world.last_arrival(), cadence_seconds=3600)
    clean = {"tideline__app_id": [], "tideline__on_bad_rows": "fail"}
    run(project, "2025-06-02 05:00:00", **clean)   # a window without rejected events: no refusal
    columns = project.runner.columns(f"select * from {project.events_table}")

    def copies(event_id: str, derived: str, load: str) -> str:
        values = {"event_id": event_id, "derived_tstamp": derived, "load_tstamp": f"timestamp'{load}'", "load_date": "date'2025-06-02'"}
        return ", ".join(values.get(c, c) for c in columns)

    for event_id, derived, load, limit in [("cast(null as string)", "derived_tstamp", "2025-06-02 06:00:00", 2),
                                           ("'no-time-1'", "cast(null as timestamp)", "2025-06-02 06:00:00", 1),
                                           ("'no-time-1'", "derived_tstamp", "2025-06-02 06:30:00", 1),
                                           ("'dup-no-time'", "derived_tstamp", "2025-06-02 06:00:00", 1),
                                           ("'dup-no-time'", "cast(null as timestamp)", "2025-06-02 06:30:00", 1)]:
        project.runner.execute(f"""insert into {project.events_table} select {copies(event_id, derived, load)}
            from {project.events_table} where event_id is not null order by event_id limit {limit}""")
    watermark = project.rows(f"""select cast(max(watermark) as string) from {project.fresh('tl_incremental_manifest')}
        where model = 'tl_filtered_events'""")[0][0]
    whole = {"tideline__backfill_limit_days": 30}   # the aggregate's first window reads every load
    fix = ("; nothing was written. Fix them in the source, or set tideline__on_bad_rows to warn (count them) or "
           "quarantine (set them aside in {}__tl_quarantine)")
    project.refused(f"tideline: tl_filtered_events: 3 events of {project.events_table} loaded after {watermark} up to "
                    f"2025-06-02 07:00:00 have no event_id or no derived_tstamp (the first: loaded 2025-06-02 06:00:00, "
                    f"event_id null, no event_id){fix.format('tl_filtered_events')}",
                    lambda: run(project, "2025-06-02 07:00:00", expect_success=False, **clean))
    project.refused(f"tideline: daily_user_events_from_source: 3 events of {project.events_table}",
                    lambda: project.dbt("run", "--select", "daily_user_events_from_source", expect_success=False,
                                        vars={**VARS, "tideline__now": "2025-06-02 07:00:00", **clean, **whole}))

    aside = {"tideline__app_id": [], "tideline__on_bad_rows": "quarantine"}
    expected = [(project.events_table, "no derived_tstamp", "no-time-1", "2025-06-02T06:00:00.000Z", 1),
                (project.events_table, "no event_id", None, "2025-06-02T06:00:00.000Z", 1),
                (project.events_table, "no event_id", None, "2025-06-02T06:00:00.000Z", 1)]   # two rows, not copies

    def set_aside(model: str) -> list[tuple]:
        return sorted(((r["feed"], r["reason"], json.loads(r["found_row"]).get("event_id"),
                        json.loads(r["found_row"])["load_tstamp"], r["copy_number"])
                       for r in project.table(f"{model}__tl_quarantine")), key=repr)

    for now in ("2025-06-02 07:00:00", "2025-06-02 08:00:00"):
        run(project, now, **aside)
        assert set_aside("tl_filtered_events") == sorted(expected, key=repr), now
    assert project.rows(f"""select rows_read, rows_rejected, duplicates_dropped from {project.fresh('tl_incremental_manifest')}
        where model = 'tl_filtered_events' order by upper_limit""")[-1] == (6, 3, 2)
    assert project.rows(f"""select count(*), count_if(event_id = 'no-time-1' or event_id is null), count_if(event_id = 'dup-no-time')
        from {project.fresh('tl_filtered_events')}""") == [(world.rows_total() + 1, 0, 1)]
    project.dbt("run", "--select", "daily_user_events_from_source",
                vars={**VARS, "tideline__now": "2025-06-02 07:00:00", **aside, **whole})
    assert set_aside("daily_user_events_from_source") == sorted(expected, key=repr)


def test_rows_loaded_after_now_or_in_another_load_date_are_counted_and_warned_about(project):
    project.reset()
    world = EventWorld(seed=22, start=dt.datetime(2025, 6, 1), days=1, events_per_day=30, late_share=0,
                       duplicate_share=0, reload_share=0, pre_start_share=0, bot_share=0)
    project.load(world, until=dt.datetime(2025, 6, 3), cadence_seconds=3600)
    columns = project.runner.columns(f"select * from {project.events_table}")

    def copies(prefix: str, load_tstamp: str, load_date: str) -> str:
        values = {"event_id": f"concat('{prefix}', event_id)", "load_tstamp": load_tstamp, "load_date": load_date}
        return ", ".join(values.get(c, c) for c in columns)

    # 2 rows loaded (by a clock ahead) after the run's now; 3 rows filed under the wrong load_date
    project.runner.execute(f"""insert into {project.events_table} select {copies('future-', "timestamp'2025-06-09 00:00:00'", "date'2025-06-09'")}
        from {project.events_table} order by event_id limit 2""")
    project.runner.execute(f"""insert into {project.events_table} select {copies('misfiled-', "timestamp'2025-06-02 12:00:00'", "date'2025-06-04'")}
        from {project.events_table} where event_id not like 'future-%' order by event_id limit 3""")
    result = run(project, "2025-06-05 00:00:00", tideline__app_id=[])
    text = "\n".join(result.messages)
    assert "tideline: 2 rows of " in text and "have a load_tstamp after now (2025-06-05 00:00:00 UTC)" in text, text
    assert "tideline: 3 rows of " in text and "sit in a load_date partition other than the date of their load_tstamp" in text, text
    kept = project.rows(f"""select count_if(event_id like 'future-%'), count(*)
        from {project.fresh('tl_filtered_events')}""")
    assert kept[0][0] == 0


def test_a_state_table_of_another_version_is_refused_with_its_columns(project):
    project.reset()
    create_events_table(project.runner, project.events_table)
    project.runner.execute(f"create schema {project.schema}")
    old = f"{project.schema}.tl_state"
    project.runner.execute(f"""create table {old} (run_id string, kind string, batch timestamp, model string)
        using parquet partitioned by (model)""")
    result = project.refused(f"tideline: state table {old} has columns (run_id, kind, batch, model)",
                             lambda: run(project, "2025-06-03 00:00:00", expect_success=False))
    assert "migrates the layouts of its earlier versions only. Drop" in "\n".join(result.messages)
    assert project.tables() == ["tl_state"]


def test_a_state_table_of_the_earlier_layout_is_refused(project):
    project.reset()
    create_events_table(project.runner, project.events_table)
    project.runner.execute(f"create schema {project.schema}")
    old = f"{project.schema}.tl_daily_aggregation_manifest"
    project.runner.execute(f"""create table {old} (event_date date, processed_rows bigint, skipped_rows bigint,
        last_processed_at timestamp, batch timestamp, model string) using parquet partitioned by (model)""")
    result = project.refused(f"tideline: state table {old} is a table of an earlier version of tideline",
                             lambda: run(project, "2025-06-03 00:00:00", expect_success=False))
    assert "drop the old state tables" in "\n".join(result.messages)
    assert project.tables() == ["tl_daily_aggregation_manifest"]


def test_a_misspelt_var_is_refused_with_the_closest_name(project):
    project.reset()
    project.refused("tideline: var tideline__backfil_limit_days is not a tideline var (did you mean tideline__backfill_limit_days?)",
                    lambda: run(project, "2025-06-03 00:00:00", expect_success=False, tideline__backfil_limit_days=3))
    assert project.tables() == []

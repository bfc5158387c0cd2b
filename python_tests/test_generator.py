"""The event generator: deterministic, and each irregularity it claims, in its exact amount."""

from __future__ import annotations

import datetime as dt

import pytest

from tideline_tools.generator import DAY_US, EventWorld, load_events, truth_sql

WORLD = EventWorld(
    seed=7, start=dt.datetime(2025, 3, 1), days=4, events_per_day=500, users=40,
    late_share=0.08, max_late_days=2, duplicate_share=0.02, reload_share=0.03, reload_after_days=2,
    pre_start_share=0.02, pre_start_days=2, bot_share=0.04, bot_users=2,
)
GAP = (dt.datetime(2025, 3, 3), dt.datetime(2025, 3, 4))  # no loads on 2025-03-03
HOUR = 3600


@pytest.fixture(scope="module")
def loaded(project):
    """The whole WORLD loaded hourly, with the gap day, plus its hidden labels as a table."""
    load_events(project.runner, WORLD, project.events_table, until=WORLD.last_arrival(),
                cadence_seconds=HOUR, gaps=[GAP])
    project.runner.execute(f"create table {project.source_schema}.truth using parquet as {truth_sql(WORLD)}")
    return project


def test_world_counts_are_exact_shares():
    counts = WORLD.kind_counts()
    assert counts == {"late": 160, "pre_start": 40, "duplicate": 40, "reload": 60, "bot": 80}
    assert WORLD.rows_total() == 2000 + 40 + 60


def test_every_row_is_loaded_once(loaded):
    events, truth = loaded.events_table, f"{loaded.source_schema}.truth"
    assert loaded.rows(f"select count(*) from {events}") == [(WORLD.rows_total(),)]
    assert loaded.rows(f"select count(*) from {truth}") == [(WORLD.rows_total(),)]
    assert loaded.rows(f"select count(*) from {events} where load_tstamp is null or event_id is null") == [(0,)]


def test_same_load_duplicates(loaded):
    rows = loaded.rows(f"""
        select count(*), count(distinct derived_tstamp), count(distinct load_tstamp)
        from {loaded.events_table} group by event_id having count(*) > 1 and count(distinct load_tstamp) = 1""")
    assert len(rows) == WORLD.kind_counts()["duplicate"]
    assert all(r == (2, 1, 1) for r in rows)


def test_reloaded_duplicates_come_days_later_with_another_derived_tstamp(loaded):
    rows = loaded.rows(f"""
        select min(load_tstamp), max(load_tstamp), count(distinct derived_tstamp), count(*)
        from {loaded.events_table} group by event_id having count(distinct load_tstamp) > 1""")
    assert len(rows) == WORLD.kind_counts()["reload"]
    for first, last, derived, copies in rows:
        assert copies == 2 and derived == 2
        assert last - first >= dt.timedelta(days=WORLD.reload_after_days - 1)


def test_late_events_arrive_one_to_max_late_days_after_their_date(loaded):
    rows = loaded.rows(f"""
        select datediff(e.load_date, to_date(e.derived_tstamp)) as days_late
        from {loaded.events_table} as e
        join {loaded.source_schema}.truth as t on t.event_id = e.event_id and t._copy = 0
        where t._kind = 'late'""")
    assert len(rows) == WORLD.kind_counts()["late"]
    # A late event arrives 1..max_late_days days after its date; a gap can hold it back a day more.
    assert all(1 <= r[0] <= WORLD.max_late_days + 1 for r in rows)


def test_normal_events_are_loaded_within_one_load_cycle(loaded):
    worst = loaded.rows(f"""
        select max(unix_micros(e.load_tstamp) - unix_micros(e.collector_tstamp))
        from {loaded.events_table} as e
        join {loaded.source_schema}.truth as t on t.event_id = e.event_id
        where t._kind = 'normal' and e.load_date <> date'2025-03-04'""")[0][0]
    assert 0 < worst <= (HOUR + WORLD.normal_latency_seconds) * 1_000_000


def test_events_before_the_start_date(loaded):
    rows = loaded.rows(f"""
        select min(load_tstamp), count(*) from {loaded.events_table}
        where derived_tstamp < timestamp'2025-03-01 00:00:00'""")
    first_load, count = rows[0]
    assert count == WORLD.kind_counts()["pre_start"]
    assert first_load > dt.datetime(2025, 3, 1)


def test_bots(loaded):
    rows = loaded.rows(f"""
        select count(*), count(distinct domain_userid), min(event_name), max(event_name)
        from {loaded.events_table} where br_type = 'Robot' and useragent like '%bot%'""")
    assert rows == [(WORLD.kind_counts()["bot"], WORLD.bot_users, "page_view", "page_view")]


def test_no_loads_during_the_gap(loaded):
    dates = [r[0] for r in loaded.rows(f"select distinct load_date from {loaded.events_table} order by 1")]
    assert dt.date(2025, 3, 3) not in dates
    assert dt.date(2025, 3, 2) in dates and dt.date(2025, 3, 4) in dates
    # The first load after the gap carries everything that arrived during it.
    held_back = loaded.rows(f"""select count(*) from {loaded.events_table}
        where load_tstamp = timestamp'2025-03-04 00:00:00'""")[0][0]
    assert held_back > WORLD.events_per_day * 0.8


def test_same_seed_same_rows_other_seed_other_rows(project):
    """Determinism: two loads of the same world are identical row for row; another seed is not."""
    world = EventWorld(seed=11, start=dt.datetime(2025, 3, 1), days=2, events_per_day=300)
    other = EventWorld(seed=12, start=dt.datetime(2025, 3, 1), days=2, events_per_day=300)
    tables = {}
    for name, w in (("a", world), ("b", world), ("c", other)):
        tables[name] = f"{project.source_schema}.det_{name}"
        load_events(project.runner, w, tables[name], until=w.last_arrival(), cadence_seconds=HOUR)

    def differing(x, y):
        return project.rows(
            f"select count(*) from ((select * from {x} except all select * from {y}) "
            f"union all (select * from {y} except all select * from {x}))")[0][0]

    assert differing(tables["a"], tables["b"]) == 0
    assert project.rows(f"select count(*) from {tables['a']}") == [(world.rows_total(),)]
    assert differing(tables["a"], tables["c"]) > 0


def test_one_call_per_load_equals_a_bulk_load_at_the_same_cadence(project):
    """Loading tick by tick (one call = one load) gives the same table as one call with a cadence."""
    world = EventWorld(seed=3, start=dt.datetime(2025, 3, 1), days=1, events_per_day=200, max_late_days=1,
                       reload_after_days=1, pre_start_days=1)
    cadence = 12 * HOUR
    bulk, stepwise = f"{project.source_schema}.bulk", f"{project.source_schema}.stepwise"
    end = world.last_arrival().replace(tzinfo=None)
    gap = (dt.datetime(2025, 3, 2), dt.datetime(2025, 3, 3))
    load_events(project.runner, world, bulk, until=end, cadence_seconds=cadence, gaps=[gap])
    tick, previous = dt.datetime(2025, 3, 1, 12), None
    while tick <= end:
        if not gap[0] <= tick < gap[1]:
            load_events(project.runner, world, stepwise, until=tick, since=previous)
            previous = tick
        tick += dt.timedelta(seconds=cadence)
    assert project.rows(f"select count(*) from {stepwise}") == [(world.rows_total(),)]
    assert project.rows(
        f"select count(*) from (select * from {bulk} except all select * from {stepwise})") == [(0,)]


def test_a_load_resumes_after_the_last_one(project):
    """Without `since`, a load takes what arrived after the table's latest load_tstamp."""
    world = EventWorld(seed=5, start=dt.datetime(2025, 3, 1), days=1, events_per_day=200)
    table = f"{project.source_schema}.resume"
    first = load_events(project.runner, world, table, until=dt.datetime(2025, 3, 1, 12))
    second = load_events(project.runner, world, table, until=world.last_arrival())
    assert first > 0 and second > 0 and first + second == world.rows_total()
    assert load_events(project.runner, world, table, until=world.last_arrival() + dt.timedelta(hours=1)) == 0


@pytest.mark.parametrize("settings, message", [
    ({"days": 0}, "days must be >= 1"),
    ({"late_share": 0.7, "bot_share": 0.5}, "sum to <= 1"),
    ({"event_mix": (("scroll", 1),)}, "event_mix names"),
    ({"users": 0}, "users must be >= 1"),
])
def test_bad_world_settings_are_refused(settings, message):
    with pytest.raises(ValueError, match=message):
        EventWorld(**settings)


def test_bad_load_arguments_are_refused(project):
    table = f"{project.source_schema}.bad"
    with pytest.raises(ValueError, match="since .* must be before until"):
        load_events(project.runner, WORLD, table, until="2025-03-01", since="2025-03-02")
    with pytest.raises(ValueError, match="tick of the 3600s cadence"):
        load_events(project.runner, WORLD, table, until="2025-03-01 00:30", cadence_seconds=HOUR)
    assert DAY_US == 86_400 * 1_000_000

"""Channels with mutable time (seed 003, FlightStats Hub) from a project that installs tideline
as a package (examples/channels): real-time items while two writers insert and delete history
in mixed order; every epoch query after every run against an independent Python reference
(python_tests/reference_channel.py); moving mutable_time earlier after its checks; the
refusals, with nothing changed; a continual task downstream that sees each stable item once;
a full refresh that gives the same items."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

import pytest

from harness import CrashPoints, Project, assert_rows_equal, end_to_end_property, project_copy
from channel_histories import M0, change, channel_runs, events, item, t
from reference_channel import Channel, Refused

CHANNELS = Path(__file__).parent.parent / "examples" / "channels"
REALTIME = "item_time timestamp, item_id string, value int, label string, load_tstamp timestamp"
CHANGES = "op string, item_time timestamp, item_id string, value int, label string, changed_at timestamp"
START, END, AT = dt.datetime(2025, 2, 27), dt.datetime(2025, 3, 2, 12), dt.datetime(2025, 2, 28, 12)
EPOCH_VIEWS = ["readings_all", "readings_mutable", "readings_immutable_range", "readings_mutable_range",
               "readings_latest", "readings_earliest", "readings_next", "readings_previous"]
COLUMNS = ["item_time", "item_id", "value", "label"]
WRITERS = ("hub.backfill_a", "hub.backfill_b")   # readings' config changes: part of the id of a write without one


def empty_sources(project) -> None:
    for name, columns in (("realtime", REALTIME), ("backfill_a", CHANGES), ("backfill_b", CHANGES)):
        project.write_source(name, columns, [], replace=True)


@pytest.fixture(scope="module")
def channel_project(runner):
    project = Project(runner, "channels")
    project.reset()
    project.dbt("deps", project_dir=CHANNELS)
    empty_sources(project)
    yield project
    project.reset()


def run(project, now: dt.datetime, mutable_time: dt.datetime = M0, select: str = "readings readings_copy", *extra: str,
        expect_success: bool = True, on_event=None, more_vars: dict | None = None):
    """dbt run of the channel and its continual task (select "readings+" adds the epoch views,
    which a first run creates: as views they read the channel's latest state ever after)."""
    return project.dbt("run", "--select", *select.split(), *extra, project_dir=CHANNELS, expect_success=expect_success,
                       on_event=on_event, vars={"channels__source": project.source_schema, "tideline__now": now.strftime("%Y-%m-%d %H:%M:%S"),
                             "channels__mutable_time": mutable_time.strftime("%Y-%m-%d %H:%M:%S"), **(more_vars or {})})


def load(project, realtime: list[dict] = (), a: list[dict] = (), b: list[dict] = ()) -> list[tuple[int, dict]]:
    project.write_source("realtime", REALTIME, realtime)
    project.write_source("backfill_a", CHANGES, a)
    project.write_source("backfill_b", CHANGES, b)
    return [(0, c) for c in a] + [(1, c) for c in b]


def assert_epochs(project, ref: Channel, label: str) -> None:
    expected = {
        "readings": ref.epoch("IMMUTABLE"),
        "readings_all": ref.epoch("ALL"),
        "readings_mutable": ref.epoch("MUTABLE"),
        "readings_immutable_range": ref.range("IMMUTABLE", START, END),
        "readings_mutable_range": ref.range("MUTABLE", START, END),
        "readings_latest": ref.latest(3, "ALL"),
        "readings_earliest": ref.earliest(3, "MUTABLE"),
        "readings_next": ref.next(AT, 3),
        "readings_previous": ref.previous(AT, 3, "ALL"),
    }
    found = project.read_tables(list(expected), COLUMNS)
    for view, rows in expected.items():
        assert_rows_equal(found[view], rows, label=f"{view} {label}")


def committed_runs(project) -> int:
    return project.rows(f"select count(*) from {project.fresh('tl_state')} where model = 'readings' and kind = 'run'")[0][0]


def test_the_seeds_scenario_epochs_moves_refusals_and_downstream(channel_project):
    project = channel_project
    ref = Channel(M0, checks={"value_not_negative": lambda v: v["value"] >= 0, "label_present": lambda v: v["label"] is not None})
    realtime: list[dict] = []
    changes: list[tuple[int, dict]] = []

    def step(now, rt=(), a=(), b=(), move_to=None, refused: str | None = None, first: bool = False):
        rt = [{**r, "load_tstamp": now - dt.timedelta(minutes=30)} for r in rt]
        realtime.extend(rt)
        changes.extend(load(project, list(rt), list(a), list(b)))
        before = None
        if refused:
            before = {v: project.table(v, COLUMNS) for v in ["readings", "readings_all"]}, committed_runs(project)
            with pytest.raises(Refused):
                ref.run(now, realtime, changes, move_to)
        else:
            ref.run(now, realtime, changes, move_to)
        result = run(project, now, move_to or ref.mutable_time, "readings+" if first else "readings readings_copy",
                     expect_success=refused is None)
        if refused:
            text = " ".join(result.messages)
            assert "tideline: channel readings" in text and refused in text, f"run at {now}: {result.success} {text}"
            assert ({v: project.table(v, COLUMNS) for v in ["readings", "readings_all"]}, committed_runs(project)) == before, \
                "a refused run changed the channel"
        else:
            assert_epochs(project, ref, f"after the run at {now}")
            assert_rows_equal(project.table("readings_copy", COLUMNS), ref.epoch("IMMUTABLE"), label=f"readings_copy at {now}")

    # run 1: real-time items after mutable_time; two writers insert history at or before it
    # (r2 twice in one load: the last by payload is kept)
    step(t(29, 6), rt=[item(t(29, 1), "r1", 10), item(t(29, 2), "r2", 20), item(t(29, 2), "r2", 21)],
         a=[change("insert", t(27, 10), "a1", t(28, 1), 1), change("insert", t(28, 9), "a2", t(28, 2), 2)],
         b=[change("insert", t(28, 9), "b1", t(28, 3), 3), change("insert", M0, "b0", t(28, 4), 4)], first=True)
    # run 2: more real-time; B deletes A's item before A changes it again (mixed order across
    # writers), an item exactly at mutable_time is mutable, deletes of missing items are counted
    step(t(29, 12), rt=[item(t(29, 7), "r3", 30)],
         a=[change("insert", t(27, 10), "a1", t(29, 9), 11), change("insert", t(28, 20), "a3", t(29, 8), -5),
            # a delete and an insert of one item at one change time: the delete first, so it stays
            change("insert", t(28, 5), "tie", t(29, 9), 8), change("delete", t(28, 5), "tie", t(29, 9))],
         b=[change("delete", t(27, 10), "a1", t(29, 7)), change("delete", t(28, 9), "missing", t(29, 7)),
            change("insert", t(28, 18), "b2", t(29, 10), 6, None)])
    assert project.rows(f"select sum(missing_deletes) from {project.fresh('tl_state')} where model = 'readings'")[0][0] == 2
    # run 3: a move whose checks fail (a3 is negative, b2 has no label): refused, nothing moves
    step(t(29, 13), move_to=AT, refused="check value_not_negative fails for 1 items from 2025-02-28 20:00:00")
    # run 4: the writers fix them, and the move goes through: a3, b2 and b0 become stable and
    # reach the continual task downstream once
    step(t(29, 14), a=[change("insert", t(28, 20), "a3", t(29, 13), 5)], b=[change("insert", t(28, 18), "b2", t(29, 13), 6, "fixed")],
         move_to=AT)
    # the refusals, each with nothing changed
    step(t(29, 15), move_to=M0, refused="mutable_time can only move earlier")
    step(t(29, 16), a=[change("insert", t(28, 13), "late", t(29, 15), 1)], refused="change rows are for items after mutable_time 2025-02-28 12:00:00")
    changes.pop()   # the writer takes its refused row back
    project.write_source("backfill_a", CHANGES, [c for w, c in changes if w == 0], replace=True)
    step(t(29, 17), rt=[item(t(28, 11), "early", 1)], refused="real-time items are at or before mutable_time")
    realtime.pop()
    project.write_source("realtime", REALTIME, realtime, replace=True)
    # run 5: real-time goes on after the refusals
    # (r1 loaded again with another value: a stable item is immutable, the copy is a duplicate)
    step(t(29, 18), rt=[item(t(29, 17), "r4", 40), item(t(29, 1), "r1", 99)])

    # a full refresh replays every change and move: the same items in every epoch. Each change
    # row is judged under the boundary in force when it was committed (a3 and b2, changed under
    # M0 before the move to AT, are after AT), from the history the state keeps; the rebuild
    # carries the history over as move rows, so a second full refresh judges them the same way
    for rebuild in ("a first", "a second"):
        run(project, t(29, 19), ref.mutable_time, "readings+", "--full-refresh")
        assert_epochs(project, ref, f"after {rebuild} --full-refresh")
        assert_rows_equal(project.table("readings_copy", COLUMNS), ref.epoch("IMMUTABLE"), label=f"readings_copy after {rebuild} --full-refresh")
        moves = project.rows(f"select cast(batch as string), cast(mutable_time as string) from {project.fresh('tl_state')} "
                             "where model = 'readings' and kind = 'move' order by batch")
        assert moves == [("2025-03-01 06:00:00", "2025-03-01 00:00:00"), ("2025-03-01 14:00:00", "2025-02-28 12:00:00")], moves



# ---- a crash after any statement of a first run and of a run that changes and moves ---------

@pytest.mark.formats("parquet", "delta", "iceberg")
@pytest.mark.make_test_formats("delta")
def test_a_crash_after_any_statement_then_a_rerun_equals_an_uninterrupted_run(runner, channel_project, file_format, crash_report):
    """A first run (real-time items, history from both writers), then a run that changes items
    and moves mutable_time, both compacting the items table (compact_every 1); each repeated
    until it finishes, each attempt dying after the first statement that changes storage no
    earlier attempt died after (harness.CrashPoints). After each crash every table a reader
    sees holds what it held before the run or what it holds after it, nothing between; after
    each run the epochs equal the reference. A last run that writes compacts away every row no
    reader keeps: the superseded version of a1, the mutable a2 the move made stable, and the
    rows of the attempts that died: the items table is then the ALL epoch, row for row."""
    project = Project(runner, f"channel_crash_{file_format}", file_format=file_format)
    project.reset()
    readers = {"readings": "IMMUTABLE", "readings_all": "ALL", "readings_copy": "IMMUTABLE"}
    try:
        empty_sources(project)
        points = CrashPoints(project)
        ref = Channel(M0)
        rt1 = [{**item(t(29, 1), "r1", 10), "load_tstamp": t(29, 2)}]
        a1 = [change("insert", t(28, 9), "a1", t(28, 1), 1), change("insert", t(28, 20), "a2", t(28, 2), 2)]
        b1 = [change("insert", t(27, 9), "b1", t(28, 3), 3)]
        rt2 = [{**item(t(29, 7), "r2", 20), "load_tstamp": t(29, 8)}]
        a2 = [change("delete", t(28, 9), "a1", t(29, 7)), change("insert", t(28, 22), "a3", t(29, 8), 5)]
        b2 = [change("insert", t(28, 9), "a1", t(29, 7), 9)]
        realtime: list[dict] = []
        changes: list[tuple[int, dict]] = []
        for now, mutable_time, (rt, a, b) in ((t(29, 6), M0, (rt1, a1, b1)), (t(29, 12), AT, (rt2, a2, b2))):
            changes += load(project, rt, a, b)
            realtime += rt
            before = {view: readable(project, view) for view in readers}
            ref.run(now, realtime, changes, move_to=None if mutable_time == M0 else mutable_time)
            after = {view: ref.epoch(epoch) for view, epoch in readers.items()}
            points.until_done(lambda on_event: run(project, now, mutable_time, "readings readings_all readings_copy",
                                                   expect_success=False, on_event=on_event, more_vars=COMPACT_EVERY_RUN),
                              f"run at {now}", after_crash=CrashPoints.before_or_after(
                                  lambda: {view: readable(project, view) for view in readers}, before, after))
            for view in readers:
                assert_rows_equal(project.table(view, COLUMNS), after[view], label=f"{view} after the run at {now}")
        assert committed_runs(project) == 2
        rt3 = [{**item(t(29, 13), "r3", 30), "load_tstamp": t(29, 14)}]
        changes += load(project, rt3)
        realtime += rt3
        ref.run(t(29, 15), realtime, changes)
        run(project, t(29, 15), AT, "readings readings_all readings_copy", more_vars=COMPACT_EVERY_RUN)
        assert_rows_equal(project.table("readings_all", COLUMNS), ref.epoch("ALL"), label="readings_all after the compacting run")
        assert_rows_equal(project.table("readings__tl_items", COLUMNS), ref.epoch("ALL"), label="the items table after the compacting run")
        assert points.nodes() >= {"readings", "readings_copy"}, points.nodes()
        project.assert_formats(["readings__tl_items", "tl_state"])
        crash_report(points.report(f"channel and its continual task ({file_format})"))
    finally:
        project.reset()


COMPACT_EVERY_RUN = {"tideline__compact_every": 1}


def readable(project, view: str) -> list[dict] | None:
    """What a reader of the view sees, or None when it does not exist yet (a first run)."""
    if not project.exists(view):
        return None
    return project.table(view, COLUMNS)


# ---- any interleaving of writers, real-time items and moves, split into runs (hypothesis) ----

import random  # noqa: E402

from hypothesis import example, given  # noqa: E402
from hypothesis import strategies as st  # noqa: E402


@end_to_end_property(make_test=1)
@given(history=events, runs=st.integers(1, 3), seed=st.randoms(use_true_random=False))
def test_any_interleaving_of_writers_and_moves_split_into_runs_equals_the_reference(runner, channel_project, history, runs, seed):
    """A random history of channel_histories (writers change only items at or before
    mutable_time, real-time items come after it, moves take it earlier; ties between the
    writers, and a delete and an insert of one key in one minute), split into runs."""
    project = Project(runner, "channel_property")
    project.reset()
    try:
        empty_sources(project)
        ref = Channel(M0, writers=WRITERS)
        realtime: list[dict] = []
        changes: list[tuple[int, dict]] = []
        cuts, runs_ = channel_runs(history, runs, seed, WRITERS)
        for i, step in enumerate(runs_):
            realtime += step.realtime
            changes += load(project, step.realtime, step.a, step.b)
            ref.run(step.now, realtime, changes, step.move_to)
            run(project, step.now, ref.mutable_time, "readings+" if i == 0 else "readings readings_copy")
        assert_epochs(project, ref, f"after {len(history)} events in runs cut at {cuts}")
        assert_rows_equal(project.table("readings_copy", COLUMNS), ref.epoch("IMMUTABLE"), label="readings_copy")
    finally:
        project.reset()


LOADED = CHANGES + ", loaded_at timestamp"
LATE = ("materialized='channel', item_id='item_id', arrival_column='load_tstamp', columns={'value': 'int', 'label': 'string'}, "
        "changes=['hub.backfill_a', 'hub.backfill_b'], change_arrival_column='loaded_at', mutable_time=var('channels__mutable_time')")
LATE_SELECT = ("-- depends_on: {{ source('hub', 'backfill_a') }}, {{ source('hub', 'backfill_b') }}\n"
               "select item_time, item_id, value, label, load_tstamp from {{ source('hub', 'realtime') }}")


def write_late_channel(name: str) -> list[Path]:
    """A channel `name` with change_arrival_column (LATE) in examples/channels, and a view of its
    ALL epoch, `<name>_all`: the paths of their model files, for the test to remove."""
    models = {name: f"{{{{ config({LATE}) }}}}\n{LATE_SELECT}\n",
              f"{name}_all": f"{{{{ config(materialized='view') }}}}\nselect * from {{{{ tideline.channel_items(ref('{name}'), 'ALL') }}}}\n"}
    paths = [CHANNELS / "models" / f"{model}.sql" for model in models]
    for path, text in zip(paths, models.values()):
        path.write_text(text)
    return paths


def loaded(op: str, time: dt.datetime, item_id: str, changed_at: dt.datetime, loaded_at: dt.datetime, value: int = 0) -> dict:
    """A change row with its load time (the column change_arrival_column names)."""
    return {**change(op, time, item_id, changed_at, value), "loaded_at": loaded_at}


@pytest.mark.extended   # make test: the named late rows (test_change_rows_loaded_late_...) and the random interleavings above
@end_to_end_property(make_test=1)
@given(history=events, runs=st.integers(2, 4), seed=st.randoms(use_true_random=False))
# posts, an unpost and a delete loaded late behind later ops (2 superseded), then two moves
@example(history=[("a_post", 1, 0), ("rt_post", 5, 3), ("a_insert", 5, 7), ("a_unpost", 3, 9), ("a_delete", 0, 9), ("rt", 3, 6),
                  ("b_insert", 4, 1), ("a_unpost", 1, 7), ("move", 1, 9), ("move", 0, 7)], runs=3, seed=random.Random(763397))
def test_any_split_with_change_rows_loaded_late_equals_the_reference(runner, channel_project, history, runs, seed):
    """Issue 36, items 4 and 7: a random history of channel_histories split into runs, as above,
    with change_arrival_column: each change row is loaded with its run or, one in two, with a
    later run (loaded late, behind what was applied: superseded, applied in its place, or, for
    an item a move made stable meanwhile, refused). After every run the epochs equal the
    reference, which reads the rows by load time and applies each at its commit time; a run the
    reference refuses is refused and ends the example, with the epochs as before it."""
    project = Project(runner, "channel_late_property")
    project.reset()
    name = "tmp_late_property"
    paths = write_late_channel(name)
    try:
        project.write_source("realtime", REALTIME, [], replace=True)
        for writer in ("backfill_a", "backfill_b"):
            project.write_source(writer, LOADED, [], replace=True)
        ref = Channel(M0, writers=WRITERS, arrival="loaded_at")
        cuts, runs_ = channel_runs(history, runs, seed, WRITERS)
        loads: list[tuple[list, list]] = [([], []) for _ in runs_]   # each run's rows of writers A and B
        late = 0
        for i, step in enumerate(runs_):
            for w, rows in enumerate((step.a, step.b)):
                for row in rows:
                    j = i if i == len(runs_) - 1 or seed.random() < 1 / 2 else seed.randint(i + 1, len(runs_) - 1)
                    late += j > i
                    loads[j][w].append({**row, "loaded_at": row["changed_at"] if j == i else runs_[j].now - dt.timedelta(seconds=10)})
        realtime: list[dict] = []
        changes: list[tuple[int, dict]] = []
        for i, step in enumerate(runs_):
            a, b = loads[i]
            project.write_source("realtime", REALTIME, step.realtime)
            project.write_source("backfill_a", LOADED, a)
            project.write_source("backfill_b", LOADED, b)
            realtime += step.realtime
            changes += [(0, c) for c in a] + [(1, c) for c in b]
            vars = {"channels__source": project.source_schema, "tideline__now": step.now.strftime("%Y-%m-%d %H:%M:%S")}
            try:
                ref.run(step.now, realtime, changes, step.move_to)
            except Refused:
                target = step.move_to or ref.mutable_time
                result = project.dbt("run", "--select", name, f"{name}_all", project_dir=CHANNELS, expect_success=False,
                                     vars={**vars, "channels__mutable_time": target.strftime("%Y-%m-%d %H:%M:%S")})
                assert not result.success, f"the reference refused the run at {step.now}, tideline did not"
                break
            project.dbt("run", "--select", name, f"{name}_all", project_dir=CHANNELS,
                        vars={**vars, "channels__mutable_time": ref.mutable_time.strftime("%Y-%m-%d %H:%M:%S")})
        label = f"after {len(history)} events in runs cut at {cuts}, {late} change rows loaded late"
        for model, epoch in ((name, "IMMUTABLE"), (f"{name}_all", "ALL")):
            assert_rows_equal(project.table(model, COLUMNS), ref.epoch(epoch), label=f"{model} {label}")
        skipped = project.rows(f"select coalesce(sum(late_rows_skipped), 0) from {project.fresh('tl_state')} "
                               f"where model = '{name}' and kind = 'run'")[0][0]
        assert skipped == ref.superseded, f"{label}: {skipped} change rows superseded, the reference {ref.superseded}"
    finally:
        for path in paths:
            path.unlink()
        project.reset()


# ---- bad input: refused before anything is written, naming the channel and the value ----------

GOOD = ("materialized='channel', item_id='item_id', arrival_column='load_tstamp', columns={'value': 'int', 'label': 'string'}, "
        "changes=['hub.backfill_a']")
SELECT = "-- depends_on: {{ source('hub', 'backfill_a') }}\nselect item_time, item_id, value, label, load_tstamp from {{ source('hub', 'realtime') }}"
BAD_CHANNELS = {
    "bad_future": (GOOD + ", mutable_time='2099-01-01'", SELECT,
                   "mutable_time = 2099-01-01 is invalid; accepted: a time in the past (now is 2025-03-02 00:00:00 UTC)"),
    "bad_unparseable": (GOOD + ", mutable_time='yesterday'", SELECT, "mutable_time = yesterday is invalid; accepted: a UTC time "
                        "written YYYY-MM-DD[ HH:MM[:SS[.fff]]] that exists on the calendar"),
    "bad_retention": (GOOD + ", mutable_time='2025-01-01', retention_days=30", SELECT,
                      "mutable_time and retention_days cannot be combined: a channel with mutable_time keeps its history for good "
                      "(as the Hub refuses ttlDays and maxItems)"),
    "bad_config_name": (GOOD + ", retention_day=30", SELECT,
                        "config retention_day is not a config of materialized='channel' (did you mean retention_days?); its "
                        "configs: arrival_column, change_arrival_column, change_time, changes, checks, columns, compact_every, file_format, item_id, "
                        "item_time, late_row_lookback, mutable_time, on_bad_rows, retention_days"),
    "bad_late_row_lookback": (GOOD + ", late_row_lookback='1w'", SELECT,
                              "late_row_lookback = 1w is invalid; accepted: a whole number and a unit, s, m, h or d (30m, 6h, 1d; "
                              "0s recounts nothing)"),
    "bad_compact_every": (GOOD + ", compact_every=0", SELECT,
                          "compact_every = 0 is invalid; accepted: an integer >= 1 (runs between compactions)"),
    "bad_on_bad_rows": (GOOD + ", on_bad_rows='warn'", SELECT,
                        "tideline: channel bad_on_bad_rows: on_bad_rows = \"warn\" is invalid; accepted: fail (the default: a run "
                        "with a change row it cannot apply is refused before anything is written, naming the first by its writer, key "
                        "and commit time) or quarantine (the other change rows are applied, and each bad one is set aside once in "
                        "<channel>__tl_quarantine with the reason and counted)"),
    "bad_columns": ("materialized='channel', columns={'op': 'string'}", SELECT,
                    "columns = op is invalid; accepted: payload columns other than the item time, the item id, the arrival "
                    "column, item_date, op, the change time and the change arrival column"),
    "bad_change_arrival": (GOOD + ", mutable_time='2025-01-01', change_arrival_column='loaded_at'", SELECT,
                           "changes = hub.backfill_a is invalid; accepted: relations with the columns op, item_time, changed_at, item_id, "
                           "loaded_at and the payload columns ({source}.backfill_a lacks loaded_at)"),
    "bad_change_arrival_alone": ("materialized='channel', columns={'value': 'int'}, change_arrival_column='loaded_at'", SELECT,
                                 "change_arrival_column = loaded_at is invalid; accepted: the load time column of the change relations, "
                                 "on a channel with changes"),
    "bad_change_relation": (GOOD.replace("hub.backfill_a", "hub.realtime") + ", mutable_time='2025-01-01'",
                            "-- depends_on: {{ source('hub', 'backfill_a') }}\n" + SELECT,
                            "changes = hub.realtime is invalid; accepted: relations with the columns op, item_time, changed_at, "
                            "item_id and the payload columns ({source}.realtime lacks op, changed_at)"),
    "bad_epoch": ("materialized='view'", "select * from {{ tideline.channel_items(ref('readings'), 'SOMETIMES') }}",
                  "tideline: channel readings: epoch = SOMETIMES is invalid; accepted: IMMUTABLE (the default), MUTABLE or ALL"),
    "bad_count": ("materialized='view'", "select * from {{ tideline.channel_latest(ref('readings'), 0) }}",
                  "tideline: channel readings: n = 0 is invalid; accepted: an integer >= 1"),
    "bad_next_time": ("materialized='view'", "select * from {{ tideline.channel_next(ref('readings'), 'soon', 3) }}",
                      "tideline: channel readings: after = soon is invalid; accepted: a UTC time written "
                      "YYYY-MM-DD[ HH:MM[:SS[.fff]]] that exists on the calendar"),
    "bad_item_id": ("materialized='view'",
                    "select * from {{ tideline.channel_previous(ref('readings'), '2025-02-28 12:00', 3, 'ALL', ['r1']) }}",
                    'tideline: channel readings: item_id = ["r1"] is invalid; accepted: the id of an item (a string or a '
                    "number), or none for the time alone"),
}


def test_bad_settings_and_epoch_queries_are_refused_naming_the_channel_and_the_value(channel_project):
    """Every model of BAD_CHANNELS, in one dbt run: each refused with its own message, nothing written."""
    project = channel_project
    paths = []
    for name, (config, body, _) in BAD_CHANNELS.items():
        paths.append(CHANNELS / "models" / f"{name}.sql")
        paths[-1].write_text(f"{{{{ config({config}) }}}}\n{body}\n")
    try:
        project.runner.execute(f"create schema if not exists {project.schema}")
        if not project.rows(f"show tables in {project.schema} like 'readings'"):
            run(project, t(29, 6), M0, "readings")
        expected = {}
        for name, (_, _, message) in BAD_CHANNELS.items():
            message = message.format(source=project.source_schema)
            expected[name] = message if message.startswith("tideline: ") else f"tideline: channel {name}: {message}"
        project.refused_each(expected, lambda: project.dbt("run", "--select", *BAD_CHANNELS, project_dir=CHANNELS, expect_success=False,
                                                           vars={"channels__source": project.source_schema, "tideline__now": "2025-03-02 00:00:00"}))
    finally:
        for path in paths:
            path.unlink()


@pytest.mark.both_targets   # the channel's multi-run scenario on the cluster: runs, a refusal, a mutable time given
def test_a_channel_without_mutable_time_can_be_given_one_before_its_items_and_never_lose_it(runner, channel_project):
    """A channel built without mutable_time, then given one: refused where stable items would
    become mutable again, accepted before them (history can then be inserted); removing it
    afterwards is refused."""
    project = Project(runner, "channel_conversion")
    project.reset()
    path = CHANNELS / "models" / "bad_conversion.sql"
    path.write_text("-- depends_on: {{ source('hub', 'backfill_a') }}\n{{ config(materialized='channel', item_id='item_id', "
                    "arrival_column='load_tstamp', columns={'value': 'int', 'label': 'string'}, changes=['hub.backfill_a'], "
                    "mutable_time=var('conversion__mutable_time', none)) }}\n"
                    "select item_time, item_id, value, label, load_tstamp from {{ source('hub', 'realtime') }}\n")

    def convert(now, mutable_time=None, expect_success=True):
        extra = {"conversion__mutable_time": mutable_time} if mutable_time else {}
        return project.dbt("run", "--select", "bad_conversion", project_dir=CHANNELS, expect_success=expect_success,
                           vars={"channels__source": project.source_schema, "tideline__now": now, **extra})

    try:
        empty_sources(project)
        project.write_source("realtime", REALTIME, [{**item(t(29, 1), "r1", 1), "load_tstamp": t(29, 2)}])
        convert("2025-03-01 06:00:00")
        project.refused("tideline: channel bad_conversion: mutable_time = 2025-03-01 01:00:00 would make 1 stable items "
                        "(up to 2025-03-01 01:00:00) mutable again, after downstream models have read them; give it a "
                        "mutable_time before its earliest item",
                        lambda: convert("2025-03-01 07:00:00", "2025-03-01 01:00:00", expect_success=False))
        project.write_source("backfill_a", CHANGES, [change("insert", t(27, 5), "h1", t(29, 7), 7)])
        convert("2025-03-01 08:00:00", "2025-02-28 00:00:00")
        assert project.rows(f"select item_id, value, _tl_stable from {project.fresh('bad_conversion__tl_items')} order by item_id") == \
            [("h1", 7, False), ("r1", 1, True)]
        project.refused("tideline: channel bad_conversion: mutable_time 2025-02-28 00:00:00 cannot be removed; to make every item "
                        "stable, move it earlier than the earliest item",
                        lambda: convert("2025-03-01 09:00:00", expect_success=False))
        assert project.rows(f"select count(*) from {project.fresh('tl_state')} where model = 'bad_conversion' and kind = 'run'")[0][0] == 2
    finally:
        path.unlink()
        project.reset()


def test_a_first_build_that_fails_leaves_nothing_behind(runner, channel_project):
    """A channel's first build that fails (a value too large for its int column): the run fails
    naming the value and nothing of the snapshot changed: no view, no items table, no state row.
    The channel's decide query casts the payload, so it fails before anything is created and the
    run's end has nothing to drop (a derivation's and a continual task's first builds fail in
    their write, after their creates: their tests show the drop). With the select fixed, the
    rerun builds the channel."""
    project = Project(runner, "channel_first_build")
    project.reset()
    name = "tmp_first_build_fails"
    path = CHANNELS / "models" / f"{name}.sql"
    select = SELECT.replace("select item_time, item_id, value,", "select item_time, item_id, VALUE as value,")
    path.write_text(f"{{{{ config({GOOD}) }}}}\n{select.replace('VALUE', 'value * 10000000000')}\n")

    def build(expect_success=True):
        return project.dbt("run", "--select", name, project_dir=CHANNELS, expect_success=expect_success,
                           vars={"channels__source": project.source_schema, "tideline__now": "2025-03-01 06:00:00"})

    try:
        empty_sources(project)
        project.write_source("realtime", REALTIME, [{**item(t(29, 1), "r1", 3), "load_tstamp": t(29, 2)}])
        project.ensure_state(CHANNELS)
        failed = project.refused(f"tideline: channel {name}: column value is not a int: 30000000000", lambda: build(expect_success=False))
        project.assert_reported_as(failed, name, f"tideline: channel {name}: column value is not a int: 30000000000")
        assert not [line for line in failed.tideline_lines if "first build failed" in line], failed.tideline_lines
        path.write_text(f"{{{{ config({GOOD}) }}}}\n{select.replace('VALUE', 'value * 10')}\n")
        build()
        assert project.rows(f"select item_id, value from {project.fresh(name)}") == [("r1", 30)]
    finally:
        path.unlink()
        project.reset()


def test_a_first_build_judges_change_rows_as_later_runs_do_and_bad_ones_are_set_aside_on_request(runner, channel_project):
    """Issue 36, items 2 and 6: a channel's first build checks its change rows against the
    mutable_time it is created with, as every later run does: a change row for an item after it
    is refused, located by its writer, key and commit time, and nothing is created. Under
    on_bad_rows='quarantine' the other rows are applied and each bad one (that row, one with an
    op other than insert or delete, and a delete without an id) is set aside once in the
    quarantine with its reason, counted in the run line and the state."""
    project = Project(runner, "channel_first_checks")
    project.reset()
    name = "tmp_first_build_judged"
    path = CHANNELS / "models" / f"{name}.sql"
    path.write_text(f"{{{{ config({GOOD}, mutable_time='2025-02-28 12:00') }}}}\n{SELECT}\n")

    def build(now="2025-03-01 06:00:00", expect_success=True):
        return project.dbt("run", "--select", name, project_dir=CHANNELS, expect_success=expect_success,
                           vars={"channels__source": project.source_schema, "tideline__now": now})

    legal = change("insert", t(28, 9), "kept", t(28, 10), 1)
    after = change("insert", t(28, 20), "after", t(28, 21), 2)
    upsert = change("upsert", t(28, 8), "odd", t(28, 22), 3)
    nameless = change("delete", t(28, 7), None, t(28, 23), 4)
    try:
        empty_sources(project)
        project.write_source("backfill_a", CHANGES, [legal, after])
        project.ensure_state(CHANNELS)
        project.refused(f"tideline: channel {name}: 1 change rows are for items after mutable_time 2025-02-28 12:00:00 (the first: "
                        "writer hub.backfill_a, item 2025-02-28 20:00:00 after, committed 2025-02-28 21:00:00, op \"insert\"): items "
                        "after it are stable; move mutable_time only earlier, and change only items at or before it; nothing was "
                        f"applied. With on_bad_rows='quarantine' the other change rows are applied and such rows set aside in "
                        f"{name}__tl_quarantine", lambda: build(expect_success=False))
        # set aside on request: the legal row applied, the two bad ones listed once each
        path.write_text(f"{{{{ config({GOOD}, mutable_time='2025-02-28 12:00', on_bad_rows='quarantine') }}}}\n{SELECT}\n")
        project.write_source("backfill_a", CHANGES, [upsert, nameless])
        result = build()
        assert any(f"3 change rows could not be applied and were set aside in {name}__tl_quarantine (1 with an op other than "
                   "insert or delete, 1 deletes without an item id, 1 for items after the mutable_time in force when they were committed)" in m
                   for m in result.messages + result.tideline_lines), result.messages
        assert_rows_equal(project.table(f"{name}__tl_items", COLUMNS), [{k: legal[k] for k in COLUMNS}])
        build("2025-03-01 07:00:00")
        quarantined = sorted((r["feed"], r["reason"], json.loads(r["found_row"]).get("item_id"), r["copy_number"])
                             for r in project.table(f"{name}__tl_quarantine"))
        assert quarantined == [("hub.backfill_a", "a delete without the id of its item", None, 1),
                               ("hub.backfill_a", "an item after the mutable_time in force when it was committed", "after", 1),
                               ("hub.backfill_a", "an op other than insert or delete", "odd", 1)], quarantined
        assert project.rows(f"select rows_rejected, rows_written from {project.fresh('tl_state')} where model = '{name}' "
                            "and kind = 'run' order by batch") == [(3, 1)]
    finally:
        path.unlink()
        project.reset()


def test_a_change_row_committed_behind_the_watermark_is_refused_or_set_aside_never_lost(runner, channel_project):
    """Issue 36, item 4 (in part) and issue 34: a writer commits a change row with a change time
    at or before the watermark of the run that already read up to it, so no run applies it. The
    next run recounts the writer's range behind that watermark (late_row_lookback, 1d): under
    on_bad_rows='fail', the default, it is refused before anything is written, naming the
    writer, the range, the rows then and now and the row (its item id and change time: written
    since that run read); under 'quarantine' the run goes on without it (with a new legal
    change), warns in its line, records rows_behind_watermark and sets the row aside once; the run after it neither warns nor lists again. Its inserts follow the items
    table's column order whatever order dbt gives the columns mapping in (run after the file's
    other tests, a partial parse gives another order than the first build's), and a changed
    column type is refused by name with nothing changed."""
    project = Project(runner, "channel_behind")
    project.reset()
    name = "tmp_behind_watermark"
    path = CHANNELS / "models" / f"{name}.sql"
    path.write_text(f"{{{{ config({GOOD}, mutable_time='2025-02-28 12:00') }}}}\n{SELECT}\n")

    def build(now, expect_success=True):
        return project.dbt("run", "--select", name, project_dir=CHANNELS, expect_success=expect_success,
                           vars={"channels__source": project.source_schema, "tideline__now": now})

    kept = change("insert", t(28, 9), "kept", t(28, 10), 1)
    late = change("insert", t(28, 8), "late", t(28, 11), 2)                       # committed 28 11:00, behind 03-01 06:00
    then = change("insert", t(28, 7), "then", dt.datetime(2025, 3, 1, 6, 30), 3)
    found = (f"hub.backfill_a 1 ({project.source_schema}.backfill_a.changed_at in (2025-02-28 06:00:00, 2025-03-01 06:00:00]: "
             '1 rows when read, 2 now; written since that run read: {"item_id":"late"} at 2025-02-28 11:00:00)')
    try:
        empty_sources(project)
        project.write_source("backfill_a", CHANGES, [kept])
        project.ensure_state(CHANNELS)
        build("2025-03-01 06:00:00")
        project.write_source("backfill_a", CHANGES, [late])
        project.refused(f"tideline: channel {name}: on_bad_rows = fail and its sources hold rows committed behind the watermark "
                        f"since the last run read them, which no run reads: {found}. Give them a commit time after the watermark "
                        "so that the next run reads them, or rebuild with --full-refresh, which reads every row, or set "
                        "on_bad_rows='quarantine' to list them and go on", lambda: build("2025-03-01 07:00:00", expect_success=False))
        path.write_text(f"{{{{ config({GOOD}, mutable_time='2025-02-28 12:00', on_bad_rows='quarantine') }}}}\n{SELECT}\n")
        project.write_source("backfill_a", CHANGES, [then])
        result = build("2025-03-01 07:00:00")
        assert [line for line in result.tideline_lines if f"WARNING: source rows committed behind the watermark (never read): {found}" in line], \
            result.tideline_lines
        assert_rows_equal(project.table(f"{name}__tl_items", COLUMNS), [{k: c[k] for k in COLUMNS} for c in (kept, then)],
                          label="the items without the late change")
        result = build("2025-03-01 08:00:00")
        assert not [line for line in result.tideline_lines if "behind the watermark" in line], result.tideline_lines
        quarantined = [(r["feed"], r["reason"], json.loads(r["found_row"])) for r in project.table(f"{name}__tl_quarantine")]
        assert quarantined == [("hub.backfill_a", f"1 row(s) committed behind the watermark ({project.source_schema}.backfill_a.changed_at): "
                                "no run reads them", {"op": "insert", "item_time": "2025-02-28T08:00:00.000Z", "item_id": "late",
                                                      "value": 2, "label": "ok", "changed_at": "2025-02-28T11:00:00.000Z"})], quarantined
        assert project.rows(f"select rows_behind_watermark from {project.fresh('tl_state')} where model = '{name}' "
                            "and kind = 'run' order by batch") == [(0,), (1,)]
        # the insert follows the items table's column order, whatever order dbt gives the columns
        # mapping in (a partial parse can give another); a changed column is refused by name
        wider = GOOD.replace("'value': 'int'", "'value': 'bigint'")
        path.write_text(f"{{{{ config({wider}, mutable_time='2025-02-28 12:00', on_bad_rows='quarantine') }}}}\n{SELECT}\n")
        refused = project.refused("; the model now declares label string, value bigint): rebuild with dbt run --full-refresh "
                                  f"--select {name}", lambda: build("2025-03-01 09:00:00", expect_success=False))
        assert any(f"tideline: channel {name}: its columns changed since " in m for m in refused.messages), refused.messages
    finally:
        path.unlink()
        project.reset()


@pytest.mark.formats("parquet", "delta", "iceberg")
@pytest.mark.make_test_formats("parquet")
def test_change_rows_loaded_late_are_applied_where_a_rebuild_applies_them(runner, channel_project, file_format):
    """Issue 36, item 4: with change_arrival_column a run reads the change rows loaded since the
    last run, whatever their change time. Six rows loaded after the second run, five committed
    before what it had applied: a late insert behind a delete already applied (x), a late insert
    behind a deletion of an item that never existed (w, its tombstone), a late insert that ties
    on change time with the other writer's insert already applied (v, writer order), a late
    insert of a new key (z), a late delete after the key's insert (y), a write without an id
    identical to one loaded on time (a separate item, with the id a rebuild gives it), and one
    on time (u). The
    items table is compacted at every run, so a compaction that dropped a deletion would let x
    or w back. Each run's epochs equal the reference, which applies every row at its commit
    time; the run row counts 6 loaded late, 3 superseded. Then a move makes s stable, and a
    delete of s committed before the move and loaded after it is refused by name with nothing
    changed; without it the next run applies a late update of z, and a rebuild gives the same
    items."""
    project = Project(runner, f"channel_late_{file_format}", file_format=file_format)
    project.reset()
    name = f"tmp_late_changes_{file_format}"
    paths = write_late_channel(name)
    ref = Channel(M0, writers=WRITERS, arrival="loaded_at")
    a: list[dict] = []
    b: list[dict] = []
    moved = t(28, 6, 30)

    def write_sources() -> None:
        project.write_source("backfill_a", LOADED, a, replace=True)
        project.write_source("backfill_b", LOADED, b, replace=True)

    def build(now: dt.datetime, mutable_time: dt.datetime = M0, *extra: str, expect_success: bool = True):
        return project.dbt("run", "--select", name, f"{name}_all", *extra, project_dir=CHANNELS, expect_success=expect_success,
                           vars={"channels__source": project.source_schema, "tideline__now": now.strftime("%Y-%m-%d %H:%M:%S"),
                                 "channels__mutable_time": mutable_time.strftime("%Y-%m-%d %H:%M:%S"), **COMPACT_EVERY_RUN})

    def step(now: dt.datetime, mutable_time: dt.datetime = M0) -> None:
        ref.run(now, [], [(0, c) for c in a] + [(1, c) for c in b], move_to=None if mutable_time == ref.mutable_time else mutable_time)
        write_sources()
        build(now, mutable_time)
        for model, epoch in ((name, "IMMUTABLE"), (f"{name}_all", "ALL")):
            assert_rows_equal(project.table(model, COLUMNS), ref.epoch(epoch), label=f"{model} after the run at {now}")

    def late_counts() -> list[tuple]:
        return project.rows(f"select late_rows, late_rows_skipped from {project.fresh('tl_state')} "
                            f"where model = '{name}' and kind = 'run' order by batch")

    try:
        empty_sources(project)
        project.ensure_state(CHANNELS)
        march = dt.datetime(2025, 3, 1)
        twin = loaded("insert", t(27, 3), None, t(28, 17), t(28, 17, 5), 11)   # a write without an id
        a += [loaded("insert", t(28, 9), "x", t(28, 10), t(28, 10, 5), 1), loaded("insert", t(28, 8), "y", t(28, 11), t(28, 11, 5), 2), twin]
        b += [loaded("delete", t(28, 7), "w", t(28, 12), t(28, 12, 5)), loaded("insert", t(27, 12), "v", t(28, 13), t(28, 13, 5), 4)]
        step(march + dt.timedelta(hours=6))
        a += [loaded("delete", t(28, 9), "x", march + dt.timedelta(hours=7), march + dt.timedelta(hours=7, minutes=5))]
        step(march + dt.timedelta(hours=8))
        nine = march + dt.timedelta(hours=9)
        a += [loaded("insert", t(28, 9), "x", t(28, 14), nine, 9), loaded("insert", t(28, 6), "z", t(28, 15), nine, 5),
              loaded("insert", t(27, 12), "v", t(28, 13), nine, 7), {**twin, "loaded_at": nine}]
        b += [loaded("delete", t(28, 8), "y", t(28, 16), nine), loaded("insert", t(28, 7), "w", t(28, 11, 30), nine, 6),
              loaded("insert", t(28, 5), "u", march + dt.timedelta(hours=8, minutes=30), nine, 8),
              loaded("insert", t(28, 10), "s", march + dt.timedelta(hours=9, minutes=30), march + dt.timedelta(hours=9, minutes=35), 3)]
        step(march + dt.timedelta(hours=10))
        assert ref.superseded == 3
        assert late_counts() == [(0, 0), (0, 0), (6, 3)], late_counts()
        assert len([r for r in ref.epoch("ALL") if r["value"] == 11]) == 2
        step(march + dt.timedelta(hours=12), moved)
        stable_delete = loaded("delete", t(28, 10), "s", march + dt.timedelta(hours=11), march + dt.timedelta(hours=13))
        b.append(stable_delete)
        write_sources()
        with pytest.raises(Refused):
            ref.run(march + dt.timedelta(hours=13, minutes=30), [], [(0, c) for c in a] + [(1, c) for c in b])
        project.refused(f"tideline: channel {name}: 1 change rows were loaded after a move made their items stable (the first: "
                        "writer hub.backfill_b, item 2025-02-28 10:00:00 s, committed 2025-03-01 11:00:00, loaded 2025-03-01 13:00:00, "
                        "op \"delete\", loaded under mutable_time 2025-02-28 06:30:00): a stable item never changes again; nothing was "
                        f"applied. With on_bad_rows='quarantine' the other change rows are applied and such rows set aside in {name}__tl_quarantine",
                        lambda: build(march + dt.timedelta(hours=13, minutes=30), moved, expect_success=False))
        b.remove(stable_delete)
        a.append(loaded("insert", t(28, 6), "z", march + dt.timedelta(hours=11, minutes=30), march + dt.timedelta(hours=13), 10))
        step(march + dt.timedelta(hours=13, minutes=30), moved)
        assert late_counts()[-1] == (0, 0), late_counts()
        build(march + dt.timedelta(hours=14), moved, "--full-refresh")
        for model, epoch in ((name, "IMMUTABLE"), (f"{name}_all", "ALL")):
            assert_rows_equal(project.table(model, COLUMNS), ref.epoch(epoch), label=f"{model} after a rebuild")
    finally:
        for path in paths:
            path.unlink()
        project.reset()


def test_change_arrival_column_on_an_items_table_built_before_it_is_refused_until_a_rebuild(runner, channel_project):
    """An items table of an earlier version of tideline keeps no change order (no _tl_changed_at,
    _tl_writer: here rebuilt by hand without them): setting change_arrival_column on its channel
    is refused by name with nothing changed, and a --full-refresh builds the table anew, with
    them, and applies the rows."""
    project = Project(runner, "channel_old_items")
    project.reset()
    name = "tmp_old_items"
    path = CHANNELS / "models" / f"{name}.sql"
    plain = LATE.replace(", change_arrival_column='loaded_at'", "")

    def build(*extra: str, expect_success: bool = True):
        return project.dbt("run", "--select", name, *extra, project_dir=CHANNELS, expect_success=expect_success,
                           vars={"channels__source": project.source_schema, "tideline__now": "2025-03-01 08:00:00",
                                 "channels__mutable_time": M0.strftime("%Y-%m-%d %H:%M:%S")})

    try:
        project.write_source("realtime", REALTIME, [], replace=True)
        row = loaded("insert", t(28, 9), "x", t(28, 10), t(28, 10, 5), 1)
        for writer, rows in (("backfill_a", [row]), ("backfill_b", [])):
            project.write_source(writer, LOADED, rows, replace=True)
        path.write_text(f"{{{{ config({plain}) }}}}\n{LATE_SELECT}\n")
        build()
        items = project.fresh(f"{name}__tl_items")
        old = ("item_time", "item_id", "value", "label", "_tl_deleted", "_tl_stable", "_tl_batch", "_tl_run", "item_date")
        project.runner.execute(f"create table {items}_old using parquet partitioned by (item_date) as select {', '.join(old)} from {items}")
        project.runner.execute(f"drop table {items}")
        project.runner.execute(f"alter table {items}_old rename to {items}")
        path.write_text(f"{{{{ config({LATE}) }}}}\n{LATE_SELECT}\n")
        project.refused(f"tideline: channel {name}: change_arrival_column = loaded_at needs {items} to keep each version's change "
                        "time, which a table built by an earlier version of tideline does not; nothing was written. Rebuild it with "
                        f"dbt run --full-refresh --select {name}", lambda: build(expect_success=False))
        build("--full-refresh")
        assert "_tl_changed_at" in [c[0] for c in project.rows(f"describe {items}")]
        assert_rows_equal(project.table(f"{name}__tl_items", COLUMNS), [{k: row[k] for k in COLUMNS}], label="the rebuilt items")
    finally:
        path.unlink()
        project.reset()


def test_writes_without_an_id_stay_separate_items_whose_ids_a_rebuild_keeps(runner, channel_project):
    """Issue 36, item 5: as the Hub gives every write its own key, a channel without item_id
    keeps identical payloads written as separate inserts as separate items, each with the id of
    its write (reference_channel.write_id): two identical real-time rows of one arrival and a
    third of a later one are three items, two identical inserts of writer A and the same insert
    of writer B three more. A delete cannot name an item without its id: refused, located, and
    nothing changed. A --full-refresh gives every item the id it had."""
    project = Project(runner, "channel_posts")
    project.reset()
    name = "tmp_posts"
    path = CHANNELS / "models" / f"{name}.sql"
    path.write_text("-- depends_on: {{ source('hub', 'backfill_a') }}, {{ source('hub', 'backfill_b') }}\n"
                    "{{ config(materialized='channel', arrival_column='load_tstamp', columns={'value': 'int', 'label': 'string'}, "
                    "changes=['hub.backfill_a', 'hub.backfill_b'], mutable_time='2025-02-28 12:00') }}\n"
                    "select item_time, value, label, load_tstamp from {{ source('hub', 'realtime') }}\n")

    def build(now, *extra, expect_success=True):
        return project.dbt("run", "--select", name, *extra, project_dir=CHANNELS, expect_success=expect_success,
                           vars={"channels__source": project.source_schema, "tideline__now": now})

    posted = {**item(t(28, 13), None, 5), "load_tstamp": t(28, 14)}
    realtime = [posted, posted, {**posted, "load_tstamp": t(28, 15)}]
    insert = change("insert", t(28, 9), None, t(28, 10), 1)
    try:
        empty_sources(project)
        changes = load(project, realtime, [insert, insert], [insert])
        ref = Channel(dt.datetime(2025, 2, 28, 12), writers=WRITERS)
        ref.run(dt.datetime(2025, 3, 1, 6), realtime, changes)
        assert len(ref.epoch("ALL")) == 6 and len({r["item_id"] for r in ref.epoch("ALL")}) == 6, ref.epoch("ALL")
        project.ensure_state(CHANNELS)
        build("2025-03-01 06:00:00")
        assert_rows_equal(project.table(f"{name}__tl_items", COLUMNS), ref.epoch("ALL"), label="six writes, six items")
        # a delete without an id: refused, located, nothing applied
        project.write_source("backfill_a", CHANGES, [change("delete", t(28, 9), None, dt.datetime(2025, 3, 1, 6, 30), 1)])
        project.refused(f"tideline: channel {name}: 1 change rows delete an item without its id (the first: writer hub.backfill_a, "
                        "item 2025-02-28 09:00:00 (no id), committed 2025-03-01 06:30:00, op \"delete\"): a delete names its item by "
                        "the id the channel shows for it, in the column configured as item_id (the channel has none); nothing was "
                        f"applied. With on_bad_rows='quarantine' the other change rows are applied and such rows set aside in "
                        f"{name}__tl_quarantine", lambda: build("2025-03-01 07:00:00", expect_success=False))
        # without it, a rebuild gives each item the id of its write again
        project.write_source("backfill_a", CHANGES, [insert, insert], replace=True)
        build("2025-03-01 08:00:00", "--full-refresh")
        assert_rows_equal(project.table(f"{name}__tl_items", COLUMNS), ref.epoch("ALL"), label="after the rebuild")
    finally:
        path.unlink()
        project.reset()


@pytest.mark.formats("parquet", "delta", "iceberg")
def test_retention_days_drops_the_item_days_before_it_and_keeps_the_rest(runner, file_format, tmp_path):
    """A channel without mutable_time and retention_days 2: a run at 2025-03-05 drops the item
    days before 2025-03-03 and keeps the others. The model is added to a copy of the example
    project: this test runs once per format, and the formats may run in two pytest processes
    at once (one file in the shared example folder was written and removed by both)."""
    project = Project(runner, f"channel_retention_{file_format}", file_format=file_format)
    project.reset()
    channels = project_copy(CHANNELS, tmp_path / "channels", {})
    (channels / "models" / "retention_days.sql").write_text(
        "{{ config(materialized='channel', item_id='item_id', arrival_column='load_tstamp', "
        "columns={'value': 'int', 'label': 'string'}, retention_days=2) }}\n"
        "select item_time, item_id, value, label, load_tstamp from {{ source('hub', 'realtime') }}\n")
    project.dbt("deps", project_dir=channels)
    try:
        empty_sources(project)
        project.write_source("realtime", REALTIME, [{**item(t(day, 1), f"d{day}", day), "load_tstamp": t(day, 2)} for day in (29, 30, 31, 32, 33)])
        project.dbt("run", "--select", "retention_days", project_dir=channels,
                    vars={"channels__source": project.source_schema, "tideline__now": "2025-03-05 06:00:00"})
        assert [r["item_id"] for r in sorted(project.table("retention_days", COLUMNS), key=lambda r: r["item_time"])] == ["d31", "d32", "d33"]
    finally:
        project.reset()

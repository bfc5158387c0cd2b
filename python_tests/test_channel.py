"""Channels with mutable time (seed 003, FlightStats Hub) from a project that installs tideline
as a package (examples/channels): real-time items while two writers insert and delete history
in mixed order; every epoch query after every run against an independent Python reference
(python_tests/reference_channel.py); moving mutable_time earlier after its checks; the
refusals, with nothing changed; a continual task downstream that sees each stable item once;
a full refresh that gives the same items."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from harness import Project, assert_rows_equal
from reference_channel import Channel, Refused

CHANNELS = Path(__file__).parent.parent / "examples" / "channels"
REALTIME = "item_time timestamp, item_id string, value int, label string, load_tstamp timestamp"
CHANGES = "op string, item_time timestamp, item_id string, value int, label string, changed_at timestamp"
M0 = dt.datetime(2025, 3, 1)
START, END, AT = dt.datetime(2025, 2, 27), dt.datetime(2025, 3, 2, 12), dt.datetime(2025, 2, 28, 12)
EPOCH_VIEWS = ["readings_all", "readings_mutable", "readings_immutable_range", "readings_mutable_range",
               "readings_latest", "readings_earliest", "readings_next", "readings_previous"]
COLUMNS = ["item_time", "item_id", "value", "label"]


def t(day: int, hour: int, minute: int = 0) -> dt.datetime:
    return dt.datetime(2025, 2, 1) + dt.timedelta(days=day - 1, hours=hour, minutes=minute)


def item(time: dt.datetime, item_id: str, value: int, label: str = "ok") -> dict:
    return {"item_time": time, "item_id": item_id, "value": value, "label": label}


def change(op: str, time: dt.datetime, item_id: str, changed_at: dt.datetime, value: int = 0, label: str = "ok") -> dict:
    return {"op": op, **item(time, item_id, value, label), "changed_at": changed_at}


@pytest.fixture(scope="module")
def channel_project(runner):
    project = Project(runner, "channels")
    project.reset()
    project.dbt("deps", project_dir=CHANNELS)
    for name, columns in (("realtime", REALTIME), ("backfill_a", CHANGES), ("backfill_b", CHANGES)):
        project.write_source(name, columns, [], replace=True)
    yield project
    project.reset()


def run(project, now: dt.datetime, mutable_time: dt.datetime = M0, select: str = "readings+", *extra: str,
        expect_success: bool = True):
    return project.dbt("run", "--select", select, *extra, project_dir=CHANNELS, expect_success=expect_success,
                       vars={"channels__source": project.source_schema, "tideline__now": now.strftime("%Y-%m-%d %H:%M:%S"),
                             "channels__mutable_time": mutable_time.strftime("%Y-%m-%d %H:%M:%S")})


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
    for view, rows in expected.items():
        assert_rows_equal(project.table(view, COLUMNS), rows, label=f"{view} {label}")


def committed_runs(project) -> int:
    return project.rows(f"select count(*) from {project.fresh('tl_state')} where model = 'readings' and kind = 'run'")[0][0]


def test_the_seeds_scenario_epochs_moves_refusals_and_downstream(channel_project):
    project = channel_project
    ref = Channel(M0, checks={"value_not_negative": lambda v: v["value"] >= 0, "label_present": lambda v: v["label"] is not None})
    realtime: list[dict] = []
    changes: list[tuple[int, dict]] = []

    def step(now, rt=(), a=(), b=(), move_to=None, refused: str | None = None):
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
        result = run(project, now, move_to or ref.mutable_time, expect_success=refused is None)
        if refused:
            text = " ".join(result.messages)
            assert "tideline: channel readings" in text and refused in text, f"run at {now}: {result.success} {text}"
            assert ({v: project.table(v, COLUMNS) for v in ["readings", "readings_all"]}, committed_runs(project)) == before, \
                "a refused run changed the channel"
        else:
            assert_epochs(project, ref, f"after the run at {now}")
            assert_rows_equal(project.table("readings_copy", COLUMNS), ref.epoch("IMMUTABLE"), label=f"readings_copy at {now}")

    # run 1: real-time items after mutable_time; two writers insert history at or before it
    step(t(29, 6), rt=[item(t(29, 1), "r1", 10), item(t(29, 2), "r2", 20)],
         a=[change("insert", t(27, 10), "a1", t(28, 1), 1), change("insert", t(28, 9), "a2", t(28, 2), 2)],
         b=[change("insert", t(28, 9), "b1", t(28, 3), 3), change("insert", M0, "b0", t(28, 4), 4)])
    # run 2: more real-time; B deletes A's item before A changes it again (mixed order across
    # writers), an item exactly at mutable_time is mutable, a delete of a missing item is counted
    step(t(29, 12), rt=[item(t(29, 7), "r3", 30)],
         a=[change("insert", t(27, 10), "a1", t(29, 9), 11), change("insert", t(28, 20), "a3", t(29, 8), -5)],
         b=[change("delete", t(27, 10), "a1", t(29, 7)), change("delete", t(28, 9), "missing", t(29, 7)),
            change("insert", t(28, 18), "b2", t(29, 10), 6, None)])
    assert project.rows(f"select sum(rows_rejected) from {project.fresh('tl_state')} where model = 'readings'")[0][0] == 1
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
    step(t(29, 18), rt=[item(t(29, 17), "r4", 40)])

    # a full refresh replays every change and move: the same items in every epoch
    run(project, t(29, 19), ref.mutable_time, "readings+", "--full-refresh")
    assert_epochs(project, ref, "after --full-refresh")
    assert_rows_equal(project.table("readings_copy", COLUMNS), ref.epoch("IMMUTABLE"), label="readings_copy after --full-refresh")


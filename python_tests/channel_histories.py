"""Random histories of a channel, for its property tests (end to end in test_channel.py, one
run at a time in the fast tier in test_rule_channel_runs.py).

Items live on six keys around 2025-02-28 (hours 6 to 21, every 3 hours); mutable_time starts at
M0 = 2025-03-01 and each move takes it 3 hours earlier (never before 2025-02-27). Writers A and
B change only items at or before it, real-time items come after it; two events share each
minute (ties between the writers, and a delete and an insert of one key in one minute)."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from hypothesis import strategies as st

from harness import run_cuts
from reference_channel import with_ids

M0 = dt.datetime(2025, 3, 1)


def t(day: int, hour: int, minute: int = 0) -> dt.datetime:
    """A time in February 2025: day `day` at `hour`:`minute`."""
    return dt.datetime(2025, 2, 1) + dt.timedelta(days=day - 1, hours=hour, minutes=minute)


def item(time: dt.datetime, item_id: str | None, value: int, label: str = "ok") -> dict:
    return {"item_time": time, "item_id": item_id, "value": value, "label": label}


def change(op: str, time: dt.datetime, item_id: str | None, changed_at: dt.datetime, value: int = 0, label: str = "ok") -> dict:
    return {"op": op, **item(time, item_id, value, label), "changed_at": changed_at}


# one event per half minute from M0: (kind, key or move, value). "post" writes an item without
# an id (the Hub gives the write its own key: two identical posts are two items), "a_unpost"
# deletes writer A's latest post by the id of its write.
events = st.lists(
    st.tuples(st.sampled_from(["rt", "a_insert", "a_delete", "b_insert", "b_delete", "move",
                               "rt_post", "a_post", "b_post", "a_unpost"]),
              st.integers(0, 5), st.integers(0, 9)),
    min_size=1, max_size=12)


@dataclass
class Run:
    """One run: its now, the rows loaded for it (real-time rows with their load time, writer A's
    and B's change rows) and where it moves mutable_time (None: no move)."""
    now: dt.datetime
    realtime: list[dict]
    a: list[dict]
    b: list[dict]
    move_to: dt.datetime | None


def channel_runs(history: list[tuple[str, int, int]], runs: int, rng,
                 writers: tuple[str, str] = ("a", "b")) -> tuple[list[int], list[Run]]:
    """The history's events, loaded and run in up to `runs` runs cut at random (run_cuts): the
    cuts, and each run, after the run that creates the channel at M0 (before any event: a first
    build judges its change rows under the mutable_time it is created with, and the history's
    writers wrote theirs under M0 before its moves). `writers`: the names of A's and B's change
    relations, as config changes lists them (part of the id of a post)."""
    boundary = M0
    timeline: list[tuple[dt.datetime, str, dict]] = []   # (time, kind, row)
    posts: list[dict] = []                                # writer A's posts so far
    for i, (kind, key, value) in enumerate(history):
        at = M0 + dt.timedelta(minutes=1 + i // 2)     # two events a minute: ties
        if kind == "move":
            if boundary - dt.timedelta(hours=3) >= t(27, 0):
                boundary -= dt.timedelta(hours=3)
                timeline.append((at, "move", {"to": boundary}))
            continue
        if kind.startswith("rt"):
            item_id = None if kind == "rt_post" else f"r{key}"
            timeline.append((at, "rt", {**item(M0 + dt.timedelta(hours=key + 1), item_id, value), "load_tstamp": at}))
            continue
        if kind == "a_unpost":
            last = with_ids(posts, "change", writers[0], "changed_at")[-1] if posts else None
            if last and last["item_time"] <= boundary:     # a post still mutable
                timeline.append((at, "a_delete", change("delete", last["item_time"], last["item_id"], at)))
            continue
        time = boundary - dt.timedelta(hours=3 * (key % 3))   # at or before the boundary (at it too)
        op = "insert" if kind.endswith("post") else kind.split("_")[1]
        row = change(op, time, None if kind.endswith("post") else f"k{key}", at, value)
        if kind == "a_post":
            posts.append(row)
        timeline.append((at, kind, row))
    times = sorted({e[0] for e in timeline}) or [M0 + dt.timedelta(minutes=1)]
    cuts = run_cuts(times, runs, rng)
    done = 0
    out = [Run(now=M0 + dt.timedelta(seconds=30), realtime=[], a=[], b=[], move_to=None)]
    for cut in cuts:
        batch = [e for e in timeline[done:] if e[0] <= times[cut]]
        done += len(batch)
        moves = [e[2]["to"] for e in batch if e[1] == "move"]
        out.append(Run(now=times[cut] + dt.timedelta(seconds=30),
                       realtime=[e[2] for e in batch if e[1] == "rt"],
                       a=[e[2] for e in batch if e[1].startswith("a_")],
                       b=[e[2] for e in batch if e[1].startswith("b_")],
                       move_to=min(moves) if moves else None))
    return cuts, out

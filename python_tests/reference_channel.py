"""An independent Python reference of a tideline channel (seed 003, FlightStats Hub mutableTime).

Items are keyed by (item_time, item_id). Items after mutable_time are stable; items at or
before it are mutable. A run reads the real-time rows after the newest one it read (up to now),
applies the change rows committed since the last run in order (change time, writer, deletes
before inserts, payload), then moves mutable_time when asked (only earlier, after the checks).
It raises Refused where tideline refuses, before changing anything.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
from collections import Counter
from dataclasses import dataclass, field
from typing import Callable

Key = tuple[dt.datetime, str]


class Refused(Exception):
    pass


def millis(t: dt.datetime) -> dt.datetime:
    return t.replace(microsecond=t.microsecond // 1000 * 1000)


def payload_json(row: dict) -> str:
    """The payload as JSON, its fields in the order of their names (as tideline writes it)."""
    return json.dumps({"value": row["value"], "label": row["label"]}, separators=(",", ":"), sort_keys=True)


def epoch_millis(t: dt.datetime) -> int:
    return (t - dt.datetime(1970, 1, 1)) // dt.timedelta(milliseconds=1)


def write_id(kind: str, writer: str, at: dt.datetime, row: dict, occurrence: int) -> str:
    """The Hub gives every write its own key: the id of a write without one, from its kind
    ('realtime' or 'change'), its writer's name ('' for real-time rows), its commit time (the
    arrival or the change time), its item time, its payload and its occurrence among identical
    writes of that commit time (1, 2, ...). Payloads without nulls (JSON as Spark writes it)."""
    text = "|".join([kind, writer, str(epoch_millis(at)), str(epoch_millis(millis(row["item_time"]))), payload_json(row), str(occurrence)])
    return hashlib.sha256(text.encode()).hexdigest()


def with_ids(rows: list[dict], kind: str, writer: str, at: str) -> list[dict]:
    """`rows` of one writer, each insert without an id given the id of its write (deletes keep theirs)."""
    seen: Counter = Counter()
    out = []
    for r in rows:
        if r["item_id"] is None and r.get("op", "insert") == "insert":
            alike = (r[at], millis(r["item_time"]), payload_json(r))
            seen[alike] += 1
            r = {**r, "item_id": write_id(kind, writer, r[at], r, seen[alike])}
        out.append(r)
    return out


@dataclass
class Channel:
    mutable_time: dt.datetime | None
    writers: tuple[str, ...] = ("a", "b")     # the change relations' names, as config changes lists them
    checks: dict[str, Callable[[dict], bool]] = field(default_factory=dict)
    items: dict[Key, dict] = field(default_factory=dict)
    stable_at: dict[Key, dt.datetime] = field(default_factory=dict)   # key -> commit time it became stable
    realtime_after: dt.datetime | None = None
    frontier: dt.datetime | None = None
    missing_deletes: int = 0
    arrival: str | None = None   # change_arrival_column: change rows read by this load time, not by changed_at
    last_op: dict[Key, tuple] = field(default_factory=dict)   # key -> the order of the newest op applied to it
    superseded: int = 0

    def run(self, now: dt.datetime, realtime: list[dict], changes: list[tuple[int, dict]], move_to: dt.datetime | None = None) -> None:
        """One run at `now`: `realtime` every row of the real-time source so far (read by load_tstamp), `changes`
        every change row so far as (writer, row). Nothing changes when it raises Refused.

        The change rows applied are those with a change time after the previous run's now, up
        to this run's now (with `arrival`, those loaded then, whatever their change time: a row
        committed behind an op already applied to its key changes nothing). A change row for an
        item after mutable_time is refused: with `arrival` also one committed before a move
        made its item stable and loaded after it."""
        boundary = self.mutable_time
        realtime = with_ids(realtime, "realtime", "", "load_tstamp")
        changes = [(w, c) for w in sorted({w for w, _ in changes})
                   for c in with_ids([c for v, c in changes if v == w], "change", self.writers[w], "changed_at")]
        # the change time is the writer's clock: what it writes later carries a later time,
        # so every row up to now can be applied (in order) without waiting for idle writers
        frontier = max(self.frontier or dt.datetime.min, now)
        read = self.arrival or "changed_at"   # with change_arrival_column, a row loaded late is read when it is loaded
        changes = [(w, c) for w, c in changes if (self.frontier is None or c[read] > self.frontier) and c[read] <= frontier]
        new_rt = [r for r in realtime if r["load_tstamp"] <= now and (self.realtime_after is None or r["load_tstamp"] > self.realtime_after)]
        early = [r for r in new_rt if boundary is not None and millis(r["item_time"]) <= boundary]
        if early:
            raise Refused(f"{len(early)} real-time items are at or before mutable_time")
        no_id = [c for _, c in changes if c["op"] == "delete" and c["item_id"] is None]
        if no_id:
            raise Refused(f"{len(no_id)} change rows delete an item without its id")
        late = [c for _, c in changes if boundary is None or millis(c["item_time"]) > boundary]
        if late:
            raise Refused(f"{len(late)} change rows are for items after mutable_time")
        items = dict(self.items)
        last_op = dict(self.last_op)
        missing = superseded = 0
        for writer, c in sorted(changes, key=lambda wc: (wc[1]["changed_at"], wc[0], 0 if wc[1]["op"] == "delete" else 1, payload_json(wc[1]))):
            key = (millis(c["item_time"]), c["item_id"])
            order = (c["changed_at"], writer, 0 if c["op"] == "delete" else 1, payload_json(c))
            if key in last_op and last_op[key] > order:
                # loaded late, behind an op already applied to its key: a rebuild applies it
                # before that op, which overwrites it
                superseded += 1
                continue
            last_op[key] = order
            if c["op"] == "delete":
                if key in items:
                    del items[key]
                else:
                    missing += 1
            else:
                items[key] = {"value": c["value"], "label": c["label"]}
        if move_to is not None:
            if boundary is None or move_to > boundary:
                raise Refused("mutable_time can only move earlier")
            moving = {k: v for k, v in items.items() if move_to < k[0] <= boundary}
            for name, check in self.checks.items():
                if any(not check(v) for v in moving.values()):
                    raise Refused(f"check {name} fails")
        # commit
        by_payload = sorted(new_rt, key=lambda r: payload_json(r), reverse=True)
        for r in sorted(by_payload, key=lambda r: r["load_tstamp"]):   # the first to arrive, then the last by payload
            key = (millis(r["item_time"]), r["item_id"])
            if key not in self.stable_at:   # a stable item is immutable: a reloaded copy is a duplicate
                items[key] = {"value": r["value"], "label": r["label"]}
                self.stable_at[key] = now
        if new_rt:
            self.realtime_after = max(r["load_tstamp"] for r in new_rt)
        if move_to is not None:
            for k in items:
                if move_to < k[0] <= boundary:
                    self.stable_at[k] = now
            self.mutable_time = move_to
        self.items = items
        self.frontier = frontier
        self.missing_deletes += missing
        self.last_op = last_op
        self.superseded += superseded

    # ---- epochs ----------------------------------------------------------------------------
    def epoch(self, epoch: str = "IMMUTABLE") -> list[dict]:
        def side(t: dt.datetime) -> str:
            return "MUTABLE" if self.mutable_time is not None and t <= self.mutable_time else "IMMUTABLE"
        return [
            {"item_time": k[0], "item_id": k[1], **v}
            for k, v in sorted(self.items.items())
            if epoch == "ALL" or side(k[0]) == epoch
        ]

    def range(self, epoch: str, start: dt.datetime, end: dt.datetime) -> list[dict]:
        return [r for r in self.epoch(epoch) if start <= r["item_time"] < end]

    def latest(self, n: int, epoch: str = "IMMUTABLE") -> list[dict]:
        return self.epoch(epoch)[-n:]

    def earliest(self, n: int, epoch: str = "IMMUTABLE") -> list[dict]:
        return self.epoch(epoch)[:n]

    def next(self, after: dt.datetime, n: int, epoch: str = "IMMUTABLE") -> list[dict]:
        return [r for r in self.epoch(epoch) if r["item_time"] > after][:n]

    def previous(self, before: dt.datetime, n: int, epoch: str = "IMMUTABLE") -> list[dict]:
        return [r for r in self.epoch(epoch) if r["item_time"] < before][-n:]

    def next_from(self, key: Key, n: int, epoch: str = "IMMUTABLE") -> list[dict]:
        """The Hub's next N from an item key: the items after (item_time, item_id) = key, whether
        or not that item is in the epoch."""
        return [r for r in self.epoch(epoch) if (r["item_time"], r["item_id"]) > key][:n]

    def previous_from(self, key: Key, n: int, epoch: str = "IMMUTABLE") -> list[dict]:
        return [r for r in self.epoch(epoch) if (r["item_time"], r["item_id"]) < key][-n:]

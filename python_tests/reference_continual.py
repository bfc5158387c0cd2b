"""An independent reference for continual tasks: plain Python, step by step, as the seed
describes Materialize's continual tasks. Each distinct input commit time up to the frontier is
one step; at a step the task's statements see the input's rows committed at that time,
references as they are when the step runs (or, a kept history, as of the step's time: the
step gets it as references["as_of"]), and the output through the previous step plus what
the earlier statements of the step changed. The first run's frontier is the creation time:
with snapshot, the inputs' rows up to it are one step at it; without, they are never seen.

Each task keeps its changes, as Materialize's diffs: at each step the rows (by value) its
output gained and lost, consolidated (a row deleted and the same row inserted again is no
change). A task whose input is another task's changes (a chain) gets, at a step, the
upstream's inserts of that time as its input rows and its deletes as references["deletes"];
its snapshot is the upstream's rows live at its creation.
"""

from __future__ import annotations

import datetime as dt
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Callable

Row = dict[str, Any]
# one step of a task: (output before, the input's rows at the step, references) -> output after
Step = Callable[[list[Row], list[Row], dict], list[Row]]


@dataclass
class Task:
    step: Step
    snapshot: bool = True
    commit: str = "load_tstamp"
    creation: dt.datetime | None = None
    frontier: dt.datetime | None = None
    output: list[Row] = field(default_factory=list)
    # every step's consolidated changes: the output's rows with _tl_op ('insert', 'delete') and
    # _tl_batch (the step's time), in step order
    changes: list[Row] = field(default_factory=list)

    def _step(self, rows: list[Row], deletes: list[Row], references: dict, at: dt.datetime) -> None:
        before = self.output
        self.output = self.step(before, rows, {**references, "as_of": at, "deletes": deletes})
        inserted, deleted = consolidated(before, self.output)
        self.changes += [{**r, "_tl_op": "insert", "_tl_batch": at} for r in inserted]
        self.changes += [{**r, "_tl_op": "delete", "_tl_batch": at} for r in deleted]

    def run(self, rows: list[Row], now: dt.datetime, references: dict | None = None) -> None:
        """One run over `rows`: a source's rows (each with its commit column), or an upstream
        task's `changes` (commit column _tl_batch)."""
        newest = [r[self.commit] for r in rows if self.frontier is None or r[self.commit] > self.frontier]
        # nothing newer: the frontier stays where it was (a first run's is now)
        frontier = min([now, max(newest)]) if newest else (self.frontier or now)
        if self.frontier is not None:
            frontier = max(frontier, self.frontier)
        references = references or {}
        if self.creation is None:
            self.creation = frontier
            before = [r for r in rows if r[self.commit] <= frontier]
            if any("_tl_op" in r for r in before):
                before = live_rows(before)
            if self.snapshot and before:
                self._step(before, [], references, frontier)
        else:
            times = sorted({r[self.commit] for r in rows if self.frontier < r[self.commit] <= frontier})
            for t in times:
                at_t = [r for r in rows if r[self.commit] == t]
                self._step([own(r) for r in at_t if r.get("_tl_op", "insert") == "insert"],
                           [own(r) for r in at_t if r.get("_tl_op") == "delete"], references, t)
        self.frontier = frontier


def _frozen(row: Row) -> tuple:
    return tuple(sorted(row.items()))


def consolidated(before: list[Row], after: list[Row]) -> tuple[list[Row], list[Row]]:
    """The rows (by value, as a multiset) `after` has that `before` has not, and the reverse."""
    b, a = Counter(map(_frozen, before)), Counter(map(_frozen, after))
    return [dict(r) for r in (a - b).elements()], [dict(r) for r in (b - a).elements()]


def own(row: Row) -> Row:
    """A change row without its operation and time: the row as the upstream's output holds it."""
    return {k: v for k, v in row.items() if k not in ("_tl_op", "_tl_batch")}


def live_rows(changes: list[Row]) -> list[Row]:
    """An upstream's output from its changes: the inserted rows less the deleted ones."""
    inserted = Counter(_frozen(own(r)) for r in changes if r["_tl_op"] == "insert")
    deleted = Counter(_frozen(own(r)) for r in changes if r["_tl_op"] == "delete")
    return [dict(r) for r in (inserted - deleted).elements()]


def upsert(output: list[Row], changes: list[Row], references: dict) -> list[Row]:
    keys = {r["key"] for r in changes}
    kept = [r for r in output if r["key"] not in keys]
    return kept + [{"key": k, "val": max(r["val"] for r in changes if r["key"] == k)} for k in sorted(keys)]


def audit_log(output: list[Row], changes: list[Row], references: dict) -> list[Row]:
    return output + [{"anomaly_count": r["anomaly_count"]} for r in changes]


def orders_enriched(output: list[Row], changes: list[Row], references: dict) -> list[Row]:
    tiers = references.get("customers", {})
    return output + [{"order_id": r["order_id"], "customer_id": r["customer_id"], "amount": r["amount"],
                      "tier": tiers.get(r["customer_id"])} for r in changes]


def orders_as_of(output: list[Row], changes: list[Row], references: dict) -> list[Row]:
    """orders_enriched over a kept history of tiers (rows customer_id, tier, valid_from): each
    customer's tier is its newest row valid at the step's time."""
    valid = sorted((r for r in references.get("customer_tiers", []) if r["valid_from"] <= references["as_of"]),
                   key=lambda r: r["valid_from"])
    tiers = {r["customer_id"]: r["tier"] for r in valid}
    return output + [{"order_id": r["order_id"], "customer_id": r["customer_id"], "amount": r["amount"],
                      "tier": tiers.get(r["customer_id"])} for r in changes]


def running_totals(output: list[Row], changes: list[Row], references: dict) -> list[Row]:
    previous: dict = {}
    for r in sorted(output, key=lambda r: r["loaded_at"]):
        previous[r["key"]] = r["total"]
    added = []
    for k in sorted({r["key"] for r in changes}):
        mine = [r for r in changes if r["key"] == k]
        added.append({"key": k, "total": previous.get(k, 0) + sum(r["val"] for r in mine),
                      "loaded_at": max(r["load_tstamp"] for r in mine)})
    return output + added


def upsert_changes(output: list[Row], changes: list[Row], references: dict) -> list[Row]:
    """A task over the upsert's changes: each row it inserted and each it deleted, with the
    step's time (examples/continual_tasks/models/upsert_changes.sql)."""
    return output + [{**r, "change": "insert", "_tl_batch": references["as_of"]} for r in changes] + \
        [{**r, "change": "delete", "_tl_batch": references["as_of"]} for r in references["deletes"]]

"""An independent reference for derivations: plain Python, document by document, as the seed
describes Flow's runtime. Documents are taken in tideline's documented order (commit time +
read delay, order column, higher priority, transform name, then the row's values in its column
order: by_values); each one's update is reduced into
the register of its key (an update may read the key's register before the document), then its
publish lambda sees the register after and before, and each
published row is reduced into the derived table by its unique key.

A transform whose source is OWN reads the derivation's own documents (Flow's self-referencing
derivations): every row a publish lambda returns, as a dict of the derived columns
(`own_columns`, in their order), comes back as a document of each such transform, at the time of
the document that published it and one step deeper, so it is processed after every document of
that time and a lower depth, before any document of a later time; documents of the same time,
depth, order value, priority and transform follow the order of the documents that published
them, then their values. A read delay on such a transform moves its document later by the delay:
one whose time is after a run's frontier is held, and read by the first run whose frontier
reaches it (`held`, `released`).

A run at `now` processes what tideline's frontier rule admits: every document whose commit
time + delay is at or before F = max(F_prev, min(now, min over non-empty sources of (newest
commit time + delay))), where a transform declared `clock` (its source's commit column is its
writer's clock) reaches now.
"""

from __future__ import annotations

import copy
import datetime as dt
import heapq
import itertools
import json
from dataclasses import dataclass, field
from typing import Any, Callable

Row = dict[str, Any]
OWN = "own documents"   # Transform.source of a transform over the derivation's own documents


def by_values(row: Row) -> tuple:
    """The last key of the order of documents committed together (docs/derivations.md, "The
    order"): the row's values in its column order (a row's dict keeps the source's column order),
    each as its type compares, nulls first; a map (a dict) by its JSON."""
    return tuple((value is not None, json.dumps(value, default=str) if isinstance(value, dict) else value)
                 for value in row.values())


@dataclass
class Transform:
    name: str
    source: str
    key: Callable[[Row], tuple] = lambda r: ()
    order: str | None = None
    update: Callable[[Row], dict] | None = None
    publish: Callable[[Row, dict, dict], list[Row]] | None = None
    delay: dt.timedelta = dt.timedelta(0)
    priority: int = 0
    commit: str = "load_tstamp"
    clock: bool = False
    reads_register: bool = False   # update(row, register): the key's registers before the document, as a reader sees them


def reduce_value(strategy: str, before: Any, update: Any) -> Any:
    """One update reduced into a value (None: no update)."""
    if update is None:
        return before
    if strategy == "sum":
        return update if before is None else before + update
    if strategy == "min":
        return update if before is None else min(before, update)
    if strategy == "max":
        return update if before is None else max(before, update)
    if strategy == "last_write_wins":
        return update
    if strategy == "first_write_wins":
        return before if before is not None else update
    if strategy == "append":
        return list(before or []) + list(update)
    if strategy == "set":
        out = list(before or [])
        for v in update:
            if v not in out:
                out.append(v)
        return out
    if isinstance(strategy, tuple):  # Flow's minimize/maximize by a key: ("min" or "max", key fields, {field: strategy})
        kind, key, fields = strategy
        if before is None:
            return update
        if keyed_order(before, key) == keyed_order(update, key):   # equal keys: Flow deep-merges them
            return reduce_value(fields, before, update)
        ranked = sorted([before, update], key=lambda d: keyed_order(d, key))
        return ranked[0] if kind == "min" else ranked[-1]
    if isinstance(strategy, dict):  # merge: a strategy per field
        before = dict(before or {})
        for name, s in strategy.items():
            before[name] = reduce_value(s, before.get(name), (update or {}).get(name))
        return before
    raise ValueError(strategy)


def keyed_order(document: dict, key: tuple[str, ...]) -> tuple:
    """How minimize/maximize by a key order documents: by the key's fields, None lowest (two
    documents of equal keys are deep-merged, each field by its own strategy, the later after the
    earlier)."""
    def rank(v: Any) -> tuple:
        return (v is not None, v if v is not None else 0)
    return tuple(rank(document.get(f)) for f in key)


WRITE_WINS = ("last_write_wins", "first_write_wins")


def _unwritten(initial: Any, strategy: Any) -> Any:
    """The stored value of a register (or field) never written."""
    if isinstance(strategy, dict):
        return {f: _unwritten((initial or {}).get(f), s) for f, s in strategy.items()}
    return None if strategy in WRITE_WINS else initial


def _read(value: Any, initial: Any, strategy: Any) -> Any:
    """A stored register (or field) as a reader sees it."""
    if isinstance(strategy, dict):
        return {f: _read((value or {}).get(f), (initial or {}).get(f), s) for f, s in strategy.items()}
    return value if value is not None else initial


@dataclass
class Derivation:
    unique_key: tuple[str, ...]
    transforms: list[Transform]
    registers: dict[str, tuple[Any, Any]] = field(default_factory=dict)  # name -> (initial, strategy)
    reduce: dict[str, Any] = field(default_factory=dict)  # derived column -> strategy
    frontier: dt.datetime | None = None
    processed: dict[str, set] = field(default_factory=dict)
    registers_by_key: dict[tuple, dict] = field(default_factory=dict)
    table: dict[tuple, Row] = field(default_factory=dict)
    changed_at: dict[tuple, dt.datetime] = field(default_factory=dict)   # key -> the frontier of the run that last updated it
    batch: dt.datetime | None = None   # the running run's frontier: the commit time its register rows carry
    own_columns: tuple[str, ...] = ()   # derived_columns in their order: the columns of the derivation's own documents
    held: list = field(default_factory=list)   # own documents a read delay put after the frontier: (position, transform, row)
    released: int = 0   # how many held documents the last run read

    def _register(self, key: tuple) -> dict:
        """The register of a key. One never written starts from its initial value, except that a
        first/last_write_wins register (or field of a merge) holds nothing until written and
        reads as its initial value meanwhile (`_exposed`): its first write is the first update."""
        return self.registers_by_key.get(key) or {name: _unwritten(init, s) for name, (init, s) in self.registers.items()}

    def _exposed(self, register: dict) -> dict:
        """What a reader of the register sees: a value (or field) never written reads as its initial value."""
        return {name: _read(register[name], init, s) for name, (init, s) in self.registers.items()}

    def run(self, sources: dict[str, list[Row]], now: dt.datetime) -> None:
        reaches = [now if t.clock else max(r[t.commit] for r in sources[t.source]) + t.delay
                   for t in self.transforms if t.source != OWN and (sources.get(t.source) or t.clock)]
        frontier = min([now, *reaches]) if reaches else None
        self.released = 0
        if self.frontier is not None and (frontier is None or frontier < self.frontier):
            frontier = self.frontier
        if frontier is None:
            return
        self.batch = frontier
        queue: list = []
        arrival = itertools.count()   # identical documents in any order: they are the same document
        for t in self.transforms:
            done = self.processed.setdefault(t.name, set())
            for i, row in enumerate(sources.get(t.source, []) if t.source != OWN else []):
                at = row[t.commit] + t.delay
                if at <= frontier and i not in done:
                    done.add(i)
                    heapq.heappush(queue, (self._position(at, 0, t, row, ()), next(arrival), t, row))
        released = [h for h in self.held if h[0][0] <= frontier]
        self.held = [h for h in self.held if h[0][0] > frontier]
        self.released = len(released)
        for position, reader, document in released:
            heapq.heappush(queue, (position, next(arrival), reader, document))
        while queue:
            position, _, t, row = heapq.heappop(queue)
            for published in self.process(t, row):
                document = {c: published.get(c) for c in self.own_columns}
                for reader in (r for r in self.transforms if r.source == OWN):
                    place = self._position(position[0] + reader.delay, position[1] + 1, reader, document, (position,))
                    if place[0] <= frontier:
                        heapq.heappush(queue, (place, next(arrival), reader, document))
                    else:
                        self.held.append((place, reader, document))
        self.frontier = frontier

    @staticmethod
    def _position(at: dt.datetime, depth: int, t: Transform, row: Row, trigger: tuple) -> tuple:
        """A document's place in the order: time, depth, order value (nulls first), higher
        priority, transform name, then (for a published document) the position of the document
        that published it, then the row's values."""
        order = row[t.order] if t.order else None
        return (at, depth, (order is not None, order), -t.priority, t.name, trigger, by_values(row))

    def process(self, t: Transform, row: Row) -> list[Row]:
        key = t.key(row)
        before = self._register(key)
        after = copy.deepcopy(before)
        if t.update:
            updates = t.update(row, self._exposed(before)) if t.reads_register else t.update(row)
            for name, value in updates.items():
                after[name] = reduce_value(self.registers[name][1], after[name], value)
            self.registers_by_key[key] = after
            if any(value is not None for value in updates.values()):
                self.changed_at[key] = self.batch
        published = t.publish(row, self._exposed(after), self._exposed(before)) if t.publish else []
        for each in published:
            self.publish(each)
        return published

    def publish(self, row: Row) -> None:
        key = tuple(row[k] for k in self.unique_key)
        stored = self.table.get(key)
        if stored is None or not self.reduce:
            self.table[key] = dict(row)
            return
        merged = dict(stored)
        for name, value in row.items():
            if name in self.reduce:
                merged[name] = reduce_value(self.reduce[name], stored.get(name), value)
            elif value is not None:
                merged[name] = value
        self.table[key] = merged

    def rows(self) -> list[Row]:
        return list(self.table.values())

    def register_rows(self) -> list[Row]:
        return [{"key": k, **v} for k, v in self.registers_by_key.items()]

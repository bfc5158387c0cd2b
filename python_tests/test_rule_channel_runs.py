"""Fast tier: a channel's runs, as tideline writes them in SQL, against the reference.

A channel run is two statements over the committed items (macros/channel): its decision
(`channel_decide_sql`: what it reads, what it would refuse, the deletes of missing items) and
its one write (`channel_write_sql`: the real-time items, the changed keys' new versions, the
copies a move makes stable); readers then see the epochs (`epoch_items_sql`). Here every shape
of both statements (first run or not, changes or none, a previous frontier or real-time read
or none, a move or none) is compiled once by dbt with a sentinel time for each of the run's
facts, and a random history of channel_histories (the same histories as the end-to-end
property test in test_channel.py) is run run by run in this process's SparkSession: the
sources, the items table and tl_state are temporary views, each run's rows are appended to the
items as committed (and, when the case compacts, replaced every compact_every-th run that
wrote by the rows `channel_kept_rows_sql` keeps, which must be the ALL epoch row for row and
one deletion per deleted mutable key, its newest version: the items table keeps the change
order, as tideline creates it), and
after every run the three epochs (ALL, MUTABLE, IMMUTABLE) must equal reference_channel's, as must the run's count of deletes of missing items; after the last run,
the next and previous items of each epoch from a key (`epoch_key_where`, `epoch_ordered_sql`:
what `channel_next` and `channel_previous` run), by time and by item. The orchestration
between the statements (which shape a run takes, what it commits) follows
macros/materializations/channel.sql; the end-to-end test runs that page itself.
"""

from __future__ import annotations

import datetime as dt
import itertools
import json
import random
import re
from typing import NamedTuple

import pytest
from hypothesis import strategies as st

from channel_histories import M0, channel_runs, events
from harness import fast_property, named_rows, rows_equal, temp_view
from reference_channel import Channel

pytestmark = pytest.mark.fast

NAME = "fast_channel"
PAYLOAD = {"value": "int", "label": "string"}
COLUMNS = ["item_time", "item_id", "value", "label"]
ITEMS = {"item_time": "timestamp", "item_id": "string", **PAYLOAD, "_tl_deleted": "boolean", "_tl_stable": "boolean",
         "_tl_batch": "timestamp", "_tl_run": "string", "_tl_changed_at": "timestamp", "_tl_writer": "int", "item_date": "date"}
REALTIME = {"item_time": "timestamp", "item_id": "string", **PAYLOAD, "load_tstamp": "timestamp"}
CHANGES = {"op": "string", "item_time": "timestamp", "item_id": "string", **PAYLOAD, "changed_at": "timestamp"}
STATE = {"model": "string", "kind": "string", "run_id": "string", "batch": "timestamp", "mutable_time": "timestamp"}
# sentinel times, one per fact of a run, replaced by the run's values in the compiled SQL
SENTINELS = {"now": "2990-01-01 00:00:00", "frontier": "2991-01-01 00:00:00", "state_frontier": "2992-01-01 00:00:00",
             "realtime_after": "2993-01-01 00:00:00", "move_to": "2994-01-01 00:00:00", "mutable_time": "2995-01-01 00:00:00"}
EPOCHS = ["ALL", "MUTABLE", "IMMUTABLE"]
# navigation from a key (the Hub's next and previous from an item): the anchor time and id,
# replaced by each run's anchor, and how many items
ANCHOR_TIME, ANCHOR_ID, NAVIGATE_N = "2996-01-01 00:00:00", "ANCHOR_ID", 2


def shape(first: bool, frontier: bool, state_frontier: bool, realtime_after: bool, move: bool) -> str:
    return "_".join(name for name, on in [("first", first), ("frontier", frontier), ("state_frontier", state_frontier),
                                          ("realtime_after", realtime_after), ("move", move)] if on) or "plain"


def shape_values(first, frontier, state_frontier, realtime_after, move) -> dict:
    """A shape's arguments, as macros/materializations/channel.sql gives them (sentinel times)."""
    s = SENTINELS
    state = {"runs": 0 if first else 1, "realtime_after": s["realtime_after"] if realtime_after else None,
             "frontier": s["state_frontier"] if state_frontier else None, "mutable_time": None if first else s["mutable_time"]}
    boundary = s["move_to"] if first else s["mutable_time"]
    return {"name": shape(first, frontier, state_frontier, realtime_after, move), "state": state,
            "frontier": s["frontier"] if frontier else None,
            "move": ({"from": None if first else s["mutable_time"], "to": s["move_to"]} if move else None),
            "limits": {"realtime": boundary, "history": [], "changes": boundary}}


# a first run has no earlier frontier or real-time read; with mutable_time and changes it moves to it
SHAPES = [shape_values(True, frontier, False, False, True) for frontier in (False, True)] + \
         [shape_values(False, *flags) for flags in itertools.product((False, True), repeat=4)]

TEMPLATE = """
{%- if execute -%}
{%- set changes = [] -%}
{%- for writer in ['a', 'b'] -%}
{%- do changes.append({'name': writer, 'source': {'rendered': 'fast_channel_' ~ writer}, 'commit_column': 'changed_at', 'delay': 0, 'clock': true}) -%}
{%- endfor -%}
{%- set settings = {'name': 'NAME', 'payload': PAYLOAD, 'item_time': 'item_time', 'item_id': 'item_id', 'change_time': 'changed_at',
                    'arrival': 'load_tstamp', 'mutable_time': 'M0', 'retention_days': none, 'checks': {}, 'on_bad_rows': 'fail', 'changes': changes,
                    'change_arrival': none, 'change_order': true} -%}
{%- set items = 'fast_channel_items' -%}
{%- set model_sql = 'select item_time, item_id, value, label, load_tstamp from fast_channel_realtime' -%}
-- STATE {{ tideline.state_table() }}
-- RUN {{ tideline.run_id() }}
-- KEPT
{{ tideline.channel_kept_rows_sql(settings, items, ITEM_COLUMNS, 'COMMITTED_BOUNDARY') }}
{%- for s in SHAPES %}
-- SHAPE {{ s.name }}
{{ tideline.channel_decide_sql(settings, items, s.state, s.frontier, model_sql, s.limits) }}
-- WRITE
{{ tideline.channel_write_sql(settings, items, s.state, s.frontier, model_sql, s.move, s.limits) }}
{%- endfor %}
{%- for epoch in ['ALL', 'MUTABLE', 'IMMUTABLE'] %}
-- EPOCH {{ epoch }}
{{ tideline.epoch_items_sql(items, 'NAME', epoch, ['item_time', 'item_id', 'value', 'label']) }}
{%- endfor %}
{%- for epoch in ['ALL', 'MUTABLE', 'IMMUTABLE'] %}{% for after in [true, false] %}{% for item in [none, 'ANCHOR_ID'] %}
-- NAVIGATE {{ epoch }} {{ 'next' if after else 'previous' }} {{ 'item' if item else 'time' }}
{{ tideline.epoch_ordered_sql(tideline.epoch_items_sql(items, 'NAME', epoch, ['item_time', 'item_id', 'value', 'label'],
                                                      tideline.epoch_key_where(ANCHOR_TIME, item, after)), NAVIGATE_N, not after) }}
{%- endfor %}{% endfor %}{% endfor %}
{%- endif -%}
"""


def jinja_literal(value) -> str:
    return json.dumps(value).replace("null", "none")


class Compiled(NamedTuple):
    shapes: dict[str, tuple[str, str]]
    epochs: str
    run_id: str
    navigation: str
    kept: str

    def __repr__(self) -> str:   # a failing example names the history, not the SQL
        return f"<the channel's statements in {len(self.shapes)} shapes>"


@pytest.fixture(scope="module")
def run_sql(project):
    """({shape: (decide select, write select)}, one select of every epoch's items with the epoch
    in a column, the run id to replace), with
    tl_state read from the temporary view fast_channel_state."""
    template = (TEMPLATE.replace("SHAPES", jinja_literal(SHAPES)).replace("PAYLOAD", jinja_literal(list(PAYLOAD.items())))
                .replace("NAME", NAME).replace("M0", str(M0)).replace("ANCHOR_TIME", f"'{ANCHOR_TIME}'")
                .replace("NAVIGATE_N", str(NAVIGATE_N)).replace("ITEM_COLUMNS", jinja_literal(list(ITEMS)))
                .replace("COMMITTED_BOUNDARY", SENTINELS["mutable_time"]))
    compiled = project.dbt("compile", "--inline", template, vars={"tideline__now": SENTINELS["now"]}).result.results[0].node.compiled_code
    state_table = re.search(r"-- STATE (\S+)", compiled)[1]
    run_id = re.search(r"-- RUN (\S+)", compiled)[1]
    compiled = compiled.replace(state_table, "fast_channel_state")
    kept = compiled.split("-- KEPT\n", 1)[1].split("-- SHAPE ", 1)[0]
    shapes = {}
    for part in compiled.split("-- SHAPE ")[1:]:
        name, body = part.split("\n", 1)
        decide, write = body.split("-- WRITE", 1)
        shapes[name.strip()] = (decide, write.split("-- EPOCH ", 1)[0])
    epochs = {}
    for part in compiled.split("-- EPOCH ")[1:]:
        name, body = part.split("\n", 1)
        epochs[name.strip()] = body.split("-- NAVIGATE ", 1)[0]
    navigation = {}
    for part in compiled.split("-- NAVIGATE ")[1:]:
        name, body = part.split("\n", 1)
        navigation[name.strip()] = body
    assert set(shapes) == {s["name"] for s in SHAPES} and set(epochs) == set(EPOCHS) and len(navigation) == 12, compiled
    # the three epochs in one query (one Spark job a run), and the twelve navigations in another
    every_epoch = "\nunion all\n".join(f"select '{name}' as epoch, * from ({sql}) as e" for name, sql in epochs.items())
    every_navigation = "\nunion all\n".join(f"select '{name}' as navigation, * from ({sql}) as n" for name, sql in navigation.items())
    return Compiled(shapes, every_epoch, run_id, every_navigation, kept)


def with_times(sql: str, values: dict[str, dt.datetime | None]) -> str:
    """The compiled SQL with each sentinel time (and its date) replaced by the run's value."""
    for fact, sentinel in SENTINELS.items():
        value = values.get(fact)
        if value is not None:
            sql = sql.replace(sentinel, f"{value:%Y-%m-%d %H:%M:%S.%f}").replace(f"date'{sentinel[:10]}'", f"date'{value:%Y-%m-%d}'")
    assert not re.search(r"\b299\d-01-01", sql), f"a sentinel left for a fact this run does not give: {sql}"
    return sql


# compact_every: the items table compacted (compaction.sql) after every k-th committed run that wrote (None: never)
cases = st.fixed_dictionaries({"history": events, "runs": st.integers(1, 4), "seed": st.integers(0, 2**16),
                               "compact_every": st.sampled_from([None, 1, 2])})
EDGE_CASES = [
    {"history": [("rt", 0, 1)], "runs": 1, "seed": 0},                                     # one real-time item
    {"history": [("move", 0, 0)], "runs": 1, "seed": 0},                                   # only a move, no items
    {"history": [("a_delete", 1, 0), ("b_delete", 1, 0)], "runs": 2, "seed": 0},           # deletes of missing items
    {"history": [("a_insert", 0, 3), ("a_delete", 0, 0)], "runs": 1, "seed": 0},           # insert then delete, one minute
    {"history": [("a_insert", 0, 3), ("b_insert", 0, 4)], "runs": 1, "seed": 0},           # two writers, one key, one minute
    {"history": [("a_insert", 0, 3), ("move", 0, 0), ("b_insert", 1, 4), ("rt", 2, 5)], "runs": 4, "seed": 3},  # item on the boundary moves
    # the same, compacted after every run: superseded versions and versions a move made stable dropped
    {"history": [("a_insert", 0, 3), ("move", 0, 0), ("b_insert", 1, 4), ("rt", 2, 5)], "runs": 4, "seed": 3, "compact_every": 1},
    {"history": [("a_insert", 0, 3), ("a_delete", 1, 0), ("b_insert", 0, 4), ("a_delete", 2, 0)], "runs": 2, "seed": 1, "compact_every": 1},
    {"history": [("rt", 1, 1), ("rt", 1, 2), ("rt", 1, 3)], "runs": 3, "seed": 1},         # a stable item loaded again
    {"history": [("b_insert", 2, 1), ("move", 0, 0), ("move", 0, 0), ("a_insert", 0, 2), ("a_delete", 3, 0)], "runs": 2, "seed": 5},
    {"history": [("rt", 0, 1), ("a_insert", 1, 2)] * 3 + [("move", 0, 0)], "runs": 4, "seed": 7},
    # writes without an id (issue 36, item 5): identical posts of one minute are two items, the
    # same post of writer B a third, an identical real-time post of the next minute another;
    # writer A then deletes its latest post by the id of its write
    {"history": [("a_post", 1, 4), ("a_post", 1, 4), ("b_post", 1, 4), ("rt_post", 2, 6), ("rt_post", 2, 6),
                 ("rt_post", 2, 6), ("a_unpost", 0, 0)], "runs": 2, "seed": 2},
    {"history": [("a_post", 0, 1), ("move", 0, 0), ("a_unpost", 0, 0), ("a_post", 2, 3), ("a_unpost", 0, 0)], "runs": 3, "seed": 4},
]


# an example is several runs of the channel (about 10 s): 6 drawn in make test (the 13 edge cases run too), 200 in the extended tier
@fast_property(cases, EDGE_CASES, make_test=6)
def test_runs_of_a_random_history_give_the_references_epochs(project, run_sql, case):
    shapes, epochs, compiled_run_id = run_sql.shapes, run_sql.epochs, run_sql.run_id
    runner = project.runner
    cuts, runs = channel_runs(case["history"], case["runs"], random.Random(case["seed"]))
    ref = Channel(M0)
    realtime: list[dict] = []
    a: list[dict] = []
    b: list[dict] = []
    items: list[dict] = []
    committed: list[dict] = []
    state = {"runs": 0, "realtime_after": None, "frontier": None, "mutable_time": None}
    for number, step in enumerate(runs, 1):
        label = f"run {number} at {step.now} of {runs} (cuts {cuts})"
        realtime += step.realtime
        a += step.a
        b += step.b
        missing_before = ref.missing_deletes
        ref.run(step.now, realtime, [(0, c) for c in a] + [(1, c) for c in b], step.move_to)
        wanted = ref.mutable_time
        first = state["runs"] == 0
        move = first or wanted < state["mutable_time"]
        new_changes = any(state["frontier"] is None or c["changed_at"] > state["frontier"] for c in a + b)
        frontier = step.now if new_changes else None      # with clock feeds the frontier is now (frontier.sql)
        decide, write = shapes[shape(first, frontier is not None, state["frontier"] is not None,
                                     state["realtime_after"] is not None, move)]
        times = {"now": step.now, "frontier": frontier, "state_frontier": state["frontier"], "realtime_after": state["realtime_after"],
                 "move_to": wanted, "mutable_time": state["mutable_time"]}
        # the sources as loaded so far (the items and tl_state views are the last run's)
        for view, layout, rows, new in (("fast_channel_realtime", REALTIME, realtime, step.realtime),
                                        ("fast_channel_a", CHANGES, a, step.a), ("fast_channel_b", CHANGES, b, step.b)):
            if new or number == 1:
                temp_view(runner, view, layout, rows)
        if number == 1:
            temp_view(runner, "fast_channel_items", ITEMS, items)
            temp_view(runner, "fast_channel_state", STATE, committed)
        run = named_rows(runner, with_times(decide, times))[0]
        assert (run["too_early"], run["too_late"], run["bad_ops"]) == (0, 0, 0), f"{label}: a valid run refused: {run}"
        assert run["missing_deletes"] == ref.missing_deletes - missing_before, f"{label}: deletes of missing items {run}"
        run_id = f"r{number}"
        wrote = run["realtime_rows"] > 0 or run["change_rows"] > 0 or move
        if wrote:
            items += named_rows(runner, with_times(write, times).replace(compiled_run_id, run_id))
        if wrote or wanted != state["mutable_time"]:
            committed.append({"model": NAME, "kind": "run", "run_id": run_id, "batch": step.now, "mutable_time": wanted})
            state = {"runs": state["runs"] + 1, "frontier": frontier or state["frontier"], "mutable_time": wanted,
                     "realtime_after": dt.datetime.fromisoformat(run["newest"]) if run["newest"] else state["realtime_after"]}
            temp_view(runner, "fast_channel_items", ITEMS, items)
            temp_view(runner, "fast_channel_state", STATE, committed)
            every = case.get("compact_every")
            if every and wrote and not first and state["runs"] % every == 0:   # channel_compaction_due
                items = named_rows(runner, with_times(run_sql.kept, {"mutable_time": wanted}))
                temp_view(runner, "fast_channel_items", ITEMS, items)
                live = [{c: r[c] for c in COLUMNS} for r in items if not r["_tl_deleted"]]
                assert rows_equal(live, ref.epoch("ALL")), f"{label}: the compacted items are not the ALL epoch\n{items}\n!= {ref.epoch('ALL')}"
                # and one deletion per deleted mutable key, its newest version (late_changes.sql)
                deleted = [(r["item_time"], r["item_id"]) for r in items if r["_tl_deleted"]]
                assert len(deleted) == len(set(deleted)) and not set(deleted) & {(r["item_time"], r["item_id"]) for r in live}, \
                    f"{label}: the deletions kept by the compaction: {deleted}"

        got = named_rows(runner, epochs)
        for epoch in EPOCHS:
            rows = [{c: r[c] for c in COLUMNS} for r in got if r["epoch"] == epoch]
            assert rows_equal(rows, ref.epoch(epoch)), f"{label}: epoch {epoch}\n{rows}\n!= {ref.epoch(epoch)}"
        if number == len(runs):   # one navigation query an example (12 selects over the epochs)
            assert_navigation(runner, run_sql.navigation, ref, random.Random(case["seed"] + number), label)


def assert_navigation(runner, navigation: str, ref: Channel, rng: random.Random, label: str) -> None:
    """The next and previous NAVIGATE_N items of each epoch from an anchor key, by time alone and
    by (time, id), equal the reference's: the anchor an item of the channel (its time and id)
    or a key no item has (a minute of the history's span, an id before, between or after the ids)."""
    keys = [(r["item_time"], r["item_id"]) for r in ref.epoch("ALL")]
    if keys and rng.random() < 0.6:
        anchor = rng.choice(keys)
    else:
        anchor = (M0 + dt.timedelta(minutes=rng.randint(-3 * 24 * 60, 3 * 24 * 60)), rng.choice(["", "r2", "r5x", "zz"]))
    sql = with_times(navigation.replace(ANCHOR_TIME, f"{anchor[0]:%Y-%m-%d %H:%M:%S.%f}")
                     .replace(f"date'{ANCHOR_TIME[:10]}'", f"date'{anchor[0]:%Y-%m-%d}'")
                     .replace(f"'{ANCHOR_ID}'", f"'{anchor[1]}'"), {})
    got = named_rows(runner, sql)
    for epoch in EPOCHS:
        for way in ("next", "previous"):
            by_key = ref.next_from(anchor, NAVIGATE_N, epoch) if way == "next" else ref.previous_from(anchor, NAVIGATE_N, epoch)
            by_time = ref.next(anchor[0], NAVIGATE_N, epoch) if way == "next" else ref.previous(anchor[0], NAVIGATE_N, epoch)
            for what, expected in (("item", by_key), ("time", by_time)):
                name = f"{epoch} {way} {what}"
                rows = [{c: r[c] for c in COLUMNS} for r in got if r["navigation"] == name]
                assert rows_equal(rows, expected), f"{label}: {name} from {anchor}\n{rows}\n!= {expected}"


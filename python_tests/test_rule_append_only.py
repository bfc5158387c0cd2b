"""Fast tier: append_only's rule over random landings, as tideline's macros decide it, against
the reference (reference_mutability.append_only_run).

A run of append_only (macros/mutability) decides its bounds of `along` from the version table's
properties (`append_bounds`, looking up the newest stored values when settle asks for more
than the properties keep: `newest_along_values_sql`), stages the model's rows within them
(`new_rows_sql`), reads what it staged (`staged_facts_sql`, `newest_along_values_sql`) and keeps
new properties for the next run (`append_properties`), then replaces the stored rows of every
staged value. Here the pure macros are called from Python (pure_macros: the macro files
rendered by dbt's Jinja environment) and their SQL runs in this process's SparkSession on
temporary views, for an along of two types (int, crossing from one digit to two, and date),
random bounds, a settle that may change between runs, and random landings, one run after
each; after every run the stored rows must equal the reference's. The orchestration between
the macros follows append_window and materialize_appended; test_mutability.py runs those
end to end."""

from __future__ import annotations

import datetime as dt
import json

import pytest
from hypothesis import strategies as st

from harness import fast_property, named_rows, temp_view
from pure_macros import PureMacros
from reference_mutability import append_only_run

pytestmark = pytest.mark.fast

MACROS = PureMacros("mutability/append_rule.sql", "mutability/append_window.sql", "mutability/staging.sql",
                    "mutability/append_only.sql", "internal/literals.sql")
MODEL_SQL = "select row_id, v from fast_append_source"
DAY0 = dt.date(2020, 1, 1)
# per along type: its SQL type, a value of an offset, and the bounds a case may set
TYPES = {
    "int": ("int", lambda offset: 5 + offset, {"min": ["0", "7"], "max": ["1000000000", "14"]}),
    "date": ("date", lambda offset: DAY0 + dt.timedelta(days=offset), {"min": ["1000-01-01", "2020-01-03"],
                                                                        "max": ["9999-12-31", "2020-01-11"]}),
}


def typed(kind: str, text: str):
    return int(text) if kind == "int" else dt.date.fromisoformat(text)


cases = st.fixed_dictionaries({
    "kind": st.sampled_from(sorted(TYPES)),
    "bounds": st.tuples(st.integers(0, 1), st.integers(0, 1)),
    "runs": st.lists(st.tuples(st.lists(st.integers(0, 12), max_size=4), st.integers(0, 3), st.booleans()), min_size=1, max_size=4),
    "earlier_version_at": st.integers(0, 4),    # the run before which the table is as an earlier tideline left it
})


def edge(kind: str, runs: list[tuple], bounds=(0, 0), earlier_version_at: int = 0) -> dict:
    """An edge case: runs as (offsets landed, settle, --full-refresh)."""
    return {"kind": kind, "bounds": bounds, "runs": runs, "earlier_version_at": earlier_version_at}


EDGE_CASES = [
    edge("int", [([4, 5], 2, False), ([4], 2, False)]),             # 9, 10: the 2nd newest is 9, not '10'
    edge("int", [([3, 4, 5], 0, False), ([6, 4], 0, False)]),       # settle 0: a late 9 is never read
    edge("date", [([0, 0, 1], 0, False), ([1, 2], 0, False)]),      # the seed's partial landing
    edge("date", [([0, 0, 1], 1, False), ([1, 2], 1, False)]),      # settle 1 keeps it
    edge("date", [([0, 1], 0, False), ([0], 3, False)]),            # settle raised: look the values up
    edge("int", [([0, 3, 9, 10], 1, False), ([2, 11], 1, True)], bounds=(1, 1)),   # bounds, then a re-prime
    edge("date", [([], 1, False), ([2], 1, False), ([], 1, False)]),  # nothing landed, then rows
    edge("int", [([1, 1, 1], 2, False), ([1], 2, False)]),          # one value only
    edge("int", [([4, 5], 2, False), ([4], 2, False)], earlier_version_at=2),   # written before along_type: looked up
]


@fast_property(cases, EDGE_CASES)
def test_runs_over_random_landings_keep_the_rows_the_rule_keeps(project, case):
    runner = project.runner
    kind = case["kind"]
    sql_type, value_of, bounds = TYPES[kind]
    low, high = bounds["min"][case["bounds"][0]], bounds["max"][case["bounds"][1]]
    layout = {"row_id": "int", "v": sql_type}
    landed: list[tuple] = []
    stored: list[tuple] = []
    expected: list[tuple] = []
    props: dict | None = None
    for number, (offsets, settle, refresh) in enumerate(case["runs"], 1):
        label = f"{kind} along, bounds [{low}, {high}], run {number} of {case['runs']}"
        landed += [(len(landed) + i + 1, value_of(offset)) for i, offset in enumerate(offsets)]
        temp_view(runner, "fast_append_source", layout, [{"row_id": r, "v": v} for r, v in landed])
        settings = {"type": "append_only", "update_cron": "0 * * * *", "along": "v", "min": low, "max": high,
                    "settle": settle, "max_along_values": 10000}
        if number == case["earlier_version_at"] and props:
            # the table was written by a tideline before along_type: its newest values in text order
            props = {k: v for k, v in props.items() if k != "along_type"}
            props["along_recent"] = json.dumps(sorted(json.loads(props["along_recent"]), reverse=True))
        # append_window: the bounds from the properties (a first run, or --full-refresh, primes)
        prime = props is None or refresh
        if MACROS.append_needs_lookup(settings, props or {}, prime):
            temp_view(runner, "fast_append_stored", layout, [{"row_id": r, "v": v} for r, v in stored])
            recent = [r[0] for r in runner.rows(MACROS.newest_along_values_sql("fast_append_stored", "v", settle))]
        else:
            recent = json.loads((props or {}).get("along_recent") or "[]")
        window = MACROS.append_bounds(settings, props or {}, prime, recent)
        # materialize_appended: stage, read what was staged, keep the properties, write
        runner.execute(f"create or replace temporary view fast_append_staged as "
                       f"{MACROS.new_rows_sql(MODEL_SQL, ['row_id', 'v'], 'v', window)}")
        seen = named_rows(runner, MACROS.staged_facts_sql("fast_append_staged", "v"))[0]
        fresh = [r[0] for r in runner.rows(MACROS.newest_along_values_sql("fast_append_staged", "v", max(settle, 1)))]
        props = MACROS.append_properties(settings, window, seen, fresh, f"2025-01-0{number} 00:00:00")
        staged = runner.rows("select row_id, v from fast_append_staged")
        written = {v for _, v in staged}
        stored = staged if prime else [r for r in stored if r[1] not in written] + staged
        expected, _ = append_only_run(expected, landed, settle, prime, typed(kind, low), typed(kind, high))
        assert sorted(stored) == sorted(expected), f"{label}: window {window}, stored {sorted(stored)} != {sorted(expected)}"
        # the properties the next run starts from: the largest value stored, the newest ones
        values = [str(v) for v in sorted({v for _, v in stored}, reverse=True)]
        assert props.get("along_max") == (values[0] if values else None), f"{label}: along_max in {props}"
        assert json.loads(props["along_recent"]) == values[:max(settle, 1)], f"{label}: along_recent in {props}"

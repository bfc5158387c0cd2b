"""Fast tier: the days_to_process rule's SQL against the reference's rule, on hundreds of states.

The decide query of a daily aggregate (macros/incremental/days_to_process.sql) is rendered once
per setting by dbt (`dbt compile --inline`, no run), then run in this process's SparkSession
against a real `tl_state` (created by tideline's own `ensure_state_tables`) holding a random
state: the aggregate's run rows and per-date rows (processed, skipped, several per date, the
newest wins), and the filtered events' committed batches of date rows (new and late rows),
some before the aggregate's watermark. Each candidate date's decision and the state it leaves
must equal reference.date_decision, the rule the end-to-end reference uses too.

One example is a truncate, an insert and the query on a few rows: 100 random examples and the
explicit edge cases take about half a minute.
"""

from __future__ import annotations

import datetime as dt

import pytest
from hypothesis import strategies as st

from harness import fast_property, sql_literal
from reference import Settings, date_decision

pytestmark = pytest.mark.fast

NOW = dt.datetime(2025, 3, 20, 12, 0)
TODAY = NOW.date()
MODEL = "daily_rule"
WATERMARK = NOW - dt.timedelta(hours=30)   # the aggregate's last run read up to here
# (min_rows_to_process, reprocess_days) of the renderings; None: a first build
RULES = [(1, 0), (3, 2), (2, 7), (5, 3), None]
STATE_COLUMNS = ("run_id", "model", "kind", "batch", "committed_at", "event_date", "new_rows", "late_rows",
                 "processed_rows", "skipped_rows", "last_processed_at")


@pytest.fixture(scope="module")
def decide(project):
    """{rule: the decide query of MODEL for that rule}, and tl_state created empty."""
    project.reset()
    project.dbt("run-operation", "ensure_state_tables")
    rendered = {}
    for rule in RULES:
        first_build = rule is None
        min_rows, reprocess_days = rule or (1, 0)
        result = project.dbt(
            "compile", "--inline", f"{{{{ tideline.days_to_process_sql('{MODEL}', {first_build}, none) }}}}",
            vars={"tideline__min_rows_to_process": min_rows, "tideline__reprocess_days": reprocess_days,
                  "tideline__now": str(NOW)})
        rendered[rule] = result.result.results[0].node.compiled_code
    return rendered


def batch_time(hours: int) -> dt.datetime:
    """A filtered-events batch `hours` after the aggregate's watermark (before it when negative)."""
    return WATERMARK + dt.timedelta(hours=hours)


dates = st.integers(0, 9).map(lambda back: TODAY - dt.timedelta(days=back))
date_rows = st.lists(st.tuples(dates, st.integers(1, 4), st.integers(0, 4)), min_size=1, max_size=4,
                     unique_by=lambda r: r[0])
cases = st.fixed_dictionaries({
    "rule": st.sampled_from(RULES),
    "ran_before": st.booleans(),
    # the filtered events' batches: hours from the watermark (<= 0: read by an earlier run)
    "batches": st.dictionaries(st.integers(-40, 29), date_rows, max_size=4),
    # the aggregate's state rows of a date, oldest first: (processed_rows, skipped_rows)
    "history": st.dictionaries(dates, st.lists(st.tuples(st.integers(0, 20), st.integers(0, 6)), min_size=1, max_size=3),
                               max_size=5),
})


def history_time(case: dict, event_date: dt.date, version: int) -> dt.datetime:
    """When the aggregate committed its state row `version` of a date (its last_processed_at too):
    each date's rows at other minutes, so that the newest row of a date is never a tie."""
    return WATERMARK - dt.timedelta(days=3 - version, minutes=sorted(case["history"]).index(event_date))


def state_rows(case: dict) -> list[tuple]:
    rows = []
    for hours, dated in case["batches"].items():
        batch = batch_time(hours)
        run = f"fe{hours}"
        rows.append((run, "tl_filtered_events", "run", batch, batch, None, None, None, None, None, None))
        for event_date, new, late in dated:
            rows.append((run, "tl_filtered_events", "date", batch, batch, event_date, new, min(late, new), None, None, None))
    if case["ran_before"]:
        rows.append(("m1", MODEL, "run", WATERMARK, WATERMARK, None, None, None, None, None, None))
    for event_date, versions in case["history"].items():
        for v, (processed, skipped) in enumerate(versions):
            at = history_time(case, event_date, v)
            rows.append((f"m{v}", MODEL, "date", None, at, event_date, None, None, processed, skipped, at))
    return rows


def expected(case: dict) -> dict:
    """The bounds and each candidate date's decision, from the reference rule."""
    watermark = WATERMARK if case["ran_before"] and case["rule"] is not None else None
    upper = max((batch_time(h) for h in case["batches"]), default=None)
    new: dict[dt.date, list[int]] = {}
    for hours, dated in case["batches"].items():
        if watermark is None or batch_time(hours) > watermark:
            for event_date, n, late in dated:
                counts = new.setdefault(event_date, [0, 0])
                counts[0] += n
                counts[1] += min(late, n)
    out = {}
    if case["rule"] is None:   # a first build: every committed date, from the filtered events alone
        for event_date, (n, late) in new.items():
            out[event_date] = dict(new_rows=n, late_rows=late, pending_rows=late, processed=True, processed_rows=n,
                                   skipped_rows=0, last_processed_at=NOW)
        return {"watermark": None, "filtered_upper": upper, "dates": out}
    min_rows, reprocess_days = case["rule"]
    rule = Settings(start_date=TODAY, min_rows_to_process=min_rows, reprocess_days=reprocess_days)
    current = {d: versions[-1] for d, versions in case["history"].items()}
    for event_date in set(new) | {d for d, (_, skipped) in current.items() if skipped > 0}:
        n, late = new.get(event_date, (0, 0))
        processed_before, skipped_before = current.get(event_date, (0, 0))
        processed, pending = date_decision(event_date, n, late, skipped_before, NOW, rule)
        before_at = history_time(case, event_date, len(case["history"][event_date]) - 1) if event_date in current else None
        out[event_date] = dict(
            new_rows=n, late_rows=late, pending_rows=pending, processed=processed,
            processed_rows=processed_before + skipped_before + n if processed else processed_before,
            skipped_rows=0 if processed else pending, last_processed_at=NOW if processed else before_at)
    return {"watermark": watermark, "filtered_upper": upper, "dates": out}


def decided(project, sql: str) -> dict:
    columns = ["kind", "watermark", "filtered_upper", "event_date", "new_rows", "late_rows", "pending_rows",
               "processed", "processed_rows", "skipped_rows", "last_processed_at"]
    rows = [dict(zip(columns, r)) for r in project.rows(f"select {', '.join(columns)} from ({sql}) as decide")]
    bounds = [r for r in rows if r["kind"] == "bounds"]
    assert len(bounds) == 1, rows
    parse = lambda text: None if text is None else dt.datetime.fromisoformat(text)   # noqa: E731
    dates = {dt.date.fromisoformat(r["event_date"]): {k: r[k] for k in columns[4:]} for r in rows if r["kind"] == "date"}
    return {"watermark": parse(bounds[0]["watermark"]), "filtered_upper": parse(bounds[0]["filtered_upper"]), "dates": dates}


EDGE_CASES = {
    "nothing new, no state": dict(rule=(3, 2), ran_before=True, batches={}, history={}),
    "one on-time row": dict(rule=(3, 2), ran_before=True, batches={1: [(TODAY, 1, 0)]}, history={}),
    "batches before the watermark are not new": dict(
        rule=(1, 0), ran_before=True, batches={-5: [(TODAY, 3, 0)], 2: [(TODAY - dt.timedelta(days=1), 1, 1)]}, history={}),
    "a late row completes a skipped date": dict(
        rule=(3, 2), ran_before=True, batches={4: [(TODAY - dt.timedelta(days=1), 1, 1)]},
        history={TODAY - dt.timedelta(days=1): [(10, 0), (10, 2)]}),
    "one late row short of min_rows": dict(
        rule=(3, 2), ran_before=True, batches={4: [(TODAY - dt.timedelta(days=1), 1, 1)]},
        history={TODAY - dt.timedelta(days=1): [(10, 1)]}),
    "late rows on the reprocess boundary, and one day older": dict(
        rule=(2, 7), ran_before=True,
        batches={3: [(TODAY - dt.timedelta(days=7), 2, 2), (TODAY - dt.timedelta(days=8), 2, 2)]}, history={}),
    "a skipped date with no new rows": dict(
        rule=(1, 0), ran_before=True, batches={}, history={TODAY: [(4, 2)], TODAY - dt.timedelta(days=3): [(4, 2)]}),
    "the aggregate's first run reads every batch": dict(
        rule=(5, 3), ran_before=False, batches={-20: [(TODAY - dt.timedelta(days=2), 3, 3)], 5: [(TODAY, 1, 0)]}, history={}),
    "a first build": dict(rule=None, ran_before=True, batches={-20: [(TODAY - dt.timedelta(days=2), 3, 1)], 5: [(TODAY, 2, 0)]},
                          history={TODAY: [(1, 1)]}),
}


@fast_property(cases, EDGE_CASES.values())
def test_each_date_is_decided_as_the_reference_rule_decides(project, decide, case):
    project.runner.execute(f"truncate table {project.schema}.tl_state")
    rows = state_rows(case)
    if rows:
        values = ", ".join("(" + ", ".join(sql_literal(v) for v in r) + ")" for r in rows)
        project.runner.execute(f"insert into {project.schema}.tl_state ({', '.join(STATE_COLUMNS)}) values {values}")
    assert decided(project, decide[case["rule"]]) == expected(case), case

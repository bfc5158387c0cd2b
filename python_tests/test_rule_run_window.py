"""Fast tier: one run window of the source, as tideline's SQL reads it, against the reference.

What a run of tl_filtered_events (and of a daily aggregate over source_events()) reads is
decided by three pieces of SQL: the run limits (macros/incremental/run_limits.sql), the CTEs
that count the window's copies and dates (run_window_ctes, the decide query's input) and the
rows the window keeps (the model's `select * from tideline.source_events()` with the window's
markers replaced: the write's select). They are rendered once per setting by dbt (`dbt compile
--inline`, no run) and then run in this process's SparkSession on a small source table holding
a random set of loads: event ids loaded once or again (in the window, before it within and
beyond the dedupe lookback, after now), events late for their date, before the start date, of
another app, without an id or a time. The limits, the rows read, the duplicates dropped and the
rows rejected (the run row's counts), each date's new and late rows
and the kept rows (event, load time, date, batch) must equal what reference.Pipeline computes
for one run from the same watermark.

The watermark is a hole in the rendering (a sentinel time replaced per example): each setting
is rendered for a first run (lower limit at the start date), for a watermark within
backfill_limit_days of now (the upper limit is the literal now) and for an older one (the
upper limit is the limits' subquery); an example uses the rendering tideline would choose for
its watermark. About 0.5 s an example: a truncate, an insert and two queries.
"""

from __future__ import annotations

import datetime as dt

import pytest
from hypothesis import strategies as st

from harness import fast_property, replace_rows, sql_literal
from reference import Pipeline, Settings

pytestmark = pytest.mark.fast

NOW = dt.datetime(2025, 3, 20, 12, 0)
START = NOW.date() - dt.timedelta(days=7)
# (backfill_limit_days, dedupe_lookback_days, app_ids) of the renderings
RULES = [(1, 0, ()), (2, 1, ()), (3, 3, ("web",)), (30, 2, ())]
COLUMNS = ("event_id string, load_tstamp timestamp, load_date date, dvce_created_tstamp timestamp, derived_tstamp timestamp, "
           "collector_tstamp timestamp, event_fingerprint string, app_id string, event_name string, domain_userid string, "
           "tr_total double, os_family string")
NAMES = [c.split()[0] for c in COLUMNS.split(", ")]
# The watermark's holes: a time within backfill_limit_days of NOW for every rule, and one before it.
NEAR, FAR = "2087-06-05 04:03:02.000001", "1987-06-05 04:03:02.000001"
TEMPLATE = """
{%- set model_sql -%}select * from {{ tideline.source_events() }}{%- endset -%}
{%- for name, watermark in [('first', none), ('near', 'NEAR'), ('far', 'FAR')] %}
{%- set lower = tideline.lower_limit(watermark) %}
-- @@ window {{ name }}
with {{ tideline.run_window_ctes(lower) }}
select 'limits' as kind, cast(lower_limit as string) as at, cast(upper_limit as string) as upper_at,
       cast(null as bigint) as new_rows, cast(null as bigint) as late_rows, cast(null as bigint) as other
from limits
union all
select 'date', cast(event_date as string), null, sum(new_rows), sum(late_rows), null
from window_events where event_date is not null group by event_date
union all
select 'read', null, null, rows_read, rows_without_id + without_time, rows_read - events - rows_without_id
from (select {{ tideline.window_totals_sql() }} from window_events) as totals
-- @@ rows {{ name }}
select event_id, cast(load_tstamp as string) as load_tstamp, cast(event_date as string) as event_date,
       cast(_tl_batch as string) as batch
from ({{ tideline._filtered_events_for_window(model_sql, lower, '__UPPER__', '__UPPER_DATE__') }}) as kept
{%- endfor %}
""".replace("'NEAR'", repr(NEAR)).replace("'FAR'", repr(FAR))


@pytest.fixture(scope="module")
def rendered(project):
    """{rule: {'window first': sql, 'rows first': sql, 'window near': ..., ...}}, on an empty source."""
    project.reset()
    project.runner.execute(f"create schema if not exists {project.source_schema}")
    project.runner.execute(f"create table {project.events_table} ({COLUMNS}) using parquet")
    out = {}
    for rule in RULES:
        days, lookback, apps = rule
        result = project.dbt("compile", "--inline", TEMPLATE, vars={
            "tideline__now": str(NOW), "tideline__start_date": str(START), "tideline__backfill_limit_days": days,
            "tideline__dedupe_lookback_days": lookback, "tideline__app_id": list(apps)})
        code = result.result.results[0].node.compiled_code
        parts = code.split("-- @@ ")[1:]
        out[rule] = {p.split("\n", 1)[0].strip(): p.split("\n", 1)[1] for p in parts}
        assert len(out[rule]) == 6, code
    return out


def hours(n: float) -> dt.datetime:
    return NOW - dt.timedelta(hours=n)


# One distinct copy of an event: (id, hours before NOW it was loaded (< 0: after now), hours
# between its time and its load (> 24: late for its date), seconds of device time before its
# load, app, an exact duplicate of it in the same load or not). Loads on the hour (and on the
# half hour) so that the watermark, the upper limit and now often fall on a load.
copies = st.tuples(
    st.sampled_from(["e0", "e1", "e2", "e3", "e4", "e5", None]),
    st.one_of(st.integers(-3, 230), st.integers(-3, 230).map(lambda h: h + 0.5)),
    st.one_of(st.integers(0, 80), st.none()),
    st.integers(0, 3),
    st.sampled_from(["web", "mob"]),
    st.booleans(),
)
cases = st.fixed_dictionaries({
    "rule": st.sampled_from(RULES),
    "watermark": st.one_of(st.none(), st.integers(0, 200).map(hours)),
    "copies": st.lists(copies, max_size=12),
})


def source_rows(case: dict) -> list[dict]:
    rows = []
    for n, (event_id, loaded, age, device, app, duplicated) in enumerate(case["copies"]):
        load = hours(loaded)
        row = {
            "event_id": event_id, "load_tstamp": load, "load_date": load.date(),
            "dvce_created_tstamp": load - dt.timedelta(seconds=device),
            "derived_tstamp": None if age is None else load - dt.timedelta(hours=age),
            "collector_tstamp": load - dt.timedelta(seconds=1),
            "event_fingerprint": f"f{n}", "app_id": app, "event_name": "page_view", "domain_userid": f"u{n % 3}",
            "tr_total": None, "os_family": "Linux",
        }
        rows.append(row)
        if duplicated:
            rows.append(dict(row))
    return rows


def expected(case: dict, rows: list[dict]) -> dict:
    days, lookback, apps = case["rule"]
    pipeline = Pipeline(Settings(start_date=START, backfill_limit_days=days, dedupe_lookback_days=lookback, app_ids=apps))
    pipeline.watermark = case["watermark"]
    pipeline.run(rows, NOW)
    lower, upper, read = pipeline.windows[-1]
    run_row = pipeline.counts[-1]
    dates: dict[str, list[int]] = {}
    for r in pipeline.filtered.values():
        counts = dates.setdefault(str(r["derived_tstamp"].date()), [0, 0])
        counts[0] += 1
        counts[1] += r["load_tstamp"].date() > r["derived_tstamp"].date()
    kept = sorted((r["event_id"], r["load_tstamp"], str(r["derived_tstamp"].date()), upper) for r in pipeline.filtered.values())
    return {"lower": lower, "upper": upper, "read": read, "dates": dates, "kept": kept,
            "rejected": run_row["rows_rejected"], "duplicates": run_row["duplicates_dropped"]}


def rendering(case: dict) -> str:
    """The rendering tideline chooses for the case's watermark (macro window_upper_sql)."""
    if case["watermark"] is None:
        return "first"
    return "near" if case["watermark"] + dt.timedelta(days=case["rule"][0]) >= NOW else "far"


def with_watermark(sql: str, case: dict) -> str:
    name = rendering(case)
    if name == "first":
        return sql
    sentinel = NEAR if name == "near" else FAR
    watermark = case["watermark"]
    return sql.replace(sentinel, f"{watermark:%Y-%m-%d %H:%M:%S}").replace(sentinel[:10], f"{watermark:%Y-%m-%d}")


def read_window(project, sqls: dict, case: dict) -> dict:
    name = rendering(case)
    parse = dt.datetime.fromisoformat
    rows = [dict(zip(("kind", "at", "upper_at", "new_rows", "late_rows", "other"), r))
            for r in project.rows(with_watermark(sqls[f"window {name}"], case))]
    limits = [r for r in rows if r["kind"] == "limits"]
    assert len(limits) == 1, rows
    totals = [r for r in rows if r["kind"] == "read"][0]
    upper = parse(limits[0]["upper_at"])
    kept_sql = with_watermark(sqls[f"rows {name}"], case).replace("__UPPER_DATE__", f"{upper:%Y-%m-%d}") \
        .replace("__UPPER__", sql_literal(upper))
    kept = sorted((r[0], r[1], r[2], parse(r[3])) for r in project.rows(kept_sql))
    return {
        "lower": parse(limits[0]["at"]), "upper": upper,
        "read": totals["new_rows"], "rejected": totals["late_rows"], "duplicates": totals["other"],
        "dates": {r["at"]: [r["new_rows"], r["late_rows"]] for r in rows if r["kind"] == "date"},
        "kept": [(e, parse(t), d, b) for e, t, d, b in kept],
    }


def load(event_id, loaded, age=2, device=0, app="web", duplicated=False):
    return (event_id, loaded, age, device, app, duplicated)


EDGE_CASES = {
    "an empty source, first run": dict(rule=RULES[1], watermark=None, copies=[]),
    "nothing new after the watermark": dict(rule=RULES[1], watermark=hours(10), copies=[load("e0", 20)]),
    "one on-time row": dict(rule=RULES[1], watermark=hours(10), copies=[load("e0", 5)]),
    "duplicates in one load and across loads": dict(rule=RULES[2], watermark=hours(10), copies=[
        load("e0", 30), load("e0", 5), load("e1", 6, duplicated=True), load("e1", 4), load("e2", 3, device=2), load("e2", 3)]),
    "a copy loaded before the dedupe lookback does not count": dict(rule=RULES[1], watermark=hours(10), copies=[
        load("e0", 80), load("e0", 5)]),
    "loads on the watermark, on now and after now": dict(rule=RULES[0], watermark=hours(10), copies=[
        load("e0", 10), load("e1", 0), load("e2", -1)]),
    "a load on the upper limit after a gap, and one just after it": dict(rule=RULES[0], watermark=hours(100), copies=[
        load("e0", 90), load("e1", 66), load("e2", 65.5)]),
    "a late row and one before the start date": dict(rule=RULES[3], watermark=None, copies=[
        load("e0", 30, age=50), load("e1", 100, age=80), load("e2", 170, age=3)]),
    "no id, no time, another app": dict(rule=RULES[2], watermark=hours(20), copies=[
        load(None, 5), load("e0", 4, age=None), load("e0", 3), load("e1", 3, app="mob")]),
}


@fast_property(cases, EDGE_CASES.values())
def test_a_run_window_reads_and_keeps_what_the_reference_run_does(project, rendered, case):
    rows = source_rows(case)
    replace_rows(project.runner, project.events_table, NAMES, rows)
    assert read_window(project, rendered[case["rule"]], case) == expected(case, rows), case

"""A daily aggregate's `measures` (the merge path, daily_user_activity_merged's config) refused by
name before anything is written: a kind that cannot be merged (with its fix), a malformed
config, a measure that is not a column of the select or not of a type its kind merges, measures
changed since the parts were made, a backfill, and a recompute table taken over without
--full-refresh. Each refusal fails the command, names the model, the measure, the value and
what is accepted, and changes no table, file or state row (Project.refused)."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from harness import Project
from tideline_tools.generator import EventWorld

pytestmark = pytest.mark.local_only

WORLD = EventWorld(seed=911, start=dt.datetime(2025, 7, 1), days=2, events_per_day=60, users=6)
NOW = "2025-07-04 00:00:00"
VARS = {"tideline__start_date": "2025-07-01", "tideline__now": NOW}
GOOD = "{'events': 'count', 'page_views': 'sum', 'first_seen': 'min', 'os_sketch': 'hll'}"
MODEL = """{{{{ config(materialized='tideline_daily_aggregate', measures={measures}) }}}}
select
    event_date,
    domain_userid,
    count(*) as events,
    count_if(event_name = 'page_view') as page_views,
    min(derived_tstamp) as first_seen,
    hll_sketch_agg(os_family) as os_sketch
from {{{{ tideline.filtered_events() }}}}
group by event_date, domain_userid
"""
PROJECT_YML = """name: tideline_merge_refusals
version: "0.1.0"
config-version: 2
profile: tideline
model-paths: ["models"]
models:
  tideline:
    examples:
      +enabled: false
"""


def write_project(folder: Path, measures: str) -> Path:
    (folder / "models").mkdir(parents=True, exist_ok=True)
    (folder / "dbt_project.yml").write_text(PROJECT_YML)
    (folder / "packages.yml").write_text(f"packages:\n  - local: {Path(__file__).resolve().parents[1]}\n")
    (folder / "models" / "merged.sql").write_text(MODEL.format(measures=measures))
    return folder


CASES = [
    # (case, measures, extra args, the rule's whole message)
    ("a median", "{'events': 'median'}", [],
     "tideline: daily aggregate merged: measure events = median cannot be merged: it is not a kind tideline can merge (a median or a percentile needs every value); leave `measures` out and the model recomputes whole days; accepted kinds: count, sum, min, max, first, last, hll. Nothing was written."),
    ("an average", "{'events': 'avg'}", [],
     "tideline: daily aggregate merged: measure events = avg cannot be merged: an average cannot be merged from averages; declare its sum and its count as two measures (sum, count) and divide them where you read the model; accepted kinds: count, sum, min, max, first, last, hll. Nothing was written."),
    ("a distinct count", "{'events': 'count_distinct'}", [],
     "tideline: daily aggregate merged: measure events = count_distinct cannot be merged: distinct counts of parts do not add up; keep hll_sketch_agg(x) as a measure of kind hll and read it with hll_sketch_estimate"),
    ("a kind that is a number", "{'events': 1}", [],
     "tideline: daily aggregate merged: measure events = 1 cannot be merged"),
    ("a list", "['events']", [],
     "tideline: model merged: config measures = [\"events\"] is invalid; accepted: a mapping {column: kind}, kinds count, sum, min, max, first, last, hll"),
    ("measures changed", "{'events': 'max', 'page_views': 'sum', 'first_seen': 'min', 'os_sketch': 'hll'}", [],
     "has parts made with measures events:count,first_seen:min,os_sketch:hll,page_views:sum; its config measures (events:max,first_seen:min,os_sketch:hll,page_views:sum) merge partial aggregates, which it does not hold. Nothing was written. Rebuild it with dbt run --full-refresh --select merged."),
    ("not a column, on a rebuild", "{'events': 'count', 'visits': 'sum'}", ["--full-refresh"],
     "tideline: daily aggregate merged: measure visits (sum) is not a column of its select (columns: event_date, domain_userid, events, page_views, first_seen, os_sketch, _tl_batch, _tl_run). Nothing was written."),
    ("an hll that is not a sketch, on a rebuild", "{'events': 'hll'}", ["--full-refresh"],
     "tideline: daily aggregate merged: measure events (hll) is bigint, a hll measure must be binary. Nothing was written."),
    ("a count that is not a number, on a rebuild", "{'first_seen': 'count'}", ["--full-refresh"],
     "tideline: daily aggregate merged: measure first_seen (count) is timestamp, a count measure must be bigint or int. Nothing was written."),
    ("the date column, on a rebuild", "{'event_date': 'max'}", ["--full-refresh"],
     "tideline: daily aggregate merged: measure event_date (max) is its date column, a key. Nothing was written."),
    ("a backfill", GOOD, [],
     "tideline: cannot backfill merged: it merges partial aggregates (config measures); rebuild it with --full-refresh instead"),
]


@pytest.fixture(scope="module")
def built(project, tmp_path_factory):
    """The model built over two loads, with its good measures."""
    project.reset()
    folder = write_project(tmp_path_factory.mktemp("merge_refusals"), GOOD)
    project.dbt("deps", project_dir=folder)
    project.load(WORLD, until=dt.datetime(2025, 7, 2, 12))
    project.dbt("run", "--select", "tl_filtered_events", "merged", vars=VARS, project_dir=folder)
    project.load(WORLD, until=dt.datetime(2025, 7, 3, 12))
    project.dbt("run", "--select", "tl_filtered_events", "merged", vars=VARS, project_dir=folder)
    assert project.rows(f"select count(*) from {project.fresh('merged')}")[0][0] > 0
    project.load(WORLD, until=dt.datetime(2025, 7, 4))   # new rows the refused runs must not take
    return folder


@pytest.mark.parametrize("case, measures, extra, message", CASES, ids=[c[0] for c in CASES])
def test_bad_measures_are_refused_and_change_nothing(project, built, case, measures, extra, message):
    write_project(built, measures)
    run_vars = {**VARS, "tideline__backfill_dates": ["2025-07-01", "2025-07-02"]} if case == "a backfill" else VARS
    project.refused(message, lambda: project.dbt("run", "--select", "merged", *extra, vars=run_vars, project_dir=built,
                                                 expect_success=False))


def test_a_recompute_table_is_taken_over_only_by_a_full_refresh(project, built, tmp_path):
    """The same select without `measures` (the recompute path, a table), then with them: refused
    until --full-refresh, which converts it to the merged view with the same rows."""
    plain = write_project(tmp_path / "plain", GOOD)
    (plain / "models" / "merged.sql").write_text(MODEL.format(measures=GOOD).replace(", measures=" + GOOD, ""))
    project.dbt("deps", project_dir=plain)
    project.dbt("run", "--full-refresh", "--select", "merged", vars=VARS, project_dir=plain)
    assert not project.is_view(project.relation("merged"))
    read = "select event_date, domain_userid, events, page_views, first_seen, hll_sketch_estimate(os_sketch) from {}"
    recomputed = sorted(project.rows(read.format(project.fresh("merged"))))
    write_project(built, GOOD)
    project.refused("is a table (built recomputing whole days); its config measures (events:count,first_seen:min,os_sketch:hll,page_views:sum) "
                    "merge partial aggregates, which it does not hold. Nothing was written. Rebuild it with dbt run --full-refresh --select merged.",
                    lambda: project.dbt("run", "--select", "merged", vars=VARS, project_dir=built, expect_success=False))
    project.dbt("run", "--full-refresh", "--select", "merged", vars=VARS, project_dir=built)
    assert project.is_view(project.relation("merged"))
    assert sorted(project.rows(read.format(project.fresh("merged")))) == recomputed

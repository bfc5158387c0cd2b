"""One dbt build end to end, on `local` and (with `make test-cluster`) on the real cluster."""

from __future__ import annotations

import datetime as dt
from collections import defaultdict

import pytest

from tideline_tools.generator import EventWorld

pytestmark = pytest.mark.both_targets

WORLD = EventWorld(seed=21, start=dt.datetime(2025, 5, 1), days=3, events_per_day=400, users=30)
GROUPS = {"page_view": "engagement", "page_ping": "engagement", "link_click": "engagement",
          "transaction": "commerce"}


def reference_events_daily(project) -> list[dict]:
    """example_events_daily computed in Python from the raw source rows (not from the model's SQL)."""
    rows = project.rows(f"select derived_tstamp, app_id, event_name, event_id, tr_total from {project.events_table}")
    groups: dict[tuple, dict] = defaultdict(lambda: {"rows": 0, "ids": set(), "revenue": 0.0})
    for derived, app_id, name, event_id, total in rows:
        g = groups[(derived.date(), app_id, name)]
        g["rows"] += 1
        g["ids"].add(event_id)
        g["revenue"] += total or 0.0
    return [
        {"event_date": d, "app_id": a, "event_name": n, "event_group": GROUPS[n], "event_rows": g["rows"],
         "distinct_events": len(g["ids"]), "revenue": round(g["revenue"], 6)}
        for (d, a, n), g in groups.items()
    ]


def test_dbt_build_matches_a_reference_after_each_load(project):
    project.load(WORLD, until=dt.datetime(2025, 5, 2, 12), cadence_seconds=3600)
    result = project.dbt("build")
    status = result.node_status()
    assert status["example_events_daily"] == "success"
    assert status["tideline_event_catalog"] == "success"
    assert status["assert_example_events_daily_one_row_per_grain"] == "pass"
    first = reference_events_daily(project)
    assert sum(r["event_rows"] for r in first) > 0
    project.assert_table_equals("example_events_daily", first)

    project.load(WORLD, until=WORLD.last_arrival(), cadence_seconds=3600)
    project.dbt("build")
    second = reference_events_daily(project)
    assert sum(r["event_rows"] for r in second) == WORLD.rows_total()
    project.assert_table_equals("example_events_daily", second)
    project.assert_table_equals(
        "tideline_event_catalog", [{"event_name": n, "event_group": g} for n, g in GROUPS.items()])

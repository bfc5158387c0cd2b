"""Contract 7: a run that changes nothing writes nothing. After a pipeline that leaves late rows
skipped for good, 20 runs with no new loads (at later and later "now"s, so the skipped dates fall
out of reprocess_days) leave every file of the state table, the filtered events and the daily
aggregate as it was: no empty file, no repeated state row. `make test` runs 8 of the 20 runs (48
hours: the skipped dates fall out of reprocess_days too), the extended tier all 20."""

from __future__ import annotations

import datetime as dt
import os
from pathlib import Path

import pytest

from harness import extended_tier
from tideline_tools.generator import EventWorld

pytestmark = pytest.mark.local_only

WORLD = EventWorld(seed=909, start=dt.datetime(2025, 5, 1), days=3, events_per_day=80, users=8,
                   late_share=0.2, max_late_days=2, duplicate_share=0.02, reload_share=0.02)
VARS = {"tideline__start_date": "2025-05-01", "tideline__reprocess_days": 1, "tideline__min_rows_to_process": 50}
SELECT = ["tl_filtered_events", "daily_user_activity"]
TABLES = ["tl_state", "tl_filtered_events__tl_rows", "daily_user_activity"]


def files(project, table: str) -> dict[str, tuple[int, int]]:
    """Every file under the table's folder: path -> (size, modification time in ns)."""
    folder = Path(os.environ["TIDELINE_DATA_DIR"]) / "warehouse" / f"{project.schema}.db" / table
    assert folder.is_dir(), folder
    return {str(p.relative_to(folder)): (p.stat().st_size, p.stat().st_mtime_ns)
            for p in folder.rglob("*") if p.is_file()}


@pytest.mark.longer_in_extended
def test_runs_without_new_loads_leave_every_file_and_row_as_it_was(project):
    last = WORLD.last_arrival().replace(tzinfo=None)
    first = dt.datetime(2025, 5, 3)
    project.load(WORLD, until=first, cadence_seconds=3600)
    project.dbt("run", "--select", *SELECT, vars={**VARS, "tideline__now": str(first)})
    # the late arrivals come after the first build: too few, and too old, to be processed
    project.load(WORLD, until=last, cadence_seconds=3600)
    project.dbt("run", "--select", *SELECT, vars={**VARS, "tideline__now": str(last)})
    skipped = project.rows(f"""select count(*) from {project.fresh('tl_daily_aggregation_manifest')}
        where skipped_rows > 0""")[0][0]
    assert skipped > 0, "the scenario should leave late dates skipped"
    before = {t: files(project, t) for t in TABLES}
    rows_before = {t: project.table(t) for t in ("tl_state", "tl_filtered_events", "daily_user_activity")}
    for i in range(20 if extended_tier() else 8):
        now = last + dt.timedelta(hours=6 * (i + 1))
        result = project.dbt("run", "--select", *SELECT, vars={**VARS, "tideline__now": str(now)})
        assert any("nothing to do" in line for line in result.tideline_lines), result.tideline_lines
    assert {t: files(project, t) for t in TABLES} == before
    for table, rows in rows_before.items():
        assert project.table(table) == rows, table

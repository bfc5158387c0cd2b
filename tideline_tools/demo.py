"""`make demo`: load sample events into the source table, `dbt build` on `local`, list the tables.

Rerunnable: each run starts from a fresh source table in the project's own data folder
(.tideline/local, the same one an activated shell's `dbt` uses) and a full-refresh build.
"""

from __future__ import annotations

import argparse
import datetime as dt
import sys
import time

from .dbt import run_dbt
from .generator import EventWorld, load_events
from .localenv import MetastoreLocked, use_data_dir

SOURCE_SCHEMA = "tideline_source"
SOURCE_TABLE = "events"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="make demo", description=__doc__)
    parser.add_argument("--days", type=int, default=7, help="days of events (default 7)")
    parser.add_argument("--events-per-day", type=int, default=2000, help="events per day (default 2000)")
    args = parser.parse_args(argv)

    try:
        use_data_dir()
    except MetastoreLocked as exc:
        print(f"tideline: {exc}", file=sys.stderr)
        return 2
    from .sql import connect

    started = time.monotonic()
    runner = connect("local")
    world = EventWorld(days=args.days, events_per_day=args.events_per_day, start=dt.datetime(2025, 1, 1))
    source = f"{SOURCE_SCHEMA}.{SOURCE_TABLE}"
    runner.execute(f"drop table if exists {source}")
    gap_day = world.start + dt.timedelta(days=min(3, world.days - 1))
    rows = load_events(
        runner, world, source, until=world.last_arrival(), cadence_seconds=3600,
        gaps=[(gap_day, gap_day + dt.timedelta(days=1))],
    )
    print(f"loaded {rows} event rows into {source} (hourly loads, no loads on {gap_day.date()})")

    vars_ = {"tideline__events_schema": SOURCE_SCHEMA, "tideline__events_table": SOURCE_TABLE}
    result = run_dbt(["build", "--full-refresh"], vars=vars_, target="local")
    built = []
    for r in result.result.results:
        node = r.node
        if node.resource_type in ("model", "seed", "snapshot") and str(r.status) == "success":
            relation = f"{node.schema}.{node.alias}"
            built.append((relation, node.resource_type, int(runner.rows(f"select count(*) from {relation}")[0][0])))
    built.insert(0, (source, "source", int(runner.rows(f"select count(*) from {source}")[0][0])))
    width = max(len(name) for name, _, _ in built)
    print(f"\n{'table'.ljust(width)}  {'kind':<8}  rows")
    for name, kind, count in built:
        print(f"{name.ljust(width)}  {kind:<8}  {count}")
    tests = [r for r in result.result.results if r.node.resource_type == "test"]
    print(f"\n{len(tests)} data tests passed; demo took {time.monotonic() - started:.0f}s")
    return 0


if __name__ == "__main__":
    sys.exit(main())

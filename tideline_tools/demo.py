"""The demo: sample events dated relative to today, on the local target.

  make demo          (python -m tideline_tools.demo)
      Replaces the source table tideline_source.events with a fresh sample: DAYS days of events
      up to today, loaded hourly (no loads on one day), holding back the last 24 hours of
      arrivals; then `dbt build --full-refresh` and a list of the tables. Says what it replaces
      before it does.
  make next-load     (python -m tideline_tools.demo next-load [--hours N])
      Loads the next N hours (default 1) of the held-back arrivals, never past now, and runs
      `dbt run`, as an hourly schedule would; then shows what user_attributes holds.

The demo's world (its first day, days, events per day) is kept in <data folder>/demo.json, so
next-load continues the same events on a later day too. dbt runs with the real clock (no
tideline__now): the last-7-days attributes count the demo's recent days.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import sys
import time
from pathlib import Path

from . import console
from .dbt import DbtResult, run_dbt
from .generator import EventWorld, last_load, load_events
from .localenv import MetastoreLocked, use_data_dir

SOURCE_SCHEMA = "tideline_source"
SOURCE_TABLE = "events"
SOURCE = f"{SOURCE_SCHEMA}.{SOURCE_TABLE}"
DBT_VARS = {"tideline__events_schema": SOURCE_SCHEMA, "tideline__events_table": SOURCE_TABLE}
HOLD_BACK = dt.timedelta(hours=24)


def _hour(value: dt.datetime) -> dt.datetime:
    return value.replace(minute=0, second=0, microsecond=0)


def _now() -> dt.datetime:
    return dt.datetime.now(dt.timezone.utc)


def _world(settings: dict) -> EventWorld:
    return EventWorld(days=settings["days"], events_per_day=settings["events_per_day"],
                      start=dt.datetime.fromisoformat(settings["start"]))


def _gap(world: EventWorld) -> tuple[dt.datetime, dt.datetime]:
    day = world.start + dt.timedelta(days=min(3, world.days - 1))
    return day, day + dt.timedelta(days=1)


def _source_rows(runner) -> tuple[int, dt.datetime | None] | None:
    """(rows, latest load_tstamp) of the source table, or None when there is none."""
    if SOURCE_SCHEMA not in {r[0] for r in runner.rows("show schemas")} \
            or not runner.rows(f"show tables in {SOURCE_SCHEMA} like '{SOURCE_TABLE}'"):
        return None
    return int(runner.rows(f"select count(*) from {SOURCE}")[0][0]), last_load(runner, SOURCE)


def _relation(result: DbtResult, name: str) -> str:
    node = next(r.node for r in result.result.results if r.node.name == name)
    return f"{node.schema}.{node.alias}"


def _print_tables(runner, result: DbtResult) -> None:
    built = [(SOURCE, "source", int(runner.rows(f"select count(*) from {SOURCE}")[0][0]))]
    for r in result.result.results:
        node = r.node
        if node.resource_type in ("model", "seed", "snapshot") and str(r.status) == "success":
            relation = f"{node.schema}.{node.alias}"
            built.append((relation, node.resource_type, int(runner.rows(f"select count(*) from {relation}")[0][0])))
    console.table("what make demo built", ["table", "kind", "rows"], built)


def _print_attributes(runner, result: DbtResult) -> None:
    users, active, views, last_seen = runner.rows(
        "select count(*), count_if(active_days_last_7_days > 0), coalesce(sum(page_views_last_7_days), 0), "
        f"cast(max(last_seen_date) as string) from {_relation(result, 'user_attributes')}")[0]
    print(f"\nuser_attributes: {users} users, {active} active in the last 7 days, "
          f"{views} page views in the last 7 days, last seen {last_seen}")


def _print_freshness() -> None:
    """`dbt source freshness` of the events source (models/tideline/sources.yml): its last load,
    how long ago, and dbt's verdict against the declared thresholds."""
    result = run_dbt(["source", "freshness", "--select", "source:tideline.events"], vars=DBT_VARS, target="local",
                     expect_success=False)
    for r in getattr(result.result, "results", None) or []:
        if r.node.resource_type != "source":   # the project's hooks run too
            continue
        freshness = r.node.freshness
        limits = ", ".join(f"{name} after {rule.count} {rule.period}s" for name, rule in
                           (("warn", freshness.warn_after), ("error", freshness.error_after)) if rule and rule.count)
        if getattr(r, "max_loaded_at", None) is None:
            print(f"\nsource {r.node.source_name}.{r.node.name}: {r.status}: {r.message}")
            continue
        print(f"\nsource {r.node.source_name}.{r.node.name}: last load {r.max_loaded_at:%Y-%m-%d %H:%M} UTC, "
              f"{r.age / 3600:.1f} hours ago: {r.status} ({limits}; dbt source freshness checks it)")


def demo(data_dir: Path, runner, days: int, events_per_day: int) -> int:
    started = time.monotonic()
    now = _now()
    existing = _source_rows(runner)
    if existing is not None:
        print(f"tideline: make demo replaces {SOURCE} ({existing[0]} rows, loads up to {existing[1]}) with a "
              "fresh sample and rebuilds every model (--full-refresh)", flush=True)
    first_day = (now - dt.timedelta(days=days - 1)).replace(hour=0, minute=0, second=0, microsecond=0)
    settings = {"start": first_day.isoformat(), "days": days, "events_per_day": events_per_day}
    world = _world(settings)
    runner.execute(f"drop table if exists {SOURCE}")
    until = _hour(now) - HOLD_BACK
    gap = _gap(world)
    with console.step(f"generating {days} days of events into {SOURCE}"):
        rows = load_events(runner, world, SOURCE, until=until, cadence_seconds=3600, gaps=[gap])
    (data_dir / "demo.json").write_text(json.dumps(settings) + "\n")
    print(f"loaded {rows} event rows into {SOURCE}: events from {first_day.date()} on, hourly loads up to {until} "
          f"(none on {gap[0].date()}); the last 24 hours of arrivals are held back for `make next-load`")

    result = run_dbt(["build", "--full-refresh"], vars=DBT_VARS, target="local")
    _print_tables(runner, result)
    tests = [r for r in result.result.results if r.node.resource_type == "test"]
    print(f"\n{len(tests)} data tests passed; demo took {time.monotonic() - started:.0f}s")
    _print_attributes(runner, result)
    _print_freshness()
    print("\nnext: make next-load   (adds the next hour of events and runs dbt run; --hours N for more)")
    return 0


def next_load(data_dir: Path, runner, hours: int) -> int:
    settings_file = data_dir / "demo.json"
    if not settings_file.exists() or _source_rows(runner) is None:
        print(f"tideline: no demo events in {data_dir}; run make demo first", file=sys.stderr)
        return 2
    world = _world(json.loads(settings_file.read_text()))
    last = last_load(runner, SOURCE)
    until = min(last + dt.timedelta(hours=hours), _hour(_now()))
    if until > last:
        with console.step(f"loading the hours after {last} into {SOURCE}"):
            rows = load_events(runner, world, SOURCE, until=until, cadence_seconds=3600, gaps=[_gap(world)])
        print(f"loaded {rows} event rows into {SOURCE}: hourly loads after {last} up to {until}")
    else:
        print(f"nothing to load: {SOURCE} is loaded up to {last}, the last full hour; dbt run finds nothing new")
    result = run_dbt(["run"], vars=DBT_VARS, target="local")   # dbt prints each model's tideline line
    _print_attributes(runner, result)
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tideline_tools.demo", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("command", nargs="?", choices=["demo", "next-load"], default="demo")
    parser.add_argument("--days", type=int, default=7, help="demo: days of events, up to today (default 7)")
    parser.add_argument("--events-per-day", type=int, default=2000, help="demo: events per day (default 2000)")
    parser.add_argument("--hours", type=int, default=1, help="next-load: hours of loads to add (default 1)")
    args = parser.parse_args(argv)
    if args.days < 2 or args.events_per_day < 1 or args.hours < 1:
        parser.error("--days must be >= 2, --events-per-day and --hours >= 1")

    try:
        data_dir = use_data_dir()
    except MetastoreLocked as exc:
        print(f"tideline: {exc}", file=sys.stderr)
        return 2
    from .sql import connect

    runner = connect("local")
    if args.command == "next-load":
        return next_load(data_dir, runner, args.hours)
    return demo(data_dir, runner, args.days, args.events_per_day)


if __name__ == "__main__":
    sys.exit(main())

"""Command line of the event generator: one call is one load (or, with --cadence, many).

    python -m tideline_tools.generate --days 10 --events-per-day 1000 --until 2025-01-05
    python -m tideline_tools.generate --days 30 --events-per-day 333334 --cadence 3600 --until all
"""

from __future__ import annotations

import argparse
import dataclasses
import datetime as dt
import sys
import time

from . import console
from .generator import EventWorld, load_events


def _gap(text: str) -> tuple[str, str]:
    start, sep, end = text.partition("/")
    if not sep:
        day = dt.date.fromisoformat(start)
        return day.isoformat(), (day + dt.timedelta(days=1)).isoformat()
    return start, end


def build_parser() -> argparse.ArgumentParser:
    defaults = EventWorld()
    p = argparse.ArgumentParser(prog="python -m tideline_tools.generate", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    w = p.add_argument_group("the world (what happens)")
    w.add_argument("--seed", type=int, default=defaults.seed)
    w.add_argument("--start", default=defaults.start.date().isoformat(), help="first event date (UTC)")
    w.add_argument("--days", type=int, default=defaults.days)
    w.add_argument("--events-per-day", type=int, default=defaults.events_per_day)
    w.add_argument("--users", type=int, default=defaults.users)
    w.add_argument("--app-ids", default=",".join(defaults.app_ids), help="comma-separated")
    for field in ("late_share", "duplicate_share", "reload_share", "pre_start_share", "bot_share"):
        w.add_argument("--" + field.replace("_", "-"), type=float, default=getattr(defaults, field))
    for field in ("max_late_days", "reload_after_days", "pre_start_days", "bot_users"):
        w.add_argument("--" + field.replace("_", "-"), type=int, default=getattr(defaults, field))
    l_ = p.add_argument_group("the load (what the loader writes now)")
    l_.add_argument("--until", required=True, help="load time (UTC), or 'all' for the world's last arrival")
    l_.add_argument("--since", help="default: the table's latest load_tstamp")
    l_.add_argument("--cadence", type=int, help="seconds between loads: write many loads in one call")
    l_.add_argument("--gap", action="append", default=[], type=_gap,
                    help="a day (2025-01-05) or a period (start/end) without loads; repeatable")
    l_.add_argument("--table", default="tideline_source.events")
    l_.add_argument("--replace", action="store_true", help="drop the table first")
    l_.add_argument("--target", choices=["local", "cluster"], default=None, help="default: TIDELINE_TARGET or local")
    return p


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        world = EventWorld(
            seed=args.seed, start=args.start, days=args.days, events_per_day=args.events_per_day,
            users=args.users, app_ids=tuple(a for a in args.app_ids.split(",") if a),
            **{f.name: getattr(args, f.name) for f in dataclasses.fields(EventWorld)
               if f.name in ("late_share", "duplicate_share", "reload_share", "pre_start_share", "bot_share",
                             "max_late_days", "reload_after_days", "pre_start_days", "bot_users")},
        )
    except ValueError as exc:
        print(f"tideline generate: {exc}", file=sys.stderr)
        return 2
    from .localenv import MetastoreLocked, use_data_dir
    from .profile import target_name
    from .sql import connect

    target = target_name(args.target)
    if target == "local":
        try:
            use_data_dir()
        except MetastoreLocked as exc:
            print(f"tideline generate: {exc}", file=sys.stderr)
            return 2
    runner = connect(target)
    if args.replace:
        runner.execute(f"drop table if exists {args.table}")
    until = world.last_arrival() if args.until == "all" else args.until
    started = time.monotonic()
    try:
        with console.step(f"loading events into {args.table}"):
            rows = load_events(runner, world, args.table, until=until, since=args.since,
                               cadence_seconds=args.cadence, gaps=args.gap)
    except ValueError as exc:
        print(f"tideline generate: {exc}", file=sys.stderr)
        return 2
    print(f"loaded {rows} rows into {args.table} in {time.monotonic() - started:.1f}s")
    return 0


if __name__ == "__main__":
    sys.exit(main())

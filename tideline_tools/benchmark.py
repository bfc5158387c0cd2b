"""Benchmark (not a test): does an incremental run cost the same with 7 or 365 days of history?

    python -m tideline_tools.benchmark                       # 7 and 365 days, 5000 events a day
    python -m tideline_tools.benchmark --events-per-day 20000 --histories 7 365

For each history length it loads that many days of events (hourly loads), builds the pipeline
once, loads one more hour of events, then measures side by side, in this one process:
  * one incremental `dbt run` over that new hour;
  * one `dbt run --full-refresh` over everything.
It prints wall time, the time dbt spent inside the models (wall minus parsing), and the number
of SQL statements dbt sent to Spark, then the ratios: for the whole run, and for the
incremental models alone (the attributes table is dropped and recomputed over the whole
lifetime on every run, so its cost grows with history by design). Absolute times on a shared machine are
noisy; the ratios measured in one run are the result. Data lives in .tideline/benchmark.
"""

from __future__ import annotations

import argparse
import datetime as dt
import sys
import time

from .profile import PROJECT_DIR

MODELS = ["tl_filtered_events", "daily_user_activity",
          "daily_page_activity", "user_attributes"]


def measure(args: list[str], vars_: dict, schema: str) -> dict:
    import os

    from .dbt import run_dbt

    queries = [0]

    def count(event) -> None:
        if event.info.name == "SQLQuery":
            queries[0] += 1

    os.environ["TIDELINE_SCHEMA"] = schema
    started = time.monotonic()
    result = run_dbt(args, vars=vars_, target="local", on_event=count)
    wall = time.monotonic() - started
    in_models = sum(r.execution_time for r in result.result.results)
    per_model = {r.node.name: round(r.execution_time, 2) for r in result.result.results}
    return {"wall": wall, "models": in_models, "queries": queries[0], "per_model": per_model}


def bench_history(runner, days: int, events_per_day: int, seed: int) -> dict:
    from .generator import EventWorld, load_events

    start = dt.datetime(2024, 1, 1)
    end = start + dt.timedelta(days=days)
    world = EventWorld(seed=seed, start=start, days=days + 1, events_per_day=events_per_day,
                       users=max(100, events_per_day // 10))
    schema, source = f"bench_{days}d", f"bench_{days}d_src"
    for s in (schema, source):
        runner.execute(f"drop schema if exists {s} cascade")
    t0 = time.monotonic()
    rows = load_events(runner, world, f"{source}.events", until=end, cadence_seconds=3600)
    print(f"[{days} days] loaded {rows} rows of history in {time.monotonic() - t0:.0f}s", flush=True)
    base = {"tideline__events_schema": source, "tideline__start_date": start.date().isoformat(),
            "tideline__backfill_limit_days": days + 30}
    t0 = time.monotonic()
    measure(["run", "--select", *MODELS], {**base, "tideline__now": str(end)}, schema)
    print(f"[{days} days] built the pipeline over the history in {time.monotonic() - t0:.0f}s", flush=True)
    new_hour = end + dt.timedelta(hours=1)
    new_rows = load_events(runner, world, f"{source}.events", until=new_hour, since=end)
    now = {**base, "tideline__now": str(new_hour)}
    incremental = measure(["run", "--select", *MODELS], now, schema)
    print(f"[{days} days] incremental run over {new_rows} new rows: {incremental}", flush=True)
    full = measure(["run", "--full-refresh", "--select", *MODELS], now, schema)
    print(f"[{days} days] full refresh: {full}", flush=True)
    return {"days": days, "history_rows": rows, "new_rows": new_rows, "incremental": incremental, "full": full}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tideline_tools.benchmark", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--events-per-day", type=int, default=5000)
    parser.add_argument("--histories", type=int, nargs="+", default=[7, 365])
    parser.add_argument("--seed", type=int, default=2024)
    args = parser.parse_args(argv)

    from .localenv import MetastoreLocked, use_data_dir

    try:
        use_data_dir(PROJECT_DIR / ".tideline" / "benchmark")
    except MetastoreLocked as exc:
        print(f"tideline benchmark: {exc}", file=sys.stderr)
        return 2
    from .sql import connect

    runner = connect("local")
    results = [bench_history(runner, days, args.events_per_day, args.seed) for days in args.histories]
    print()
    print(f"{'history':>8} {'rows':>10} {'new rows':>9} | {'incr wall s':>11} {'incr model s':>12} {'queries':>7} "
          f"| {'full wall s':>11} {'full model s':>12} {'queries':>7}")
    for r in results:
        i, f = r["incremental"], r["full"]
        print(f"{r['days']:>7}d {r['history_rows']:>10} {r['new_rows']:>9} | {i['wall']:>11.1f} {i['models']:>12.1f} "
              f"{i['queries']:>7} | {f['wall']:>11.1f} {f['models']:>12.1f} {f['queries']:>7}")
    if len(results) >= 2:
        small, large = results[0], results[-1]

        def incremental_models(r: dict) -> float:
            # the pipeline's incremental models, without the attributes table (drop-and-recompute
            # over the whole lifetime, so it reads all history by design) and without hooks
            return sum(t for name, t in r["incremental"]["per_model"].items()
                       if name not in ("user_attributes",) and "on-run" not in name)

        print(f"\nincremental, {large['days']}d vs {small['days']}d history: "
              f"{large['incremental']['models'] / small['incremental']['models']:.2f}x (time in models), "
              f"{large['incremental']['wall'] / small['incremental']['wall']:.2f}x (wall), "
              f"{incremental_models(large) / incremental_models(small):.2f}x (incremental models only: "
              f"{incremental_models(small):.1f}s vs {incremental_models(large):.1f}s)")
        for r in results:
            print(f"{r['days']}d history: full refresh / incremental = "
                  f"{r['full']['models'] / r['incremental']['models']:.1f}x (time in models); per model: "
                  f"{r['incremental']['per_model']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

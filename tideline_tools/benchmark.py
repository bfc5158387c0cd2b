"""Benchmarks (not tests): does an incremental run cost the same with a short or a long history?

    python -m tideline_tools.benchmark                       # 7 and 365 days, 5000 events a day
    python -m tideline_tools.benchmark --events-per-day 20000 --histories 7 365
    python -m tideline_tools.benchmark derivation            # 10 thousand vs 2 million transfers
    python -m tideline_tools.benchmark continual             # 10 thousand vs 5 million input rows
    python -m tideline_tools.benchmark channel               # 10 thousand vs 2 million real-time items

The derivation, continual-task and channel benchmarks are described in bench_derivation(),
bench_continual() and bench_channel() below. The pipeline benchmark:

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
import os
import sys
import time

from . import console
from .profile import PROJECT_DIR

MODELS = ["tl_filtered_events", "daily_user_activity",
          "daily_page_activity", "user_attributes", "daily_user_events_from_source"]


def measure(args: list[str], vars_: dict, schema: str, project_dir=None) -> dict:
    from .dbt import run_dbt

    queries = [0]

    def count(event) -> None:
        if event.info.name == "SQLQuery":
            queries[0] += 1

    os.environ["TIDELINE_SCHEMA"] = schema
    started = time.monotonic()
    result = run_dbt(args, vars=vars_, target="local", on_event=count, project_dir=project_dir)
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
    with console.step(f"[{days} days] loading the history"):
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


DERIVATIONS = PROJECT_DIR / "examples" / "derivations"
DERIVATION_MODELS = ["flagged_transfers", "balances"]
CONTINUAL_TASKS = PROJECT_DIR / "examples" / "continual_tasks"
CONTINUAL_MODELS = ["upsert", "audit_log"]
CHANNELS = PROJECT_DIR / "examples" / "channels"
CHANNEL_MODELS = ["readings"]
BASE = dt.datetime(2025, 1, 1)
HISTORY_HOURS = 2400   # every history spans 100 days of hourly loads


def _load_transfers(runner, table: str, first_id: int, rows: int, accounts: int, hour_of: str) -> None:
    """`rows` transfers with ids from first_id, between `accounts` accounts (hashed from the id),
    loaded at the hour `hour_of` (SQL over `id`) after BASE."""
    runner.execute(f"""
        insert into {table}
        select
            id,
            concat('acct', cast(pmod(xxhash64(id, 1), {accounts}) as string)) as sender,
            concat('acct', cast(pmod(xxhash64(id, 2), {accounts}) as string)) as recipient,
            cast(pmod(xxhash64(id, 3), 100000) as double) / 100 as amount,
            timestamp_seconds({int(BASE.replace(tzinfo=dt.timezone.utc).timestamp())} + ({hour_of}) * 3600) as load_tstamp
        from range({first_id}, {first_id + rows}) as ids""")


def _variants(histories: list[int], new_rows: list[int]) -> list[tuple[int, int]]:
    """The (history rows, new rows a run) measured: every history with the first new-row count,
    and the smallest history with every other one."""
    first, *others = new_rows
    return [(rows, first) for rows in histories] + [(min(histories), n) for n in others]


def _side_by_side(runner, what: str, project_dir, models: list[str], source_var: str, variants: list[tuple[int, int]],
                  create_source, load_history, load_new, repeats: int, extra_vars: dict | None = None) -> int:
    """One incremental model set over several (history rows, new rows a run), measured side by
    side: each history is loaded (`load_history(source, rows)`) and built once; then `repeats`
    times, every variant gets its new rows (`load_new(source, first_id, rows, hour)`) and its
    incremental run is timed, the variants taking turns in alternating order; then one
    --full-refresh of each. Prints the medians, and the ratios of the largest history to the
    smallest and of the most new rows to the fewest."""
    from statistics import median

    from .dbt import run_dbt

    os.environ["TIDELINE_SCHEMA"] = f"bench_{what}"
    run_dbt(["deps"], project_dir=project_dir, target="local")
    sizes = {}
    for rows, new_rows in variants:
        schema, source = f"bench_{what}_{rows}_{new_rows}", f"bench_{what}_{rows}_{new_rows}_src"
        for s in (schema, source):
            runner.execute(f"drop schema if exists {s} cascade")
        runner.execute(f"create schema {source}")
        create_source(source)
        load_history(source, rows)
        vars_ = {**(extra_vars or {}), source_var: source, "tideline__now": str(BASE + dt.timedelta(hours=HISTORY_HOURS))}
        t0 = time.monotonic()
        measure(["run", "--select", *models], vars_, schema, project_dir)
        print(f"[{rows} rows, {new_rows} new] built {', '.join(models)} over the history in {time.monotonic() - t0:.0f}s", flush=True)
        sizes[(rows, new_rows)] = {"schema": schema, "source": source, "incremental": []}
    with console.bar("incremental runs, sizes alternating", repeats * len(sizes)) as advance:
        for k in range(repeats):
            order = list(sizes.items()) if k % 2 == 0 else list(reversed(sizes.items()))
            hour = HISTORY_HOURS + 1 + k
            for (rows, new_rows), size in order:
                load_new(size["source"], rows + k * new_rows, new_rows, hour)
                vars_ = {**(extra_vars or {}), source_var: size["source"], "tideline__now": str(BASE + dt.timedelta(hours=hour, minutes=59))}
                m = measure(["run", "--select", *models], vars_, size["schema"], project_dir)
                size["incremental"].append(m)
                advance(f"[{rows} rows] incremental run {k + 1} over {new_rows} new rows: {m['per_model']}, "
                        f"{m['queries']} statements")
    for (rows, new_rows), size in sizes.items():
        vars_ = {**(extra_vars or {}), source_var: size["source"],
                 "tideline__now": str(BASE + dt.timedelta(hours=HISTORY_HOURS + repeats, minutes=59))}
        size["full"] = measure(["run", "--full-refresh", "--select", *models], vars_, size["schema"], project_dir)
        print(f"[{rows} rows, {new_rows} new] full refresh: {size['full']['per_model']}", flush=True)

    def in_models(m: dict) -> float:
        return sum(t for name, t in m["per_model"].items() if "on-run" not in name)

    table = []
    for (rows, new_rows), size in sizes.items():
        incr = median(in_models(m) for m in size["incremental"])
        table.append((rows, new_rows, f"{incr:.2f}", size["incremental"][0]["queries"], f"{in_models(size['full']):.2f}",
                      f"{in_models(size['full']) / incr:.1f}x"))
    console.table(f"{', '.join(models)}: incremental runs and a full refresh (time in models)",
                  ["history", "new/run", "incr s (median)", "statements", "full refresh s", "full/incr"], table, markdown=True)

    def compare(a: tuple[int, int], b: tuple[int, int], what_differs: str) -> None:
        ratios = [in_models(y) / in_models(x) for x, y in zip(sizes[a]["incremental"], sizes[b]["incremental"])]
        print(f"incremental run, {what_differs}: {median(ratios):.2f}x "
              f"(median of the {repeats} side-by-side pairs: {', '.join(f'{r:.2f}' for r in ratios)}; time in models)")

    print()
    first_new = variants[0][1]
    by_history = sorted(rows for rows, n in sizes if n == first_new)
    if len(by_history) > 1:
        compare((by_history[0], first_new), (by_history[-1], first_new),
                f"{by_history[-1]} vs {by_history[0]} rows of history ({first_new} new rows a run)")
    smallest = min(rows for rows, _ in sizes)
    by_new = sorted(n for rows, n in sizes if rows == smallest)
    if len(by_new) > 1:
        compare((smallest, by_new[0]), (smallest, by_new[-1]),
                f"{by_new[-1]} vs {by_new[0]} new rows a run ({smallest} rows of history)")
    return 0


def bench_derivation(runner, histories: list[int], accounts: int, new_rows: list[int], repeats: int,
                     models: list[str] | None = None) -> int:
    """The seed's flagged transfers (two transforms, a balance register per account, a row
    published per transfer) and balances (accumulated in the table) from examples/derivations,
    over transfers between `accounts` accounts loaded hourly over 100 days; each incremental
    run reads new transfers of one load (each count of `new_rows`, see _variants). `models`
    chooses other models of examples/derivations over the same transfers (for example
    flagged_transfers beside capped_balances, whose updates read the register: the window fold
    beside the sequential one, each model's time reported apart)."""
    def create(source: str) -> None:
        runner.execute(f"create table {source}.transfers (id bigint, sender string, recipient string, amount double, "
                       f"load_tstamp timestamp) using parquet")

    def history(source: str, rows: int) -> None:
        _load_transfers(runner, f"{source}.transfers", 0, rows, accounts, f"cast(id * {HISTORY_HOURS} / {rows} as bigint)")

    def new(source: str, first_id: int, rows: int, hour: int) -> None:
        _load_transfers(runner, f"{source}.transfers", first_id, rows, accounts, str(hour))

    return _side_by_side(runner, "derivation", DERIVATIONS, models or DERIVATION_MODELS, "derivation__source",
                         _variants(histories, new_rows), create, history, new, repeats)


def bench_continual(runner, histories: list[int], keys: int, new_rows: list[int], repeats: int) -> int:
    """The seed's upsert (a delete and an insert per step: it reads the output, whose size is
    the number of keys, not the input's history) and audit log (inserts only) from
    examples/continual_tasks, over an append-only input of `keys` keys loaded hourly over 100
    days; each incremental run reads new rows (each count of `new_rows`, see _variants) committed
    at 4 times (4 steps)."""
    base = int(BASE.replace(tzinfo=dt.timezone.utc).timestamp())

    def create(source: str) -> None:
        runner.execute(f"create table {source}.append_only (key int, val int, load_tstamp timestamp) using parquet")
        runner.execute(f"create table {source}.anomalies (anomaly_count bigint, load_tstamp timestamp) using parquet")

    def load(source: str, first_id: int, rows: int, seconds: str) -> None:
        runner.execute(f"""
            insert into {source}.append_only
            select cast(pmod(xxhash64(id, 1), {keys}) as int), cast(pmod(xxhash64(id, 2), 1000) as int),
                timestamp_seconds({base} + {seconds})
            from range({first_id}, {first_id + rows}) as ids""")
        runner.execute(f"""
            insert into {source}.anomalies
            select pmod(xxhash64(id, 3), 100), timestamp_seconds({base} + {seconds})
            from range({first_id}, {first_id + rows}) as ids""")

    def history(source: str, rows: int) -> None:
        load(source, 0, rows, f"cast(id * {HISTORY_HOURS} / {rows} as bigint) * 3600")

    def new(source: str, first_id: int, rows: int, hour: int) -> None:
        load(source, first_id, rows, f"{hour} * 3600 + pmod(id, 4) * 600")   # 4 commit times: 4 steps

    return _side_by_side(runner, "continual", CONTINUAL_TASKS, CONTINUAL_MODELS, "continual__source",
                         _variants(histories, new_rows), create, history, new, repeats)


def _channel_project_by_load(to) -> str:
    """A copy of examples/channels in `to` (its dbt_project.yml, packages.yml pointing at this
    checkout, and models) with one model more, `readings_by_load`: `readings` with
    change_arrival_column='loaded_at', over the same sources. Returns the model's name."""
    import shutil
    from pathlib import Path

    to = Path(to)
    shutil.copytree(CHANNELS / "models", to / "models")
    shutil.copy(CHANNELS / "dbt_project.yml", to / "dbt_project.yml")
    (to / "packages.yml").write_text(f"packages:\n  - local: {PROJECT_DIR}\n")
    readings = (CHANNELS / "models" / "readings.sql").read_text()
    anchor = "changes=['hub.backfill_a', 'hub.backfill_b'],"
    if anchor not in readings:
        raise SystemExit(f"tideline benchmark: examples/channels/models/readings.sql no longer has {anchor!r}")
    (to / "models" / "readings_by_load.sql").write_text(readings.replace(anchor, anchor + " change_arrival_column='loaded_at',"))
    return "readings_by_load"


def bench_channel(runner, histories: list[int], new_rows: list[int], repeats: int, compact_every: int | None = None,
                  change_arrival: bool = False) -> int:
    """The seed's channel of readings (examples/channels, `readings`): real-time items loaded
    hourly over 100 days after its mutable_time (BASE), and history changes from its two
    writers, one change for every 100 items (inserts of items before mutable_time, one in ten
    of them deleted again by the other writer); each incremental run reads new real-time items
    of one hour (each count of `new_rows`, see _variants) and their share of changes.
    `compact_every` (tideline__compact_every): 1 makes every incremental run compact the items
    table (macros/channel/compaction.sql), to set its cost beside a run that does not.
    `change_arrival`: the change rows also carry a load time (`loaded_at`, 30 s after their change
    time), and a copy of the project runs `readings_by_load` (change_arrival_column='loaded_at',
    macros/channel/late_changes.sql) beside `readings` in every run, each model's time apart."""
    import tempfile

    base = int(BASE.replace(tzinfo=dt.timezone.utc).timestamp())
    changes = "op string, item_time timestamp, item_id string, value int, label string, changed_at timestamp"
    if change_arrival:
        changes += ", loaded_at timestamp"

    def loaded(at: str) -> str:
        """The load time column's value after a change time `at` (SQL), with change_arrival only."""
        return f", {at} + interval 30 seconds" if change_arrival else ""

    def create(source: str) -> None:
        runner.execute(f"create table {source}.realtime (item_time timestamp, item_id string, value int, label string, "
                       f"load_tstamp timestamp) using parquet")
        for writer in ("backfill_a", "backfill_b"):
            runner.execute(f"create table {source}.{writer} ({changes}) using parquet")

    def load(source: str, first_id: int, rows: int, seconds: str) -> None:
        """Items first_id.. loaded at `seconds` (SQL over `id`) after BASE, each a few minutes
        after its item time; a change for every 100th id: an insert of an item a day to 30 days
        before mutable_time, and for every 1000th a delete of it by the other writer."""
        runner.execute(f"""
            insert into {source}.realtime
            select timestamp_seconds({base} + {seconds} - pmod(id, 600)), concat('i', cast(id as string)),
                cast(pmod(xxhash64(id, 1), 1000) as int), concat('label', cast(pmod(id, 7) as string)),
                timestamp_seconds({base} + {seconds})
            from range({first_id}, {first_id + rows}) as ids""")
        history_item = f"timestamp_seconds({base} - (1 + pmod(id, 30)) * 86400 + pmod(id, 3600))"
        runner.execute(f"""
            insert into {source}.backfill_a
            select 'insert', {history_item}, concat('h', cast(id as string)), cast(pmod(xxhash64(id, 2), 1000) as int),
                'backfilled', timestamp_seconds({base} + {seconds}){loaded(f"timestamp_seconds({base} + {seconds})")}
            from range({first_id}, {first_id + rows}) as ids
            where pmod(id, 100) = 0""")
        runner.execute(f"""
            insert into {source}.backfill_b
            select 'delete', {history_item}, concat('h', cast(id as string)), cast(null as int), cast(null as string),
                timestamp_seconds({base} + {seconds} + 1){loaded(f"timestamp_seconds({base} + {seconds} + 1)")}
            from range({first_id}, {first_id + rows}) as ids
            where pmod(id, 1000) = 0""")

    def history(source: str, rows: int) -> None:
        load(source, 0, rows, f"cast(id * {HISTORY_HOURS} / {rows} as bigint) * 3600 + 1200")

    def new(source: str, first_id: int, rows: int, hour: int) -> None:
        load(source, first_id, rows, f"{hour} * 3600 + 1200")

    extra_vars = {"channels__mutable_time": str(BASE), **({"tideline__compact_every": compact_every} if compact_every else {})}
    if not change_arrival:
        return _side_by_side(runner, "channel", CHANNELS, CHANNEL_MODELS, "channels__source", _variants(histories, new_rows),
                             create, history, new, repeats, extra_vars)
    with tempfile.TemporaryDirectory(prefix="tideline-bench-channels-") as project:
        by_load = _channel_project_by_load(project)
        return _side_by_side(runner, "channel", project, CHANNEL_MODELS + [by_load], "channels__source",
                             _variants(histories, new_rows), create, history, new, repeats, extra_vars)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tideline_tools.benchmark", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("what", nargs="?", choices=["pipeline", "derivation", "continual", "channel"], default="pipeline",
                        help="the time-based pipeline (default), the derivations, the continual tasks or the channels")
    parser.add_argument("--events-per-day", type=int, default=5000, help="pipeline: events a day")
    parser.add_argument("--histories", type=int, nargs="+", default=None,
                        help="pipeline: days of history (default 7 365); derivation: transfers of history "
                             "(default 10000 2000000); continual: input rows of history (default 10000 5000000); "
                             "channel: real-time items of history (default 10000 2000000)")
    parser.add_argument("--seed", type=int, default=2024, help="pipeline: the generator's seed")
    parser.add_argument("--accounts", type=int, default=None,
                        help="derivation: accounts; continual: keys (default 50000 and 10000)")
    parser.add_argument("--new-rows", type=int, nargs="+", default=[1000],
                        help="derivation, continual, channel: rows per incremental run (default 1000); with more "
                             "counts, the smallest history is also measured with each of the others, side by side")
    parser.add_argument("--repeats", type=int, default=3,
                        help="derivation, continual, channel: incremental runs of each history and new-row count (default 3)")
    parser.add_argument("--compact-every", type=int, default=None,
                        help="channel: tideline__compact_every for the runs (1: every run compacts the items table)")
    parser.add_argument("--change-arrival", action="store_true",
                        help="channel: run readings_by_load (change_arrival_column) beside readings, each model's time apart")
    parser.add_argument("--models", nargs="+", default=None,
                        help="derivation: the models of examples/derivations to run (default flagged_transfers balances)")
    args = parser.parse_args(argv)
    if args.models and args.what != "derivation":
        parser.error("--models is for the derivation benchmark")
    if args.change_arrival and args.what != "channel":
        parser.error("--change-arrival is for the channel benchmark")
    if args.compact_every is not None and (args.what != "channel" or args.compact_every < 1):
        parser.error("--compact-every is for the channel benchmark, an integer >= 1")
    if args.what != "pipeline" and ((args.accounts is not None and args.accounts < 1) or min(args.new_rows) < 1 or args.repeats < 1):
        parser.error("--accounts, --new-rows and --repeats must be >= 1")

    from .localenv import MetastoreLocked, use_data_dir

    try:
        use_data_dir(PROJECT_DIR / ".tideline" / "benchmark")
    except MetastoreLocked as exc:
        print(f"tideline benchmark: {exc}", file=sys.stderr)
        return 2
    from .sql import connect

    runner = connect("local")
    if args.what == "derivation":
        return bench_derivation(runner, sorted(args.histories or [10_000, 2_000_000]), args.accounts or 50_000, args.new_rows,
                                args.repeats, args.models)
    if args.what == "channel":
        return bench_channel(runner, sorted(args.histories or [10_000, 2_000_000]), args.new_rows, args.repeats, args.compact_every,
                             args.change_arrival)
    if args.what == "continual":
        return bench_continual(runner, sorted(args.histories or [10_000, 5_000_000]),
                               args.accounts or 10_000, args.new_rows, args.repeats)
    results = [bench_history(runner, days, args.events_per_day, args.seed) for days in args.histories or [7, 365]]
    console.table("the pipeline: an incremental run over one new hour and a full refresh",
                  ["history", "rows", "new rows", "incr wall s", "incr model s", "queries", "full wall s", "full model s", "queries"],
                  [(f"{r['days']}d", r["history_rows"], r["new_rows"], f"{r['incremental']['wall']:.1f}",
                    f"{r['incremental']['models']:.1f}", r["incremental"]["queries"], f"{r['full']['wall']:.1f}",
                    f"{r['full']['models']:.1f}", r["full"]["queries"]) for r in results], markdown=True)
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

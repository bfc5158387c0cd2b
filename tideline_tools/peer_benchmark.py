"""Peer benchmark (not a test): tideline vs dbt microbatch vs plain dbt vs a hand-written PySpark job.

    python -m tideline_tools.peer_benchmark                 # 30 days, 3000 events a day, 200 users
    python -m tideline_tools.peer_benchmark --days 10       # a quicker look
    python -m tideline_tools.peer_benchmark --systems source,mb3 --days 10 --steps   # two of them
    python -m tideline_tools.peer_benchmark --file-format delta   # every system's tables in Delta
    python -m tideline_tools.peer_benchmark --file-format iceberg # in Iceberg (the peers' schemas are
                                                                  # namespaces of the Iceberg catalog)

The simulation: Snowplow-shaped events over `--days` days, loaded every hour, `--late-share` of
them loaded 1 to `--max-late-days` days late. Every day at midnight each system runs once and
sees only what was loaded by then; each computes page views and events per user and event date:

  * tideline        `tl_filtered_events` + one `tideline_daily_aggregate` over it
                    (filtered_events(); reprocess_days 14, min_rows_to_process 1: exact),
                    project tideline_tools/peer/tideline: two models, two writes a run;
  * tideline, merge path  the same daily aggregate with its measures declared (config
                    `measures`): a run appends the partial aggregate of the new filtered events
                    of the dates it processes, the model is a view merging the parts;
  * tideline, source_events()  the same daily aggregate over source_events(): it reads the
                    source itself with its own run window, one model and one write a run;
  * tideline, source_events(), merge path  the same with its measures declared: a run appends
                    the partial aggregate of the first copies loaded since each processed date's
                    last batch (system key source_merge); keys merge_s4 and merge_s24: the
                    merge path settling its parts every 4 and every 24 runs (default: every
                    run); each merge system's model is read against a compacted copy of its
                    rows after the schedule (a day, a week, all);
  * microbatch L    dbt's `microbatch` strategy with a lookback of L days (3 and 10), as dbt
                    schedules it: the batches from L days before today's up to now,
                    project tideline_tools/peer/microbatch;
  * plain dbt exact a dbt `insert_overwrite` model without tideline that finds the event dates the
                    new loads touched (one query) and recomputes them whole from the source (one
                    write): the floor of an exact run in dbt on this source, with no state, no
                    duplicate handling and no crash protocol (model daily_user_events_exact);
  * plain dbt, floor the plain exact model plus the least tideline's contracts ask of a run:
                    duplicates resolved, a state table with a commit row written after the data,
                    a check for recomputed dates left without rows (model daily_user_events_floor,
                    materialization peer_floor). No load checks, no per-date skip accounting: the
                    floor of an exact run with those contracts, as a reference;
  * hand-written    a PySpark job in the same SparkSession: read the new load, append it to an
                    events-by-date table, recompute the touched dates, overwrite their partitions.

The systems take turns in a rotating order each day, so a slow period of this shared machine
hits them all alike. After the last run each table is compared with one aggregate over
everything loaded: wrong rows (missing, extra or different) and events missed. Then a
catch-up: all the days loaded at once, one run each (microbatch runs every batch from its
begin date). Read the ratios, not the seconds. Data lives in .tideline/peer_benchmark.
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import re
import statistics
import sys
import time
from contextlib import contextmanager
from pathlib import Path

from . import console
from .profile import PROJECT_DIR

PEER_DIR = PROJECT_DIR / "tideline_tools" / "peer"
TIDELINE_PROJECT = PEER_DIR / "tideline"
MICROBATCH_PROJECT = PEER_DIR / "microbatch"
SOURCE_SCHEMA = "peer_source"
START = dt.datetime(2025, 1, 1)
MICRO = dt.timedelta(microseconds=1)
SYSTEM_KEYS = ("tideline", "merge", "source", "source_merge", "mb3", "mb10", "plain", "floor", "hand",
               "tideline3", "tideline10", "merge3", "merge10", "merge_s4", "merge_s24")   # --systems
# the merge path's systems whose model is read against a compacted copy (read_cost)
READ_COST_KEYS = ("merge", "merge_s4", "merge_s24", "source_merge")
# the systems of the reprocess-window comparison: [key of reprocess_days 3, key of 10]
REPROCESS_PAIRS = (("tideline3", "tideline10"), ("merge3", "merge10"))
ICEBERG_CATALOG = "tideline_iceberg"   # the var tideline__iceberg_catalog of the project's profiles


def peer_schema(name: str, file_format: str) -> str:
    """Where the hand-written job keeps its tables: the schema `name`, or for iceberg the
    namespace `name` of the Iceberg catalog (Delta owns spark_catalog, where `using iceberg` is
    refused). tideline puts its Iceberg tables there on its own, behind views in `name`."""
    return f"{ICEBERG_CATALOG}.{name}" if file_format == "iceberg" else name


@contextmanager
def current_catalog(catalog: str | None):
    """The dbt peers (microbatch, plain dbt) on Iceberg: their runs see the Iceberg catalog as the
    session's current catalog, so that their `<schema>.<table>` names and dbt-spark's relation
    cache (whose `show tables` fallback for Iceberg names a table by its namespace alone) mean
    the Iceberg catalog's tables; the source is read as `spark_catalog.<schema>.events`. Set back
    to spark_catalog after each run, before tideline's next (tideline refuses another one)."""
    if catalog is None:
        yield
        return
    from pyspark.sql import SparkSession

    spark = SparkSession.builder.getOrCreate()
    spark.catalog.setCurrentCatalog(catalog)
    try:
        with env(PEER_SOURCE_SCHEMA=f"spark_catalog.{SOURCE_SCHEMA}"):
            yield
    finally:
        spark.catalog.setCurrentCatalog("spark_catalog")


def drop_schema(runner, name: str) -> None:
    """A schema of spark_catalog and the namespace of the same name in the Iceberg catalog, with
    their tables (the namespace only when it exists)."""
    runner.execute(f"drop schema if exists {name} cascade")
    try:
        tables = runner.rows(f"show tables in {ICEBERG_CATALOG}.{name}")
    except Exception as exc:   # no such namespace, or no Iceberg warehouse yet
        if "amespace" not in str(exc) and "SCHEMA_NOT_FOUND" not in str(exc):
            raise
        return
    for row in tables:
        runner.execute(f"drop table if exists {ICEBERG_CATALOG}.{name}.{row[1]} purge")
    runner.execute(f"drop namespace if exists {ICEBERG_CATALOG}.{name}")


@contextmanager
def env(**values: str):
    old = {k: os.environ.get(k) for k in values}
    os.environ.update(values)
    try:
        yield
    finally:
        for k, v in old.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


def dbt_run(args: list[str], project_dir, schema: str, vars_: dict | None = None, now: dt.datetime | None = None) -> dict:
    """One dbt invocation in this process: wall seconds, seconds after parsing, SQL statements sent."""
    from .dbt import run_dbt

    marks = {"queries": 0, "parsed": None}
    trace: list[tuple[float, str]] = []   # (time, what): each statement sent and each node's start and end

    def watch(event) -> None:
        name = event.info.name
        if name == "SQLQuery":
            marks["queries"] += 1
            trace.append((time.monotonic(), _statement_label(event.data.sql)))
        elif name in ("NodeStart", "NodeFinished"):
            trace.append((time.monotonic(), f"[{name} {event.data.node_info.node_name}]"))
        elif name == "ConcurrencyLine" and marks["parsed"] is None:
            marks["parsed"] = time.monotonic()
            trace.append((marks["parsed"], "[run starts]"))

    extra = {"TIDELINE_SCHEMA": schema, "PEER_SOURCE_SCHEMA": os.environ.get("PEER_SOURCE_SCHEMA", SOURCE_SCHEMA)}
    if now is not None:
        extra["TIDELINE_NOW"] = str(now)
    with env(**extra):
        started = time.monotonic()
        # Each system keeps its own target folder, so that dbt's partial parsing holds for it
        # (the schema is part of the profile: sharing one folder would parse again every run).
        run_dbt([*args, "--quiet", "--target-path", f"target/{schema}"], vars=vars_, target="local",
                project_dir=project_dir, on_event=watch)
        ended = time.monotonic()
    steps = [(label, later - at) for (at, label), (later, _) in zip(trace, trace[1:] + [(ended, "")])]
    return {"wall": ended - started, "run": ended - (marks["parsed"] or started), "statements": marks["queries"],
            "parse": (marks["parsed"] or started) - started, "steps": steps}


def _statement_label(sql: str) -> str:
    """The first words of a statement, without dbt's comment header."""
    text = " ".join(re.sub(r"^/\*.*?\*/", "", sql.strip(), flags=re.S).split())
    return text[:90]


def print_steps(name: str, run: dict) -> None:
    """Where one run's wall time went: parsing, then each statement (until the next statement or
    node event: its own time plus the Jinja after it) and each node's start and end."""
    console.table(f"\nWhere one run of {name} goes ({run['wall']:.2f} s, {run['statements']} statements):", ["s", "step"],
                  [(f"{run['parse']:.2f}", "dbt start and parse"),
                   *((f"{seconds:.2f}", label) for label, seconds in run["steps"])])


class Tideline:
    """tideline's daily aggregate over tl_filtered_events (filtered_events()): two models, two writes a run."""
    name = "tideline"
    model = "daily_user_events"
    select = "+daily_user_events"

    def __init__(self, schema: str, reprocess_days: int = 14, named: bool = False, settle_every: int | None = None):
        self.schema = schema
        if named:   # one of a reprocess-window pair: the name says its window
            self.name = f"{self.name}, reprocess_days {reprocess_days}"
        self.vars = {"tideline__events_schema": SOURCE_SCHEMA, "tideline__start_date": START.date().isoformat(),
                     "tideline__reprocess_days": reprocess_days, "tideline__min_rows_to_process": 1,
                     "tideline__backfill_limit_days": 60}
        if settle_every is not None:   # the merge path's settlings of its parts (default every run)
            self.name = f"{self.name}, settle_every {settle_every}"
            self.vars["tideline__settle_every"] = settle_every

    def step(self, now: dt.datetime) -> dict:
        return dbt_run(["run", "--select", self.select], TIDELINE_PROJECT, self.schema, self.vars, now)

    def table(self) -> str:
        return f"{self.schema}.{self.model}"


class TidelineSource(Tideline):
    """The same daily aggregate over source_events(): one model, one write a run."""
    name = "tideline, source_events()"
    model = "daily_user_events_source"
    select = "daily_user_events_source"


class TidelineMerged(Tideline):
    """The same daily aggregate with its measures declared (the merge path): two models, two
    appends a run."""
    name = "tideline, merge path"
    model = "daily_user_events_merged"
    select = "+daily_user_events_merged"


class TidelineSourceMerged(Tideline):
    """The daily aggregate over source_events() with its measures declared (the merge path over
    the source): one model, one append a run."""
    name = "tideline, source_events(), merge path"
    model = "daily_user_events_source_merged"
    select = "daily_user_events_source_merged"


class Microbatch:
    def __init__(self, schema: str, lookback: int, catalog: str | None = None):
        self.schema, self.lookback, self.catalog = schema, lookback, catalog
        self.name = f"microbatch lookback {lookback}"
        self.built = False

    def step(self, now: dt.datetime) -> dict:
        # dbt's own rule without --event-time-start: from `lookback` batches before the current
        # one (the first run: from `begin`) up to now. The clock is simulated, so it is passed.
        today = dt.datetime.combine(now.date(), dt.time())
        start = today - dt.timedelta(days=self.lookback) if self.built else START
        self.built = True
        with current_catalog(self.catalog):
            return dbt_run(["run", "--select", "daily_user_events", "--event-time-start", start.isoformat(),
                            "--event-time-end", now.isoformat()], MICROBATCH_PROJECT, self.schema)

    def table(self) -> str:
        return f"{self.catalog or 'spark_catalog'}.{self.schema}.daily_user_events"


class PlainDbtExact:
    """The shortest exact incremental run plain dbt allows here (no tideline): one query for the
    event dates that the new loads touched, one insert overwrite recomputing them from the
    source (model daily_user_events_exact of the microbatch project)."""

    name = "plain dbt, exact"
    model = "daily_user_events_exact"

    def __init__(self, schema: str, catalog: str | None = None):
        self.schema, self.catalog = schema, catalog

    def step(self, now: dt.datetime) -> dict:
        with current_catalog(self.catalog):
            return dbt_run(["run", "--select", self.model], MICROBATCH_PROJECT, self.schema, now=now)

    def table(self) -> str:
        return f"{self.catalog or 'spark_catalog'}.{self.schema}.{self.model}"


class PlainDbtFloor(PlainDbtExact):
    """The plain exact run plus the least tideline's contracts ask of it (duplicates resolved,
    state with a commit row written last, a check for emptied dates): model
    daily_user_events_floor of the microbatch project, materialization peer_floor."""

    name = "plain dbt, floor with the contracts"
    model = "daily_user_events_floor"


class HandWritten:
    """The same exact step written directly against PySpark (one SparkSession, no dbt)."""

    name = "hand-written PySpark"

    def __init__(self, spark, schema: str, file_format: str = "parquet"):
        self.spark, self.schema = spark, schema
        self.watermark = START - MICRO
        spark.sql(f"create schema if not exists {schema}")
        spark.sql(f"""create table if not exists {schema}.events_by_date (event_id string, domain_userid string,
            event_name string, load_tstamp timestamp, event_date date) using {file_format} partitioned by (event_date)""")
        spark.sql(f"""create table if not exists {schema}.daily_user_events (domain_userid string, page_views bigint,
            events bigint, event_date date) using {file_format} partitioned by (event_date)""")

    def step(self, now: dt.datetime) -> dict:
        from pyspark.sql import functions as F

        started = time.monotonic()
        source = self.spark.table(f"{SOURCE_SCHEMA}.events")
        new = (source.where(F.col("load_date").between(self.watermark.date(), now.date()))
               .where((F.col("load_tstamp") > F.lit(self.watermark)) & (F.col("load_tstamp") <= F.lit(now)))
               .where(F.col("derived_tstamp") >= F.lit(START))
               .select("event_id", "domain_userid", "event_name", "load_tstamp",
                       F.to_date("derived_tstamp").alias("event_date"))
               .cache())
        statements = 1
        newest, dates = new.agg(F.max("load_tstamp"), F.collect_set("event_date")).first()
        if newest is not None:
            new.write.insertInto(f"{self.schema}.events_by_date")
            (self.spark.table(f"{self.schema}.events_by_date").where(F.col("event_date").isin(dates))
             .groupBy("event_date", "domain_userid")
             .agg(F.count_if(F.col("event_name") == "page_view").alias("page_views"), F.count("*").alias("events"))
             .select("domain_userid", "page_views", "events", "event_date")
             .write.insertInto(f"{self.schema}.daily_user_events", overwrite=True))
            statements += 2
            self.watermark = newest
        new.unpersist()
        seconds = time.monotonic() - started
        return {"wall": seconds, "run": seconds, "statements": statements}

    def table(self) -> str:
        return f"{self.schema}.daily_user_events"


RATIO_ROWS = (Tideline, PlainDbtFloor)   # the rows that get ratio columns


def compare(runner, table: str) -> tuple[int, int]:
    """(wrong rows, missed events) of a system's table against one aggregate over all loaded events."""
    runner.execute(f"refresh table {table}")
    wrong, missed = runner.rows(f"""
        with truth as (
            select to_date(derived_tstamp) as event_date, domain_userid,
                count_if(event_name = 'page_view') as page_views, count(*) as events
            from {SOURCE_SCHEMA}.events
            where derived_tstamp >= timestamp'{START}'
            group by 1, 2
        )
        select
            count_if(t.events is null or s.events is null or t.events <> s.events or t.page_views <> s.page_views),
            coalesce(sum(coalesce(t.events, 0) - coalesce(s.events, 0)), 0)
        from truth as t full outer join {table} as s
            on t.event_date = s.event_date and t.domain_userid <=> s.domain_userid""")[0]
    return int(wrong), int(missed)


def read_cost(runner, view: str, last_date: dt.date, file_format: str, reps: int = 5) -> None:
    """What reading the merge path's model costs against a fully compacted copy of the same rows
    (one table of the model's format, one row per key): a day, a week and all of it, each query
    run `reps` times, the two tables alternating; prints the median of each and their ratio."""
    schema, name = view.rsplit(".", 1)
    compacted = f"{peer_schema(schema.split('.')[-1], file_format)}.{name}__read_compacted"
    runner.execute(f"drop table if exists {compacted}")
    runner.execute(f"create table {compacted} using {file_format} partitioned by (event_date) as select * from {view}")
    ranges = {"a day": (last_date, last_date), "a week": (last_date - dt.timedelta(days=6), last_date), "all": (START.date(), last_date)}
    rows = []
    for label, (first, last) in ranges.items():
        times: dict[str, list[float]] = {view: [], compacted: []}
        for _ in range(reps):
            for table in (view, compacted):
                started = time.monotonic()
                runner.rows(f"""select count(*), sum(page_views), sum(events) from {table}
                                where event_date between date'{first}' and date'{last}'""")
                times[table].append(time.monotonic() - started)
        merged, flat = statistics.median(times[view]), statistics.median(times[compacted])
        rows.append((label, f"{merged:.3f}", f"{flat:.3f}", f"{merged / flat:.2f}x"))
    runner.execute(f"drop table if exists {compacted}")
    console.table(f"Reading the merge path's model ({view}, a view over the parts) against a fully compacted copy:",
                  ["read", "merged view, median s", "compacted table, median s", "view / table"], rows, markdown=True)


def driver_memory(spark) -> str:
    """The driver's peak memory so far: the JVM's peak resident set (VmHWM of its process; in
    local mode the driver runs every task too) and the peak use of its heap pools."""
    jvm = spark.sparkContext._jvm
    pools = jvm.java.lang.management.ManagementFactory.getMemoryPoolMXBeans()
    heap_peak = sum(p.getPeakUsage().getUsed() for p in pools if str(p.getType()) == "Heap memory")
    heap_max = jvm.java.lang.Runtime.getRuntime().maxMemory()
    pid = jvm.java.lang.ProcessHandle.current().pid()
    rss = next((line.split()[1] for line in Path(f"/proc/{pid}/status").read_text().splitlines()
                if line.startswith("VmHWM:")), "?")
    return (f"driver peak memory: resident {int(rss) // 1024 if rss != '?' else '?'} MiB (VmHWM of the JVM), "
            f"heap {heap_peak / 2**20:.0f} MiB (its pools' peaks summed) of {heap_max / 2**20:.0f} MiB")


def summarize(name: str, runs: list[dict], ratios_to: dict[str, list[dict]], quality: tuple[int, int]) -> dict:
    walls = [r["wall"] for r in runs]
    out = {"system": name, "median": statistics.median(walls), "low": min(walls), "high": max(walls),
           "statements": statistics.median([r["statements"] for r in runs]),
           "wrong": quality[0], "missed": quality[1]}
    for other, their in ratios_to.items():
        out[other] = statistics.median(a["wall"] / b["wall"] for a, b in zip(runs, their))
    return out


def print_table(title: str, rows: list[dict], ratio_names: list[str]) -> None:
    """The systems side by side, as a Markdown table (docs/benchmarks.md takes it as it is)."""
    columns = ["system", "median s/run", "spread (min-max)", "wrong rows", "missed events", "statements/run",
               *(f"row / {r}" for r in ratio_names)]
    console.table(title, columns, [
        [r["system"], f"{r['median']:.2f}", f"{r['low']:.2f}-{r['high']:.2f}", r["wrong"], r["missed"], f"{r['statements']:g}",
         *(f"{r[n]:.2f}x" if n in r else "" for n in ratio_names)] for r in rows], markdown=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tideline_tools.peer_benchmark", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--days", type=int, default=30)
    parser.add_argument("--events-per-day", type=int, default=3000)
    parser.add_argument("--users", type=int, default=200)
    parser.add_argument("--late-share", type=float, default=0.1)
    parser.add_argument("--max-late-days", type=int, default=10)
    parser.add_argument("--seed", type=int, default=2025)
    parser.add_argument("--no-catch-up", action="store_true", help="skip the one-run catch-up")
    parser.add_argument("--steps", action="store_true",
                        help="print where the last daily run of tideline, of microbatch lookback 3 and of the plain dbt models went, statement by statement")
    parser.add_argument("--file-format", choices=["parquet", "delta", "iceberg"], default="parquet",
                        help="the format of every system's tables (tideline's state too); default parquet")
    parser.add_argument("--systems", default=",".join(SYSTEM_KEYS),
                        help=f"the systems to run, comma-separated (default: all of {','.join(SYSTEM_KEYS)})")
    args = parser.parse_args(argv)
    wanted = [k.strip() for k in args.systems.split(",") if k.strip()]
    unknown = [k for k in wanted if k not in SYSTEM_KEYS]
    if unknown or not wanted:
        parser.error(f"--systems {args.systems!r}: unknown {', '.join(unknown) or 'empty list'}; choose from {','.join(SYSTEM_KEYS)}")

    os.environ["TIDELINE_FILE_FORMAT"] = args.file_format   # dbt_project.yml's +file_format, tideline__state_file_format
    from .localenv import MetastoreLocked, use_data_dir

    try:
        use_data_dir(PROJECT_DIR / ".tideline" / "peer_benchmark")
    except MetastoreLocked as exc:
        print(f"tideline peer benchmark: {exc}", file=sys.stderr)
        return 2
    from .dbt import run_dbt
    from .generator import EventWorld, load_events
    from .sql import connect

    runner = connect("local")
    world = EventWorld(seed=args.seed, start=START, days=args.days, events_per_day=args.events_per_day,
                       users=args.users, late_share=args.late_share, max_late_days=args.max_late_days,
                       duplicate_share=0, reload_share=0, pre_start_share=0, bot_share=0)
    schemas = [SOURCE_SCHEMA, "peer_tideline", "peer_tideline_merge", "peer_tideline_merge_cu", "peer_tideline_src", "peer_tideline_src_cu", "peer_tideline_src_merge",
               "peer_tideline_r3", "peer_tideline_r10", "peer_tideline_merge_r3", "peer_tideline_merge_r10", "peer_tideline_merge_s4", "peer_tideline_merge_s24", "peer_mb3", "peer_mb10", "peer_plain", "peer_floor",
               "peer_hand", "peer_tideline_cu", "peer_mb_cu", "peer_plain_cu", "peer_floor_cu", "peer_hand_cu"]
    for schema in schemas:
        drop_schema(runner, schema)
    fmt = args.file_format
    catalog = ICEBERG_CATALOG if fmt == "iceberg" else None   # the dbt peers' current catalog
    run_dbt(["deps"], project_dir=TIDELINE_PROJECT)

    # built only when wanted: a system's constructor may create its tables
    made = [(key, make()) for key, make in [
        ("tideline", lambda: Tideline("peer_tideline")), ("merge", lambda: TidelineMerged("peer_tideline_merge")),
        ("source", lambda: TidelineSource("peer_tideline_src")),
        ("source_merge", lambda: TidelineSourceMerged("peer_tideline_src_merge")),
        ("tideline3", lambda: Tideline("peer_tideline_r3", 3, named=True)),
        ("tideline10", lambda: Tideline("peer_tideline_r10", 10, named=True)),
        ("merge3", lambda: TidelineMerged("peer_tideline_merge_r3", 3, named=True)),
        ("merge10", lambda: TidelineMerged("peer_tideline_merge_r10", 10, named=True)),
        ("merge_s4", lambda: TidelineMerged("peer_tideline_merge_s4", settle_every=4)),
        ("merge_s24", lambda: TidelineMerged("peer_tideline_merge_s24", settle_every=24)),
        ("mb3", lambda: Microbatch("peer_mb3", 3, catalog)), ("mb10", lambda: Microbatch("peer_mb10", 10, catalog)),
        ("plain", lambda: PlainDbtExact("peer_plain", catalog)), ("floor", lambda: PlainDbtFloor("peer_floor", catalog)),
        ("hand", lambda: HandWritten(runner.spark, peer_schema("peer_hand", fmt), fmt))] if key in wanted]
    systems = [system for _, system in made]
    runs: dict[str, list[dict]] = {s.name: [] for s in systems}
    print(f"{args.file_format} tables; {args.days} daily runs over {world.rows_total()} events ({args.events_per_day} a day, "
          f"{args.users} users, {args.late_share:.0%} loaded 1-{args.max_late_days} days late)", flush=True)
    with console.bar("daily runs", args.days) as advance:
        for day in range(1, args.days + 1):
            now = START + dt.timedelta(days=day)
            load_events(runner, world, f"{SOURCE_SCHEMA}.events", until=now, cadence_seconds=3600)
            order = systems[day % len(systems):] + systems[:day % len(systems)]
            for system in order:
                runs[system.name].append(system.step(now))
            advance(f"day {day:>2}: " + ", ".join(f"{s.name} {runs[s.name][-1]['wall']:.1f}s/{runs[s.name][-1]['statements']}"
                                                  for s in systems))

    # ratio columns: tideline's rows and the floor's, each against the peers (but itself)
    compared = [s.name for s in systems if isinstance(s, RATIO_ROWS)]
    peers = [s.name for s in systems if not isinstance(s, Tideline)]
    rows = []
    for system in systems:
        ratios = {o: runs[o] for o in peers if o != system.name} if system.name in compared else {}
        rows.append(summarize(system.name, runs[system.name], ratios, compare(runner, system.table())))
    print_table(f"Daily schedule: {args.days} runs, one a day (seconds are wall time of one run in a warm process)",
                rows, peers)
    by_key = dict(made)
    for short, long in REPROCESS_PAIRS:
        if short in by_key and long in by_key:
            a, b = runs[by_key[long].name], runs[by_key[short].name]
            print(f"reprocess window, {by_key[long].name} against {by_key[short].name}: "
                  f"median ratio {statistics.median(x['wall'] / y['wall'] for x, y in zip(a, b)):.2f}x, "
                  f"medians {statistics.median(x['wall'] for x in a):.2f} s and {statistics.median(y['wall'] for y in b):.2f} s")
    print(driver_memory(runner.spark))
    for key in READ_COST_KEYS:
        if key in by_key:
            read_cost(runner, by_key[key].table(), (START + dt.timedelta(days=args.days - 1)).date(), args.file_format)
    if args.steps:
        for name in (*compared, "microbatch lookback 3", PlainDbtExact.name):
            if name in runs:
                print_steps(name, runs[name][-1])

    if not args.no_catch_up:
        final = START + dt.timedelta(days=args.days)
        catch_up = [make() for key, make in [
            ("tideline", lambda: Tideline("peer_tideline_cu")), ("merge", lambda: TidelineMerged("peer_tideline_merge_cu")),
            ("source", lambda: TidelineSource("peer_tideline_src_cu")),
            ("mb3", lambda: Microbatch("peer_mb_cu", 3, catalog)), ("plain", lambda: PlainDbtExact("peer_plain_cu", catalog)),
            ("floor", lambda: PlainDbtFloor("peer_floor_cu", catalog)), ("hand", lambda: HandWritten(runner.spark, peer_schema("peer_hand_cu", fmt), fmt))] if key in wanted]
        results = {}
        for system in catch_up:
            results[system.name] = system.step(final)
        peers = [s.name for s in catch_up if not isinstance(s, Tideline)]
        rows = []
        for system in catch_up:
            ratios = {o: [results[o]] for o in peers if o != system.name} if isinstance(system, RATIO_ROWS) else {}
            rows.append(summarize(system.name, [results[system.name]], ratios, compare(runner, system.table())))
        print_table(f"Catch-up: {args.days} days loaded, one run each", rows, peers)
    return 0


if __name__ == "__main__":
    sys.exit(main())

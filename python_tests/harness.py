"""Test harness: dbt in-process, one Spark (or Thrift connection) per test run, a schema per module.

A `Project` is what one test module works in: its own target schema for dbt models and its
own source schema for the events table, so modules never see each other's tables. It loads
event batches with the generator, runs dbt with vars, reads tables and compares them with
expected rows.
"""

from __future__ import annotations

import datetime as dt
import fcntl
import hashlib
import json
import os
import re
from collections import Counter
from decimal import Decimal
from pathlib import Path
from typing import Any, Iterable, Iterator, NamedTuple, Sequence

from parsed_projects import PARSED, parse_time_vars, reuses
from tideline_tools import generator
from tideline_tools.dbt import DbtResult, run_dbt
from tideline_tools.profile import PROJECT_DIR
from tideline_tools.sql import SqlRunner


# The dbt commands that parse the project (and so take --target-path).
ICEBERG_CATALOG = "tideline_iceberg"   # the var tideline__iceberg_catalog of the test profiles
RUN_LOCK = "tl_run_lock"              # every run takes it and gives it back
PARSING_COMMANDS = {"run", "build", "test", "compile", "seed", "snapshot", "parse", "run-operation", "show", "list", "ls"}


def extended_tier() -> bool:
    """Whether this is `make test-extended` (TIDELINE_EXTENDED=1): docs/tests.md, "Tiers"."""
    return os.environ.get("TIDELINE_EXTENDED") == "1"


def unfit_accepted(declared: str, where: str) -> str:
    """What a refusal of a column whose type its declared column does not take without a cast
    says is accepted (macros/internal/column_fit.sql), for a column declared `declared`, to be
    cast in `where`."""
    return (f"a value Spark stores in {declared} without a cast, as an insert into a table checks it (a number into a "
            "number, a date or timestamp into a date or timestamp, any value but an array, map or struct into a string; "
            f"arrays, maps and structs part by part); cast it in {where} to store it anyway")


def well_formed_now(value: Any) -> bool:
    """A valid tideline__now (tideline's own check refuses the others, with their message)."""
    for form in ("%Y-%m-%d", "%Y-%m-%d %H:%M", "%Y-%m-%d %H:%M:%S", "%Y-%m-%d %H:%M:%S.%f"):
        try:
            dt.datetime.strptime(value, form)
            return True
        except (TypeError, ValueError):
            pass
    return False


class Project:
    def __init__(self, runner: SqlRunner, name: str, source_of: "Project | None" = None, file_format: str | None = None):
        """A schema of its own; its events table too, unless it reads `source_of`'s. `file_format`
        (parquet, delta, iceberg; default: that of `source_of`, else TIDELINE_FILE_FORMAT's) is the format of
        the tables its dbt runs create: dbt gets it as TIDELINE_FILE_FORMAT, which
        dbt_project.yml's +file_format and the default of tideline__state_file_format read."""
        self.runner = runner
        self.target = runner.target
        self.file_format = file_format or (source_of.file_format if source_of else os.environ.get("TIDELINE_FILE_FORMAT", "parquet"))
        safe = re.sub(r"[^a-z0-9_]", "_", name.lower())
        self.schema = f"t_{safe}_{os.getpid()}"
        self.name = safe
        self.source_schema = source_of.source_schema if source_of else f"{self.schema}_src"
        self.events_table = f"{self.source_schema}.events"
        self.base_vars: dict[str, Any] = {
            "tideline__events_schema": self.source_schema,
            "tideline__events_table": "events",
        }

    # ---- set-up and tear-down ----------------------------------------------------------
    def reset(self) -> None:
        for schema in (self.schema, self.source_schema):
            self.drop_schema(schema)

    def reset_models(self) -> None:
        """Drop the dbt schema only (the events stay)."""
        self.drop_schema(self.schema)

    def drop_schema(self, schema: str) -> None:
        """A schema and its namespace of the Iceberg catalog, with their tables."""
        self.runner.execute(f"drop schema if exists {schema} cascade")
        if self.runner.target != "local":   # the cluster tests write no Iceberg table (conftest)
            return
        namespace = f"{ICEBERG_CATALOG}.{schema}"
        tables = self.iceberg_tables(schema)
        if tables is None:
            return
        for row in tables:
            self.runner.execute(f"drop table if exists {namespace}.{row[1]} purge")
        self.runner.execute(f"drop namespace if exists {namespace}")

    def iceberg_tables(self, schema: str | None = None, like: str = "*") -> list[tuple] | None:
        """The `show tables` rows of a schema's namespace in the Iceberg catalog (this project's
        schema by default); None when there is no such namespace (or no warehouse yet)."""
        try:
            return self.rows(f"show tables in {ICEBERG_CATALOG}.{schema or self.schema} like '{like}'")
        except Exception as e:
            if "amespace" not in str(e) and "SCHEMA_NOT_FOUND" not in str(e):
                raise
            return None

    def pipeline_state(self) -> dict[str, list[dict]]:
        """Every table of the time-based pipeline as a reader sees it (committed state only)."""
        state = {
            "tl_filtered_events": self.table("tl_filtered_events"),
            "daily_user_activity": self.table("daily_user_activity"),
            "user_attributes": self.table("user_attributes"),
            "tl_incremental_manifest": self.table("tl_incremental_manifest"),
        }
        state["aggregation_state"] = [dict(zip(("model", "event_date", "processed_rows", "skipped_rows"), r)) for r in self.rows(
            f"select model, event_date, processed_rows, skipped_rows from {self.fresh('tl_daily_aggregation_manifest')}")]
        return state

    # ---- loading -----------------------------------------------------------------------
    def load(self, world: generator.EventWorld, until, since=None, cadence_seconds=None, gaps=(), table=None) -> int:
        return generator.load_events(
            self.runner, world, table or self.events_table, until=until, since=since,
            cadence_seconds=cadence_seconds, gaps=gaps,
        )

    def write_source(self, table: str, columns: str, rows: Iterable[dict | tuple] = (), replace: bool = False,
                     using: str = "parquet") -> None:
        """A table `table` (columns as `name type, ...`; parquet unless `using` says otherwise) in
        the source schema, created when missing (dropped first with replace), then `rows`
        appended (dicts by column name, or tuples in column order) in one insert."""
        name = f"{self.source_schema}.{table}"
        self.runner.execute(f"create schema if not exists {self.source_schema}")
        if replace:
            self.runner.execute(f"drop table if exists {name}")
        self.runner.execute(f"create table if not exists {name} ({columns}) using {using}")
        names = [c.split()[0] for c in columns.split(", ")]
        values = [r if isinstance(r, tuple) else tuple(r[n] for n in names) for r in rows]
        if values:
            literals = ", ".join("(" + ", ".join(sql_literal(v) for v in r) + ")" for r in values)
            self.runner.execute(f"insert into {name} values {literals}")

    # ---- dbt ---------------------------------------------------------------------------
    def target_path(self, project_dir=None, vars: dict[str, Any] | None = None, reused: bool | None = None) -> Path:
        """This project's own dbt target folder for these vars (the module's base vars and
        `vars`; tideline__now goes to the environment, see dbt). dbt parses the whole project
        again (about 3 s here) when the profile or the vars changed since the folder's last
        parse: the profile's schema is the project's, and many scenarios alternate between a few
        sets of vars (a crash var, then none), so each set has a folder of its own in which
        dbt's partial parsing holds. Each pytest process (xdist worker) has folders of its own.
        A command given a parsed project (`reused`; by default whether a compile is) has the
        folder of its parse-time vars (parsed_projects)."""
        merged = {**self.base_vars, **(vars or {})}
        if reuses(("compile",)) if reused is None else reused:
            merged = parse_time_vars(merged)
        if well_formed_now(str(merged.get("tideline__now"))):
            del merged["tideline__now"]
        key = hashlib.sha1(json.dumps(merged, sort_keys=True, default=str).encode()).hexdigest()[:12]
        return own_target_path(self.name, project_dir) / key

    def dbt(self, *args: str, vars: dict[str, Any] | None = None, expect_success: bool = True,
            project_dir=None, on_event=None, profiles_dir=None) -> DbtResult | None:
        """dbt <args> with the module's vars. A well-formed `tideline__now` goes to dbt as the
        environment variable TIDELINE_NOW, as a scheduler replaying a logical date passes it:
        dbt parses the whole project again whenever --vars change, and only the clock changes
        from run to run (a malformed one stays a var, for the tests of its refusal).

        `dbt deps` of a project whose package link is in place already does nothing and returns
        None: two pytest processes may use one example project at once, and dbt deps replaces
        the link (a run of the other process would find no package for a moment)."""
        if args[:1] == ("deps",):
            folder = Path(project_dir or PROJECT_DIR)
            (folder / "target").mkdir(exist_ok=True)
            with open(folder / "target" / ".tideline-deps.lock", "a") as lock:
                fcntl.flock(lock, fcntl.LOCK_EX)
                if (folder / "dbt_packages" / "tideline").resolve() == Path(PROJECT_DIR).resolve():
                    return None
                return self._dbt(*args, vars=vars, expect_success=expect_success, project_dir=project_dir,
                                 on_event=on_event, profiles_dir=profiles_dir)
        return self._dbt(*args, vars=vars, expect_success=expect_success, project_dir=project_dir,
                         on_event=on_event, profiles_dir=profiles_dir)

    def _dbt(self, *args: str, vars: dict[str, Any] | None = None, expect_success: bool = True,
             project_dir=None, on_event=None, profiles_dir=None) -> DbtResult:
        os.environ["TIDELINE_SCHEMA"] = self.schema
        os.environ["TIDELINE_FILE_FORMAT"] = self.file_format
        merged = {**self.base_vars, **(vars or {})}
        now = merged.get("tideline__now")
        now = str(now) if isinstance(now, dt.datetime) else now
        pinned = well_formed_now(now) and "TIDELINE_NOW" not in os.environ
        manifest = None
        if args and args[0] in PARSING_COMMANDS and "--target-path" not in args:
            reused = reuses(args)
            folder = self.target_path(project_dir, merged, reused)
            args = (*args, "--target-path", str(folder))
            if reused:
                manifest = self.parsed(folder, parse_time_vars(merged), project_dir, profiles_dir)
        if pinned:
            del merged["tideline__now"]
            os.environ["TIDELINE_NOW"] = now
            try:
                return run_dbt(list(args), vars=merged, target=self.target, expect_success=expect_success,
                               project_dir=project_dir, on_event=on_event, profiles_dir=profiles_dir, manifest=manifest)
            finally:
                del os.environ["TIDELINE_NOW"]
        return run_dbt(list(args), vars=merged, target=self.target, expect_success=expect_success,
                       project_dir=project_dir, on_event=on_event, profiles_dir=profiles_dir, manifest=manifest)

    def parsed(self, folder: Path, vars: dict[str, Any], project_dir=None, profiles_dir=None):
        """The project parsed with its parse-time vars (parsed_projects), or None when that parse
        fails: the command then parses for itself and reports the failure as a user would see it."""
        def parse():
            result = run_dbt(["parse", "--target-path", str(folder)], vars=vars, target=self.target,
                             expect_success=False, project_dir=project_dir, profiles_dir=profiles_dir)
            return result.result if result.success else None
        return PARSED.manifest(Path(project_dir or PROJECT_DIR), self.target, profiles_dir, vars, parse)

    # ---- refusals --------------------------------------------------------------------------
    def snapshot(self, *schemas: str) -> dict[str, Any]:
        """What a refused command must leave as it was, in the project's two schemas and
        `schemas`: their tables and views (and their Iceberg namespaces' tables), each one's
        metastore entry as `show table extended` gives it (a view's text, a table's provider,
        schema, location and the properties the metastore keeps: a parquet table's live there
        only), and every file under their folders (size and modification time: any commit of
        any format writes one, Delta's and Iceberg's properties too). One statement a schema.
        The run lock, which every run takes and gives back, is left out."""
        names = sorted({self.schema, self.source_schema, *schemas})
        found = {schema for (schema,) in (r[:1] for r in self.rows("show schemas"))}
        tables: dict[str, Any] = {}
        for schema in names:
            if schema not in found:
                continue
            for _, name, temporary, information in self.rows(f"show table extended in {schema} like '*'"):
                if not temporary and name != RUN_LOCK:   # a session's temporary view; the run lock
                    tables[f"{schema}.{name}"] = information
            if self.target == "local":
                tables.update({f"{ICEBERG_CATALOG}.{schema}.{r[1]}": None for r in self.iceberg_tables(schema) or []})
        return {"tables": tables, "files": self._files(names)}

    def _files(self, schemas: Sequence[str]) -> dict[str, tuple[int, int]]:
        if self.target == "local":
            data = Path(os.environ["TIDELINE_DATA_DIR"])
        else:
            from tideline_tools.cluster import HOME as data
        roots = [data / "warehouse" / f"{schema}.db" for schema in schemas] + [data / "iceberg" / schema for schema in schemas]
        return {str(p.relative_to(data)): (p.stat().st_size, p.stat().st_mtime_ns)
                for root in roots for p in root.rglob("*") if p.is_file() and RUN_LOCK not in p.parts}

    def ensure_state(self, project_dir=None) -> None:
        """Creates tl_state and its views when missing, as every run's on-run-start does: a test of
        a refusal starts from a schema that has them (the refused run's hooks would create them)."""
        if not self.exists("tl_incremental_manifest"):
            self.dbt("run-operation", "tideline.ensure_state_tables", project_dir=project_dir)

    def refused(self, message: str, command, *schemas: str) -> DbtResult:
        """`command()` (a dbt call with expect_success=False) is a refusal: it failed, its messages
        hold `message` (the rule's own words, whole: model, setting, value, what is accepted), and
        nothing of snapshot() changed. Returns its result."""
        before = self.snapshot(*schemas)
        result = command()
        text = "\n".join(result.messages)
        assert not result.success, f"expected a refusal, the command succeeded: {message}"
        assert message in text, f"expected the refusal {message!r}, got:\n{text}"
        self._assert_unchanged(before, self.snapshot(*schemas), f"the refusal {message!r}")
        return result

    @staticmethod
    def _assert_unchanged(before: dict[str, Any], after: dict[str, Any], what: str) -> None:
        """Two snapshot()s are equal; else what changed between them, named."""
        if after != before:
            changed = sorted(set(before["files"].items()) ^ set(after["files"].items()))
            tables = sorted(set(before["tables"].items()) ^ set(after["tables"].items()), key=repr)
            raise AssertionError(f"{what} changed tables {tables} and files {changed[:10]}")

    @staticmethod
    def assert_reported_as(result: DbtResult, node: str, message: str) -> None:
        """dbt reports `node`'s failure as `message` alone, under dbt's own header: tideline's
        line, no Java stack, no py4j call, no plan (tideline_tools/spark_errors.py)."""
        found = [str(r.message or "") for r in getattr(result.result, "results", None) or []
                 if getattr(r, "node", None) is not None and r.node.name == node]
        assert found, f"no result for {node}: {result.messages}"
        assert found[0].strip().splitlines()[-1].strip() == message, found[0]
        assert "\tat " not in found[0] and "An error occurred while calling" not in found[0], found[0]

    def refused_each(self, expected: dict[str, str], command, *schemas: str) -> DbtResult:
        """`command()` (one dbt call over many models, expect_success=False) refuses every model
        of `expected` ({model: message}): each one's node failed with its own message (whole,
        as in refused()), and nothing of snapshot() changed. One dbt call and two snapshots for
        a whole refusal matrix; every mismatch is reported at once."""
        before = self.snapshot(*schemas)
        result = command()
        found = {r.node.name: (str(r.status), r.message or "") for r in getattr(result.result, "results", None) or []
                 if getattr(r, "node", None) is not None}
        wrong = []
        for name, message in sorted(expected.items()):
            status, text = found.get(name, ("not run", ""))
            if status != "error" or message not in text:
                wrong.append(f"{name}: expected the refusal {message!r}, got {status}: {text}")
        assert not wrong, "\n\n".join(wrong)
        self._assert_unchanged(before, self.snapshot(*schemas), "the refusals")
        return result

    # ---- reading -----------------------------------------------------------------------
    def assert_formats(self, names: Sequence[str]) -> None:
        """Each table is in the project's file format."""
        found = {name: self.table_format(name) for name in names}
        assert found == {name: self.file_format for name in names}, found

    def table_format(self, name: str) -> str:
        """The format of a model's table (its provider: parquet, delta, iceberg): the table of the
        schema, else the Iceberg catalog's table of the same name (whose view the schema holds)."""
        relation = self.relation(name)
        if "." not in name:
            found = [r for r in self.rows(f"show tables in {self.schema} like '{name}'") if r[1] == name]
            if not found or self.is_view(relation):
                relation = f"{ICEBERG_CATALOG}.{self.schema}.{name}"
        rows = self.rows(f"describe table extended {relation}")
        return next(r[1] for r in rows if r[0] == "Provider").lower()

    def data_tables(self, model: str) -> list[str]:
        """The data tables a derivation or a continual task has now (<model>__tl_data, and
        <model>__tl_data_b while or after a rebuild into a new table)."""
        namespace = f"{ICEBERG_CATALOG}.{self.schema}" if self.file_format == "iceberg" else self.schema
        return sorted(r[1] for r in self.rows(f"show tables in {namespace} like '{model}__tl_data*'"))

    def exists(self, name: str) -> bool:
        """Whether the schema has a table or view of that name (False before the schema exists)."""
        return bool(self.rows(f"show schemas like '{self.schema}'")) and bool(
            [r for r in self.rows(f"show tables in {self.schema} like '{name}'") if r[1] == name])

    def tables(self) -> list[str]:
        """The names of the schema's tables and views, sorted (none before the schema exists; not
        the session's temporary views, which `show tables` lists too)."""
        if not self.rows(f"show schemas like '{self.schema}'"):
            return []
        return sorted(r[1] for r in self.rows(f"show tables in {self.schema}") if not r[2])

    def is_view(self, relation: str) -> bool:
        rows = self.rows(f"describe table extended {relation}")
        return any(r[0] == "Type" and r[1] == "VIEW" for r in rows)

    def rows(self, sql: str) -> list[tuple]:
        return self.runner.rows(sql)

    def relation(self, name: str) -> str:
        """A table or view of the schema by name; tideline's own tables (tl_state, <model>__tl_*)
        of an Iceberg project are in the Iceberg catalog."""
        if "." in name:
            return name
        if self.file_format == "iceberg" and (name == "tl_state" or "__tl_" in name):
            return f"{ICEBERG_CATALOG}.{self.schema}.{name}"
        return f"{self.schema}.{name}"

    def fresh(self, name: str) -> str:
        """The relation, with this session's cached file listing of it dropped first.

        On a Thrift server every connection is its own Spark session with its own cache of
        table metadata; a table that dbt rebuilt in its session is stale in ours until
        REFRESH TABLE (reading it fails with "File ... does not exist"). Any client of a
        shared Thrift server must do the same after a rebuild.

        On the local target the tests and dbt share one SparkSession (tideline_tools/sql.py), whose
        writes drop its own cached listings, and no other process opens the data folder while
        this one holds its metastore: nothing to refresh (608 `refresh table` statements, 40 s,
        in 60% of the local tier, 2026-12-07).
        """
        relation = self.relation(name)
        if self.target == "local":
            return relation
        self.runner.execute(f"refresh table {relation}")
        if "." not in name:
            # a tideline view (derivation, continual task, filtered events) reads a table that
            # runs append to, and tl_state, which names the committed runs: their cached file
            # listings must be dropped too
            for row in self.rows(f"show tables in {self.schema} like '{name}__tl_*|tl_state'"):
                self.runner.execute(f"refresh table {self.schema}.{row[1]}")
        return relation

    def table(self, name: str, columns: Sequence[str] | None = None) -> list[dict]:
        """The rows of a table or view, in one canonical order (Spark returns them in any order:
        two reads of an unchanged union view can differ), so that two reads compare with ==."""
        relation = self.fresh(name)
        if columns:
            cols = list(columns)
            rows = self.runner.rows(f"select {', '.join(cols)} from {relation}")
        else:
            cols, rows = self.runner.columns_and_rows(f"select * from {relation}")
        return sorted((dict(zip(cols, row)) for row in rows), key=_key)

    def read_tables(self, names: Sequence[str], columns: Sequence[str]) -> dict[str, list[dict]]:
        """The rows of several tables or views with the same columns, each as table() gives them,
        read in one query (a union all tagged with the name): one statement instead of one a
        relation, where a test compares many views after every run."""
        relations = {name: self.fresh(name) for name in names}
        listed = ", ".join(columns)
        sql = "\nunion all\n".join(f"select '{name}' as _tl_read, {listed} from {relation}" for name, relation in relations.items())
        found: dict[str, list[dict]] = {name: [] for name in names}
        for row in self.runner.rows(sql):
            found[row[0]].append(dict(zip(columns, row[1:])))
        return {name: sorted(rows, key=_key) for name, rows in found.items()}

    def assert_table_equals(self, name: str, expected: Iterable[dict], columns: Sequence[str] | None = None) -> None:
        expected = list(expected)
        cols = list(columns) if columns else (list(expected[0]) if expected else None)
        assert_rows_equal(self.table(name, cols), expected, label=self.relation(name))


# Columns that name the run and its commit: they differ between two projects that hold the
# same data (another run id, another commit time), so data comparisons leave them out.
RUN_COLUMNS = ("_tl_batch", "_tl_run", "run_id", "committed_at", "run_now")


def pause_at(checkpoints: dict[str, Any], trace: list[str] | None = None):
    """An `on_event` for Project.dbt that holds the run at tideline's checkpoints, for tests of
    what readers see at a given moment (deterministic: no threads, no sleeps). At each
    `<model>:<step>` of `checkpoints` (the debug event `tl-checkpoint <model>:<step>` that
    macros/internal/run_state.sql's checkpoint() fires) the run waits, in dbt's own thread and
    between two of its statements, while the callable runs; its result (or the repr of its error)
    goes to the returned dict under that name. `trace`, if given, receives each statement the run
    sends (whitespace folded, dbt's comment header dropped) and `checkpoint <model>:<step>` at
    each checkpoint, in order. Returns (on_event, results)."""
    results: dict[str, Any] = {}

    def on_event(event) -> None:
        name = event.info.name
        if name == "SQLQuery" and trace is not None:
            trace.append(" ".join(re.sub(r"^/\*.*?\*/", "", event.data.sql.strip(), flags=re.S).split()))
        msg = event.info.msg
        if isinstance(msg, str) and msg.startswith("tl-checkpoint "):
            point = msg[len("tl-checkpoint "):]
            if trace is not None:
                trace.append(f"checkpoint {point}")
            if point in checkpoints:
                try:
                    results[point] = checkpoints[point]()
                except Exception as error:   # noqa: BLE001 - reported as the result, for the test to assert
                    results[point] = repr(error)

    return on_event, results


def drawn_examples(examples: int, make_test: int, variable: str) -> int:
    """How many cases a property test draws: `examples` in the extended tier, `make_test` in
    `make test` (CI's time), or the number the environment variable `variable` gives
    (docs/tests.md, "Tiers")."""
    if os.environ.get(variable):
        return int(os.environ[variable])
    return examples if extended_tier() else make_test


def fast_property(cases, edge_cases: Iterable, examples: int = 200, make_test: int = 35):
    """The fast tier's property test over `case`: the explicit edge cases first, then cases
    drawn from the strategy `cases` (drawn_examples: `examples` in the extended tier, 200 unless
    a test says more, issue 39's volume; `make_test` in `make test`), derandomized (the same
    cases on every run). TIDELINE_FAST_EXAMPLES=N draws N instead: fewer for a quick look while
    developing, more (1,000) for a deeper run by hand."""
    from hypothesis import HealthCheck, Phase, example, given, settings

    examples = drawn_examples(examples, make_test, "TIDELINE_FAST_EXAMPLES")

    def decorate(test):
        test = given(case=cases)(test)
        for case in reversed(list(edge_cases)):
            test = example(case=case)(test)
        return settings(max_examples=examples, deadline=None, derandomize=True, phases=[Phase.explicit, Phase.generate],
                        suppress_health_check=list(HealthCheck))(test)
    return decorate


def end_to_end_property(make_test: int, examples: int = 10):
    """The settings of an end-to-end property test (each example is several dbt runs): its
    explicit @example cases first, then drawn cases (drawn_examples: `examples` in the extended
    tier, 10 unless a test says more, issue 39's volume; `make_test` in `make test`, what CI's
    time allows: an example costs 11 to 63 s, docs/tests.md), derandomized (the same cases on
    every run), no deadline. TIDELINE_E2E_EXAMPLES=N draws N instead."""
    from hypothesis import HealthCheck, Phase, settings

    return settings(max_examples=drawn_examples(examples, make_test, "TIDELINE_E2E_EXAMPLES"), deadline=None,
                    derandomize=True, phases=[Phase.explicit, Phase.generate], suppress_health_check=list(HealthCheck))


def own_target_path(name: str, project_dir=None) -> Path:
    """A dbt target folder for `name` in this pytest process (Project.target_path says why):
    tests that call run_dbt themselves pass it as --target-path too, or their every call parses
    the whole project again after any other test's run in the default folder (measured: the
    cron property test took 225 s in the suite, 13 s alone)."""
    process = f"{os.environ.get('TIDELINE_TARGET', 'local')}-{os.environ.get('PYTEST_XDIST_WORKER', 'main')}"
    return Path(project_dir or PROJECT_DIR) / "target" / "tests" / process / name


def project_copy(example: Path, to: Path, edits: dict[str, tuple[str, str]]) -> Path:
    """A copy of an example project (its dbt_project.yml and models) in `to`, that installs
    this checkout of tideline, with `edits` made ({model file: (old text, new text)}): a model
    changed between two runs, as a user changes theirs. Run `dbt deps` in it before use."""
    import shutil

    shutil.copytree(example / "models", to / "models")
    shutil.copy(example / "dbt_project.yml", to / "dbt_project.yml")
    (to / "packages.yml").write_text(f"packages:\n  - local: {PROJECT_DIR}\n")
    for name, (old, new) in edits.items():
        path = to / "models" / name
        text = path.read_text()
        assert old in text, f"{name} has no {old!r}"
        path.write_text(text.replace(old, new))
    return to


def run_cuts(times: Sequence, runs: int, rng) -> list[int]:
    """Where a random split of loads (at `times`, sorted) into up to `runs` runs cuts: the index
    of the last load each run sees, the last load always included."""
    cuts = sorted(rng.sample(range(len(times)), min(runs, len(times))))
    if cuts[-1] != len(times) - 1:
        cuts.append(len(times) - 1)
    return cuts


class SplitRun(NamedTuple):
    """One run of a random split of loads (split_loads): the rows loaded so far, the run's now,
    and whether it is the last run."""
    loaded: list
    now: dt.datetime
    last: bool


def split_loads(project: "Project", source: str, layout: Sequence, rows: list[dict], runs: int, rng,
                time_column: str = "load_tstamp", after: dt.timedelta = dt.timedelta(minutes=5)) -> Iterator[SplitRun]:
    """`rows` loaded into the source table `source` (columns `layout`) at their `time_column`, in up
    to `runs` runs cut at random (run_cuts): before each run, the rows of the loads up to its cut
    not loaded yet are written; the run's now is `after` its last load. The property tests'
    random splits into runs."""
    times = sorted({r[time_column] for r in rows})
    cuts = run_cuts(times, runs, rng)
    loaded: list[dict] = []
    for i, cut in enumerate(cuts):
        batch = [r for r in rows if r[time_column] <= times[cut] and r not in loaded]
        project.write_source(source, layout, batch)
        loaded += batch
        yield SplitRun(list(loaded), times[cut] + after, i == len(cuts) - 1)


def sql_literal(value: Any) -> str:
    """A Python value as a Spark SQL literal."""
    if value is None:
        return "null"
    if isinstance(value, dt.datetime):
        return f"timestamp'{value:%Y-%m-%d %H:%M:%S.%f}'"
    if isinstance(value, dt.date):
        return f"date'{value:%Y-%m-%d}'"
    if isinstance(value, str):
        return "'" + value.replace("\\", "\\\\").replace("'", "\\'") + "'"
    return repr(value)


def replace_rows(runner, table: str, columns: Sequence[str], rows: list[dict]) -> None:
    """The table's rows replaced by `rows` (dicts with at least `columns`)."""
    runner.execute(f"truncate table {table}")
    if rows:
        values = ", ".join("(" + ", ".join(sql_literal(r[c]) for c in columns) + ")" for r in rows)
        runner.execute(f"insert into {table} ({', '.join(columns)}) values {values}")


def temp_view(runner, name: str, columns: dict[str, str], rows: list[dict]) -> None:
    """A temporary view of `rows` (name: type columns), replaced."""
    if rows:
        values = ", ".join("(" + ", ".join(sql_literal(r[c]) for c in columns) + ")" for r in rows)
        select = f"select * from values {values} as v({', '.join(columns)})"
    else:
        select = "select " + ", ".join(f"cast(null as {t}) as {c}" for c, t in columns.items()) + " where false"
    runner.execute(f"create or replace temporary view {name} as "
                   f"select {', '.join(f'cast({c} as {t}) as {c}' for c, t in columns.items())} from ({select})")


def named_rows(runner, sql: str) -> list[dict]:
    """The rows of a query, each a dict by column name."""
    columns, rows = runner.columns_and_rows(sql)
    return [dict(zip(columns, row)) for row in rows]


def data_rows(rows: Iterable[dict]) -> list[dict]:
    """The rows without the columns that name the run that wrote them (RUN_COLUMNS)."""
    return [{k: v for k, v in row.items() if k not in RUN_COLUMNS} for row in rows]


def _canonical(value: Any) -> Any:
    """One comparable form per value: floats and decimals to 6 places, datetimes naive UTC."""
    if isinstance(value, (float, Decimal)):
        return round(float(value), 6)
    if isinstance(value, dt.datetime) and value.tzinfo is not None:
        return value.astimezone(dt.timezone.utc).replace(tzinfo=None)
    if isinstance(value, (list, tuple)):
        return tuple(_canonical(v) for v in value)
    return value


def _key(row: dict | tuple) -> tuple:
    if not isinstance(row, dict):   # a row as a tuple, in column order
        return tuple(repr(_canonical(v)) for v in row)
    return tuple(sorted((k, repr(_canonical(v))) for k, v in row.items()))


def rows_equal(actual: list[dict | tuple], expected: list[dict | tuple]) -> bool:
    """The multiset equality assert_rows_equal asserts (rows as dicts, or as tuples in one column order)."""
    return Counter(_key(r) for r in actual) == Counter(_key(r) for r in expected)


def assert_rows_equal(actual: list[dict], expected: list[dict], label: str = "table") -> None:
    """Multiset equality of rows, with the missing and unexpected rows in the message."""
    got = Counter(_key(r) for r in actual)
    want = Counter(_key(r) for r in expected)
    if got == want:
        return
    missing = list((want - got).elements())
    extra = list((got - want).elements())
    lines = [f"{label}: {len(actual)} rows, expected {len(expected)}"]
    lines += [f"  missing   {dict(k)}" for k in missing[:10]]
    lines += [f"  unexpected {dict(k)}" for k in extra[:10]]
    if len(missing) > 10 or len(extra) > 10:
        lines.append(f"  ... {len(missing)} missing and {len(extra)} unexpected in all")
    raise AssertionError("\n".join(lines))


# ---- a daily aggregate over source_events() against the same select over filtered_events() ------
FROM_SOURCE = "daily_user_events_from_source"
OVER_FILTERED = "daily_user_activity"
SOURCE_COLUMNS = ["event_date", "attribute_key", "event_count", "page_views", "last_event_tstamp"]


def date_state(project: Project, model: str) -> list[dict]:
    """A daily aggregate's per-date state: processed and skipped rows."""
    rows = project.rows(f"""select event_date, processed_rows, skipped_rows
        from {project.fresh('tl_daily_aggregation_manifest')} where model = '{model}'""")
    return [dict(zip(("event_date", "processed_rows", "skipped_rows"), r)) for r in rows]


def assert_same_as_over_filtered_events(project: Project, label: str) -> None:
    """FROM_SOURCE's rows and per-date state equal those of OVER_FILTERED (same columns)."""
    assert_rows_equal(project.table(FROM_SOURCE, SOURCE_COLUMNS), project.table(OVER_FILTERED, SOURCE_COLUMNS),
                      label=f"{label}: rows")
    assert_rows_equal(date_state(project, FROM_SOURCE), date_state(project, OVER_FILTERED), label=f"{label}: date state")


# ---- every crash point -----------------------------------------------------------------
# A statement that changes what is stored (tables, views, schemas, the metastore). A crash after
# any other statement (select, show, describe, set) leaves storage as a crash after the last
# change before it: the rerun starts from the same tables.
STORAGE_CHANGE = re.compile(r"^(insert|create|drop|alter|merge|delete|update|truncate|replace|call|msck)\b")


class InjectedCrash(RuntimeError):
    """What a run that `CrashPoints` kills raises: dbt reports it as the failed node's error."""


ORDINALS = {2: "second", 3: "third", 4: "fourth"}


def crash_stride() -> int:
    """Which of a scenario's storage-changing statements a crash test dies after: each one in
    the extended tier (TIDELINE_EXTENDED=1), every 24th of each node in `make test` (its first
    included: every node still dies once), or TIDELINE_CRASH_STRIDE's choice. docs/tests.md, "Tiers"."""
    if os.environ.get("TIDELINE_CRASH_STRIDE"):
        return max(1, int(os.environ["TIDELINE_CRASH_STRIDE"]))
    return 1 if extended_tier() else 24


class CrashPoints:
    """Crash injection at every statement that changes storage (or every `stride`th of each node,
    crash_stride), for one capability's scenario.

    `attempt(label)` gives an `on_event` for Project.dbt under which the run dies right after the
    first storage-changing statement it sends that no earlier attempt died after: that statement
    is done, then the run raises, and every later statement raises before it is sent, as a
    process that died would send nothing more. `until_done(run, label)` repeats the run (a rerun
    after each crash, which may itself die at its own first new statement) until an attempt
    finishes. Statements are told apart by the node that sends them and their text with schema
    names, literals and numbers masked, and by how often the node sent the same text before in
    that attempt: so every storage-changing statement that any attempt sends is one that some
    attempt died right after (`crashed_after`, the crash points). On the local target the Spark session's settings are put back after a crash
    (a new process starts with the profile's); on the cluster dbt's Thrift sessions close with it.
    """

    def __init__(self, project: "Project", names: Sequence[str] = (), stride: int | None = None):
        self.project = project
        self.names = sorted({project.schema, project.source_schema, *names}, key=len, reverse=True)
        self.stride = stride or crash_stride()
        self.crashed_after: dict[tuple, str] = {}   # statement -> the attempt that died after it
        self.passed: set[tuple] = set()              # statements left out by the stride
        self.new_in_node: Counter = Counter()        # each node's statements seen so far, crashed or passed
        self.statements = 0                          # statements sent by all attempts
        self.settings_sent: set[str] = set()         # session settings the current attempt set
        self.attempts = 0

    def template(self, sql: str) -> str:
        text = re.sub(r"^\s*/\*.*?\*/", "", sql.strip(), flags=re.S).lower()
        text = re.sub(r"--[^\n]*", " ", text)
        for name in self.names:
            text = text.replace(name.lower(), "<schema>")
        text = re.sub(r"'[^']*'", "?", text)
        text = re.sub(r"[0-9a-f]{8}([-_][0-9a-f]{4}){3}[-_][0-9a-f]{12}", "<run>", text)   # a run id in a name
        text = re.sub(r"\d+", "0", text)   # numbers, and those in names (a version table's number)
        return " ".join(text.split()[:14])

    def attempt(self, label: str):
        self.attempts += 1
        sent: Counter = Counter()
        current: dict[str, Any] = {"key": None, "dead": False}

        def on_event(event) -> None:
            name = event.info.name
            if name == "SQLQuery":
                if current["dead"]:
                    raise InjectedCrash("the run died before this statement")
                self.statements += 1
                setting = re.match(r"\s*(?:/\*.*?\*/)?\s*set\s+`?([\w.-]+)`?\s*=", event.data.sql, flags=re.S | re.I)
                if setting:
                    self.settings_sent.add(setting[1])
                node = getattr(event.data.node_info, "unique_id", "") or "dbt"
                template = self.template(event.data.sql)
                sent[(node, template)] += 1
                current["key"] = (node, template, sent[(node, template)]) if STORAGE_CHANGE.match(template) else None
            elif name == "SQLQueryStatus" and current["key"] is not None:
                key, current["key"] = current["key"], None
                if key not in self.crashed_after and key not in self.passed:
                    self.new_in_node[key[0]] += 1
                    if (self.new_in_node[key[0]] - 1) % self.stride:
                        self.passed.add(key)
                        return
                    self.crashed_after[key] = label
                    current["dead"] = True
                    raise InjectedCrash(f"injected crash after: {key[1]}")

        return on_event

    def until_done(self, run, label: str, after_crash=None) -> int:
        """`run(on_event)` (a Project.dbt call with expect_success=False) until it succeeds;
        returns how many attempts died. Each death must be the injected crash; `after_crash(label)`,
        if given, checks what readers see after each."""
        for died in range(200):
            settings = self._session_settings()
            self.settings_sent.clear()
            attempt = f"{label}, attempt {died + 1}"
            result = run(self.attempt(attempt))
            if result.success:
                return died
            assert any("injected crash after" in m for m in result.messages), result.messages
            self._restore_session(settings)
            if after_crash is not None:
                after_crash(attempt)
        last = "\n".join(f"  {key[0]}: {key[1]} (#{key[2]})" for key in list(self.crashed_after)[-5:])
        raise AssertionError(f"{label}: still crashing after 200 attempts; the last crash points:\n{last}")

    @staticmethod
    def before_or_after(read, before: dict[str, list | None], after: dict[str, list]):
        """An `after_crash` check for until_done: every table `read()` returns (name -> rows, as
        dicts or tuples; None or no entry for a table that does not exist: no rows) holds what it
        held before the run or what it holds after it, nothing between."""
        def check(label: str) -> None:
            for name, seen in read().items():
                seen = seen or []
                assert rows_equal(seen, before.get(name) or []) or rows_equal(seen, after[name]), \
                    f"{name} after {label}: neither the rows before the run nor those after it: {seen}"
        return check

    def report(self, label: str) -> str:
        """The line the suite prints for this scenario (conftest: crash points)."""
        nodes = Counter(key[0].split(".")[-1] for key in self.crashed_after)
        which = ("every storage-changing statement sent" if self.stride == 1 else
                 f"every {ORDINALS.get(self.stride, f'{self.stride}th')} storage-changing statement of each node, its first included, of "
                 f"{len(self.crashed_after) + len(self.passed)} sent")
        return (f"{label}: {len(self.crashed_after)} crash points, {which} "
                f"({', '.join(f'{node} {n}' for node, n in sorted(nodes.items()))}); {self.attempts} attempts, "
                f"{self.statements} statements")

    def seen(self) -> int:
        """How many storage-changing statements the attempts sent, each counted once, whether
        an attempt died after it or the stride passed it."""
        return len(self.crashed_after) + len(self.passed)

    def nodes(self) -> set[str]:
        """The nodes (models, hooks, or 'dbt' for dbt's own statements) some attempt died in."""
        return {key[0].split(".")[-1] for key in self.crashed_after}

    def _session_settings(self) -> dict[str, str] | None:
        if self.project.target != "local":
            return None
        return {row[0]: row[1] for row in self.project.rows("set")}

    def _restore_session(self, settings: dict[str, str] | None) -> None:
        """Put back each setting the dead attempt set (`set <key> = <value>`), as a new process
        would start without them."""
        for key in sorted(self.settings_sent) if settings is not None else ():
            if key in settings:
                self.project.runner.execute(f"set `{key}` = {settings[key]}")
            else:
                self.project.runner.execute(f"reset `{key}`")
        self.settings_sent.clear()

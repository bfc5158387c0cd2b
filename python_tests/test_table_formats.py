"""Table formats: a bad `file_format` or `tideline__state_file_format` is refused by name, a table
that exists in another format than configured is refused with the fix and nothing changes, and
`--full-refresh` converts it (the multi-run scenarios and kill tests on each format are in the
modules marked `formats`: test_time_based_pipeline, test_crash_safety, test_state_compaction)."""

from __future__ import annotations

import datetime as dt

import pytest

from harness import ICEBERG_CATALOG, assert_rows_equal, data_rows, named_rows
from tideline_tools.generator import EventWorld

pytestmark = pytest.mark.local_only

WORLD = EventWorld(seed=31, start=dt.datetime(2025, 5, 1), days=3, events_per_day=60, users=6, late_share=0.1, max_late_days=1)
VARS = {"tideline__start_date": "2025-05-01", "tideline__backfill_limit_days": 30}
SELECT = ["tl_filtered_events", "daily_user_activity"]


RETAIN_REFUSED = ("tideline: maintain_tables: retain_hours = 24 is invalid; accepted: a number of hours >= 168 (Delta refuses "
                  "to vacuum files younger than 7 days: a reader still on an older version would lose them)")


def everything(project) -> dict[str, list[dict]]:
    """Every table and view of the project's schema, whole (the run lock excepted): what a
    maintenance operation, which rewrites files, must leave as it was."""
    names = sorted(r[1] for r in project.rows(f"show tables in {project.schema}") if r[1] != "tl_run_lock" and not r[2])
    return {name: project.table(f"{project.schema}.{name}") for name in names}


def assert_unchanged(project, before) -> None:
    after = everything(project)
    assert list(after) == list(before)
    for name in before:
        assert_rows_equal(after[name], before[name], label=name)


def assert_conversion_refused(project, table: str, found: str, wanted: str, command) -> None:
    """`command()` is refused for the filtered events' table in another format, with its fix, and changes nothing."""
    project.refused(f"tideline: model tl_filtered_events: table {table} is {found}, the model's file_format is {wanted};"
                    " nothing was written. Convert it with dbt run --full-refresh --select tl_filtered_events (the old table stays readable"
                    f" until the new one replaces it), or set file_format: {found}", command)


@pytest.fixture
def built(project):
    """The pipeline built in parquet over two loads; returns the vars of the next run."""
    project.reset()
    project.file_format = "parquet"
    t = dt.datetime(2025, 5, 2, 6)
    project.load(WORLD, until=t, cadence_seconds=3600)
    project.dbt("run", "--select", *SELECT, vars={**VARS, "tideline__now": str(t)})
    project.load(WORLD, until=t + dt.timedelta(days=1), cadence_seconds=3600)
    return {**VARS, "tideline__now": str(t + dt.timedelta(days=1))}


def test_a_file_format_tideline_does_not_write_is_refused_by_name(project, built):
    next_vars = built
    project.file_format = "orc"   # dbt_project.yml's +file_format
    result = project.refused('tideline: model tl_filtered_events: file_format = "orc" is invalid; accepted: parquet, delta, iceberg',
                             lambda: project.dbt("run", "--select", *SELECT, expect_success=False,
                                                 vars={**next_vars, "tideline__state_file_format": "parquet"}))
    assert result.node_status().get("daily_user_activity") in ("skipped", None), result.node_status()

    project.file_format = "parquet"
    result = project.refused('tideline: var tideline__state_file_format = "avro" is invalid; accepted: parquet, delta, iceberg',
                             lambda: project.dbt("run", "--select", *SELECT, expect_success=False,
                                                 vars={**next_vars, "tideline__state_file_format": "avro"}))
    assert result.node_status() == {}


def test_a_table_in_another_format_is_refused_until_a_full_refresh_converts_it(project, built):
    next_vars = built
    project.file_format = "delta"
    assert_conversion_refused(project, f"{project.schema}.tl_filtered_events__tl_rows", "parquet", "delta",
                              lambda: project.dbt("run", "--select", *SELECT, expect_success=False,
                                                  vars={**next_vars, "tideline__state_file_format": "parquet"}))

    # a state table in another format than tideline__state_file_format: refused before any model
    result = project.refused(f"tideline: state table {project.schema}.tl_state is parquet, tideline__state_file_format is delta; "
                             "nothing was written. Set tideline__state_file_format to parquet, or rebuild the schema's tideline "
                             f"models in the new format: drop {project.schema}.tl_state and run dbt run --full-refresh.",
                             lambda: project.dbt("run", "--select", *SELECT, expect_success=False,
                                                 vars={**next_vars, "tideline__state_file_format": "delta"}))
    assert result.node_status() == {}

    # --full-refresh converts the models' tables; the data is what a parquet run gives
    project.dbt("run", "--full-refresh", "--select", *SELECT, vars={**next_vars, "tideline__state_file_format": "parquet"})
    project.assert_formats(["tl_filtered_events__tl_rows", "daily_user_activity"])
    assert project.table_format("tl_state") == "parquet"
    converted = {name: data_rows(project.table(name)) for name in SELECT}
    project.file_format = "parquet"
    project.dbt("run", "--full-refresh", "--select", *SELECT, vars={**next_vars, "tideline__state_file_format": "parquet"})
    for name in SELECT:
        assert_rows_equal(converted[name], data_rows(project.table(name)), label=f"{name}: delta against parquet")
    assert converted["daily_user_activity"]



def test_a_parquet_pipeline_is_refused_as_iceberg_until_a_full_refresh_converts_it(project, built):
    """Iceberg tables live in their own catalog: a parquet pipeline whose file_format became
    iceberg is refused (nothing changes), `--full-refresh` converts it (the parquet tables go,
    the models' views read the Iceberg tables), and the next incremental run equals a rebuild."""
    next_vars = built
    project.file_format = "iceberg"
    state_vars = {**next_vars, "tideline__state_file_format": "parquet"}
    assert_conversion_refused(project, f"{project.schema}.tl_filtered_events__tl_rows", "parquet", "iceberg",
                              lambda: project.dbt("run", "--select", *SELECT, expect_success=False, vars=state_vars))

    project.dbt("run", "--full-refresh", "--select", *SELECT, vars=state_vars)
    project.assert_formats(["tl_filtered_events__tl_rows", "daily_user_activity"])
    tables = {r[1] for r in project.rows(f"show tables in {project.schema}")}
    assert "tl_filtered_events__tl_rows" not in tables, "the converted parquet table is dropped"
    assert project.is_view(f"{project.schema}.daily_user_activity")
    now = dt.datetime.fromisoformat(next_vars["tideline__now"]) + dt.timedelta(hours=12)
    project.load(WORLD, until=now, cadence_seconds=3600)
    project.dbt("run", "--select", *SELECT, vars={**state_vars, "tideline__now": str(now)})
    incremental = {name: data_rows(project.table(name)) for name in SELECT}

    # back to parquet: the Iceberg tables are found and refused, nothing changes, until a
    # --full-refresh converts them (then the Iceberg tables go)
    iceberg_tables = ["tl_filtered_events__tl_rows", "daily_user_activity"]
    stored = {name: project.table(f"{ICEBERG_CATALOG}.{project.schema}.{name}") for name in iceberg_tables}
    project.file_format = "parquet"
    run_vars = {**state_vars, "tideline__now": str(now + dt.timedelta(hours=1))}
    assert_conversion_refused(project, f"{ICEBERG_CATALOG}.{project.schema}.tl_filtered_events__tl_rows", "iceberg", "parquet",
                              lambda: project.dbt("run", "--select", *SELECT, expect_success=False, vars=run_vars))
    for name in iceberg_tables:
        assert_rows_equal(project.table(f"{ICEBERG_CATALOG}.{project.schema}.{name}"), stored[name], label=f"{ICEBERG_CATALOG}: {name}")

    project.dbt("run", "--full-refresh", "--select", *SELECT, vars={**state_vars, "tideline__now": str(now)})
    project.assert_formats(iceberg_tables)
    assert not [r[1] for r in project.iceberg_tables() if r[1] in iceberg_tables], \
        "the converted Iceberg tables are dropped"
    for name in SELECT:
        assert_rows_equal(incremental[name], data_rows(project.table(name)), label=f"{name}: iceberg incremental against a parquet rebuild")
    assert incremental["daily_user_activity"]

def delta_history(project, table: str) -> list[str]:
    """The operations of a Delta table's commits, oldest first."""
    rows = named_rows(project.runner, f"describe history {project.schema}.{table}")
    return [r["operation"] for r in sorted(rows, key=lambda r: r["version"])]


def test_maintenance_compacts_and_vacuums_every_delta_table_and_changes_no_row(project):
    """tideline.maintain_tables on a Delta pipeline of two runs: a retention under Delta's 7
    days is refused by name with no table touched; then every Delta table gets an OPTIMIZE and
    a VACUUM, no row of any table or view changes, and the next run equals a rebuild."""
    project.reset()
    project.file_format = "delta"
    t = dt.datetime(2025, 5, 2, 6)
    state_vars = {**VARS, "tideline__state_file_format": "delta"}
    for now in (t, t + dt.timedelta(days=1)):
        project.load(WORLD, until=now, cadence_seconds=3600)
        project.dbt("run", "--select", *SELECT, vars={**state_vars, "tideline__now": str(now)})
    tables = ["tl_filtered_events__tl_rows", "daily_user_activity", "tl_state"]
    project.assert_formats(tables[:2])
    before, histories = everything(project), {name: delta_history(project, name) for name in tables}

    project.refused(RETAIN_REFUSED, lambda: project.dbt("run-operation", "tideline.maintain_tables", "--args", "{retain_hours: 24}",
                                                        expect_success=False, vars=state_vars))
    project.refused("tideline: maintain_tables: listing_tasks = 0 is invalid; accepted: a whole number >= 1",
                    lambda: project.dbt("run-operation", "tideline.maintain_tables", "--args", "{listing_tasks: 0}",
                                        expect_success=False, vars=state_vars))
    assert {name: delta_history(project, name) for name in tables} == histories

    listing = "spark.sql.sources.parallelPartitionDiscovery.parallelism"
    session_listing = project.rows(f"set {listing}")
    project.dbt("run-operation", "tideline.maintain_tables", vars=state_vars)
    # its vacuums list files in 16 tasks (Delta's 10,000 cost ~30 s a table), then the session's value is back
    assert project.rows(f"set {listing}") == session_listing
    for name in tables:
        added = delta_history(project, name)[len(histories[name]):]
        assert "VACUUM END" in added, f"{name}: no vacuum in its history after maintenance: {added}"
        assert set(added) <= {"OPTIMIZE", "VACUUM START", "VACUUM END"}, f"{name}: {added}"
    assert_unchanged(project, before)

    now = t + dt.timedelta(days=2)
    project.load(WORLD, until=now, cadence_seconds=3600)
    project.dbt("run", "--select", *SELECT, vars={**state_vars, "tideline__now": str(now)})
    incremental = {name: data_rows(project.table(name)) for name in SELECT}
    project.dbt("run", "--full-refresh", "--select", *SELECT, vars={**state_vars, "tideline__now": str(now)})
    for name in SELECT:
        assert_rows_equal(incremental[name], data_rows(project.table(name)), label=f"{name}: after maintenance, against a rebuild")


def iceberg_snapshots(project, table: str) -> list[str]:
    """The operations of an Iceberg table's snapshots, oldest first."""
    rows = project.rows(f"select operation from {ICEBERG_CATALOG}.{project.schema}.{table}.snapshots order by committed_at")
    return [r[0] for r in rows]


def iceberg_files(project, table: str) -> int:
    """The data files of an Iceberg table's current snapshot."""
    return project.rows(f"select count(*) from {ICEBERG_CATALOG}.{project.schema}.{table}.files")[0][0]


def test_maintenance_rewrites_small_files_of_every_iceberg_table_and_changes_no_row(project):
    """tideline.maintain_tables on an Iceberg pipeline of two runs (its tables and tl_state in the
    Iceberg catalog): a retention under 7 days is refused by name with no snapshot added; then
    small files are rewritten (tl_state, two commits per model, goes to one file per model), no
    row of any table or view changes, and the next run equals a rebuild."""
    project.reset()
    project.file_format = "iceberg"
    t = dt.datetime(2025, 5, 2, 6)
    state_vars = {**VARS, "tideline__state_file_format": "iceberg"}
    for now in (t, t + dt.timedelta(days=1)):
        project.load(WORLD, until=now, cadence_seconds=3600)
        project.dbt("run", "--select", *SELECT, vars={**state_vars, "tideline__now": str(now)})
    tables = ["tl_filtered_events__tl_rows", "daily_user_activity", "tl_state"]
    project.assert_formats(tables)
    before, snapshots = everything(project), {name: iceberg_snapshots(project, name) for name in tables}
    state_files = iceberg_files(project, "tl_state")
    assert state_files >= 4, state_files
    for name in tables:   # old metadata files do not pile up (format_table_properties)
        properties = dict(project.rows(f"show tblproperties {ICEBERG_CATALOG}.{project.schema}.{name}"))
        assert properties.get("write.metadata.delete-after-commit.enabled") == "true", (name, properties)

    project.refused(RETAIN_REFUSED, lambda: project.dbt("run-operation", "tideline.maintain_tables", "--args", "{retain_hours: 24}",
                                                        expect_success=False, vars=state_vars))
    assert {name: iceberg_snapshots(project, name) for name in tables} == snapshots

    project.dbt("run-operation", "tideline.maintain_tables", vars=state_vars)
    for name in tables:
        added = iceberg_snapshots(project, name)[len(snapshots[name]):]
        assert set(added) <= {"replace"}, f"{name}: {added}"
    assert iceberg_snapshots(project, "tl_state")[len(snapshots["tl_state"]):] == ["replace"]
    assert iceberg_files(project, "tl_state") == 2, "one file per model after the rewrite"
    assert_unchanged(project, before)

    now = t + dt.timedelta(days=2)
    project.load(WORLD, until=now, cadence_seconds=3600)
    project.dbt("run", "--select", *SELECT, vars={**state_vars, "tideline__now": str(now)})
    incremental = {name: data_rows(project.table(name)) for name in SELECT}
    project.dbt("run", "--full-refresh", "--select", *SELECT, vars={**state_vars, "tideline__now": str(now)})
    for name in SELECT:
        assert_rows_equal(incremental[name], data_rows(project.table(name)), label=f"{name}: after maintenance, against a rebuild")

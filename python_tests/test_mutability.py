"""The mutability materializations over several runs with tideline__now advancing, from a
project that installs tideline as a package (python_tests/mutability_project): what is rebuilt,
skipped or appended, checked against expected rows; the seed's partial-landing example with
and without `settle`; the atomic swap of full_mutation; and every bad setting refused with
the table unchanged."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from harness import ICEBERG_CATALOG, CrashPoints, Project, assert_rows_equal, end_to_end_property, pause_at, sql_literal
from reference_mutability import append_only_run

MUTABILITY = Path(__file__).parent / "mutability_project"


@pytest.fixture(scope="module")
def deps(runner):
    Project(runner, "mutability_deps").dbt("deps", project_dir=MUTABILITY)


def run(project, model: str, now: str, *extra: str, expect_success: bool = True, on_event=None, **vars):
    return project.dbt("run", "--select", *model.split(), *extra, project_dir=MUTABILITY, expect_success=expect_success,
                       on_event=on_event, vars={"mutability__source": project.source_schema, "tideline__now": now, **vars})


def rows(project, model: str, columns: list[str]) -> list[dict]:
    return project.table(model, columns)


def properties(project, model: str) -> dict:
    """tideline.* properties of the table holding the model's rows (for a view: the table it selects from)."""
    holder = project.relation(model)
    view_text = [r[1] for r in project.rows(f"describe table extended {holder}") if r[0] == "View Text"]
    if view_text:
        holder = view_text[0].split()[-1]
    return {k: v for k, v in project.rows(f"show tblproperties {holder}") if k.startswith("tideline.")}


def test_immutable_is_built_once_and_refuses_a_changed_sql(project, deps):
    project.write_source("catalog", "code string, label string", [("a", "Apple"), ("b", "Banana")], replace=True)
    first = run(project, "catalog_immutable", "2025-01-01 10:00")
    assert any("catalog_immutable (immutable): built (first build), 2 rows" in line for line in first.tideline_lines)
    project.write_source("catalog", "code string, label string", [("c", "Cherry")])
    later = run(project, "catalog_immutable", "2025-06-01 10:00")
    assert [l for l in later.tideline_lines if "catalog_immutable" in l] == [
        "tideline catalog_immutable (immutable): skipped, nothing to do: built at 2025-01-01 10:00:00; "
        "dbt run --full-refresh rebuilds it"]
    expected = [{"code": "a", "label": "Apple"}, {"code": "b", "label": "Banana"}]
    project.assert_table_equals("catalog_immutable", expected)
    project.refused("tideline: model catalog_immutable is immutable and its compiled SQL has changed since it was built at "
                    "2025-01-01 10:00:00; it is not rebuilt silently. Rebuild it with: dbt run --full-refresh --select catalog_immutable",
                    lambda: run(project, "catalog_immutable", "2025-06-01 10:00", expect_success=False,
                                mutability__catalog_filter="code <> 'a'"))
    project.assert_table_equals("catalog_immutable", expected)
    run(project, "catalog_immutable", "2025-06-01 10:00", "--full-refresh", mutability__catalog_filter="code <> 'a'")
    project.assert_table_equals("catalog_immutable", [{"code": "b", "label": "Banana"}, {"code": "c", "label": "Cherry"}])


def version_tables(project, model: str) -> dict[str, list[str]]:
    """The model's version tables, by where they are stored: spark_catalog and the Iceberg catalog."""
    return {"spark_catalog": sorted(r[1] for r in project.rows(f"show tables in {project.schema} like '{model}__tl_v*'")),
            "iceberg": sorted(r[1] for r in project.iceberg_tables(like=f"{model}__tl_v*") or [])}


@pytest.mark.local_only
def test_a_version_table_in_another_format_is_refused_until_a_full_refresh_converts_it(project, deps):
    """A model whose file_format changed is refused by name with the fix, its rows, properties and
    version tables unchanged; `--full-refresh` builds the next version in the new format (parquet
    to Iceberg and back), and the version two builds back is dropped where it is stored."""
    model, expected = "catalog_immutable", [{"code": "a", "label": "Apple"}, {"code": "b", "label": "Banana"}]
    project.file_format = "parquet"
    project.write_source("catalog", "code string, label string", [("a", "Apple"), ("b", "Banana")], replace=True)
    run(project, model, "2025-01-01 10:00", "--full-refresh")   # the module's earlier tests built it too
    v = int(properties(project, model)["tideline.version"])       # the version its view reads, parquet
    for found, wanted, table in [("parquet", "iceberg", f"{project.schema}.{model}__tl_v{v}"),
                                 ("iceberg", "parquet", f"{ICEBERG_CATALOG}.{project.schema}.{model}__tl_v{v + 1}")]:
        project.file_format = wanted
        before = (properties(project, model), version_tables(project, model))
        project.refused(f"tideline: model {model}: table {table} is {found}, the model's file_format is {wanted}; nothing was written."
                        f" Convert it with dbt run --full-refresh --select {model}"
                        f" (the old table stays readable until the new one replaces it), or set file_format: {found}",
                        lambda: run(project, model, "2025-01-02 10:00", expect_success=False))
        assert (properties(project, model), version_tables(project, model)) == before
        project.assert_table_equals(model, expected)
        run(project, model, "2025-01-02 10:00", "--full-refresh")
        project.assert_table_equals(model, expected)
    # v (parquet) dropped by the build of v+2 (parquet), the readers' view on it; v+1 (Iceberg) kept for readers still scanning it
    assert version_tables(project, model) == {"spark_catalog": [f"{model}__tl_v{v + 2}"], "iceberg": [f"{model}__tl_v{v + 1}"]}
    run(project, model, "2025-01-03 10:00", "--full-refresh")   # v+3: v+1 is dropped from the Iceberg catalog
    assert version_tables(project, model) == {"spark_catalog": [f"{model}__tl_v{v + 2}", f"{model}__tl_v{v + 3}"], "iceberg": []}
    assert properties(project, model)["tideline.previous_format"] == "parquet"


@pytest.mark.formats("parquet", "delta", "iceberg")
@pytest.mark.make_test_formats("delta")
def test_full_mutation_rebuilds_only_after_a_tick(project, deps):
    project.write_source("accounts", "account_id int, balance int", [(1, 100), (2, 200)], replace=True)
    run(project, "accounts_full_mutation", "2025-01-01 12:00")            # first build
    project.write_source("accounts", "account_id int, balance int", [(1, 150), (3, 300)], replace=True)
    skipped = run(project, "accounts_full_mutation", "2025-01-01 12:59")  # update_cron '0 13 * * *'
    assert "tideline accounts_full_mutation (full_mutation): skipped, nothing to do: last refreshed 2025-01-01 12:00:00, " \
           "next tick of '0 13 * * *' at 2025-01-01 13:00" in skipped.tideline_lines
    project.assert_table_equals("accounts_full_mutation", [{"account_id": 1, "balance": 100}, {"account_id": 2, "balance": 200}])
    run(project, "accounts_full_mutation", "2025-01-01 13:00")            # the tick: rebuilt
    new = [{"account_id": 1, "balance": 150}, {"account_id": 3, "balance": 300}]
    project.assert_table_equals("accounts_full_mutation", new)
    assert properties(project, "accounts_full_mutation")["tideline.refreshed_at"] == "2025-01-01 13:00:00"
    project.write_source("accounts", "account_id int, balance int", [(4, 400)])
    run(project, "accounts_full_mutation", "2025-01-02 12:30")            # no tick since 13:00 yesterday
    project.assert_table_equals("accounts_full_mutation", new)
    run(project, "accounts_full_mutation", "2025-01-02 13:05")
    project.assert_table_equals("accounts_full_mutation", new + [{"account_id": 4, "balance": 400}])
    version_table = [r[1] for r in project.rows(f"describe table extended {project.relation('accounts_full_mutation')}")
                     if r[0] == "View Text"][0].split()[-1]
    project.assert_formats([version_table])


def test_a_full_mutation_rebuild_is_atomic_for_readers(project, deps):
    project.write_source("accounts", "account_id int, balance int", [(i, i) for i in range(1, 6)], replace=True)
    run(project, "accounts_full_mutation", "2025-02-01 13:00", "--full-refresh")
    project.write_source("accounts", "account_id int, balance int", [(i, i) for i in range(1, 11)], replace=True)
    # A crash between building the new version and the swap: readers keep the old rows.
    crashed = run(project, "accounts_full_mutation", "2025-02-02 13:00", expect_success=False,
                  tideline__fail_at="accounts_full_mutation:built")
    assert "injected failure after accounts_full_mutation:built" in "\n".join(crashed.messages)
    assert project.rows(f"select count(*) from {project.relation('accounts_full_mutation')}") == [(5,)]
    # Each rebuild held just before its swap and just after it (the run waits while the reads
    # run, in dbt's thread): readers see the old rows, then the new, and the view is found at
    # both moments; between the two moments the run sends exactly one statement, the `alter
    # view` (one metastore update: no moment without a view, as a drop and a create would leave).
    view = project.relation("accounts_full_mutation")

    def look() -> dict:
        return {"rows": project.rows(f"select count(*) from {view}")[0][0],
                "found": bool(project.rows(f"describe table {view}"))}

    for extra, count in [([], 10), (["--full-refresh"], 5)]:   # the tick: 5 rows -> 10; a rebuild: 10 -> 5
        project.write_source("accounts", "account_id int, balance int", [(i, i) for i in range(1, count + 1)], replace=True)
        old = project.rows(f"select count(*) from {view}")[0][0]
        trace: list[str] = []
        on_event, seen = pause_at({"accounts_full_mutation:built": look, "accounts_full_mutation:swapped": look}, trace)
        run(project, "accounts_full_mutation", "2025-02-02 13:00", *extra, on_event=on_event)
        assert seen == {"accounts_full_mutation:built": {"rows": old, "found": True},
                        "accounts_full_mutation:swapped": {"rows": count, "found": True}}, seen
        between = trace[trace.index("checkpoint accounts_full_mutation:built") + 1:trace.index("checkpoint accounts_full_mutation:swapped")]
        assert len(between) == 1 and between[0].startswith(f"alter view {view} as select * from "), between
        assert project.rows(f"select count(*) from {view}") == [(count,)]


BOOKINGS = "booking_id int, ds date"


def partial_landing(project, settle: int) -> list[int]:
    """The seed's steps: bookings 1-3 land, prime, bookings 4-5 land, prime."""
    project.runner.execute(f"drop table if exists {project.source_schema}.fct_bookings")
    project.write_source("fct_bookings", BOOKINGS)
    project.runner.execute(f"""insert into {project.source_schema}.fct_bookings values
        (1, date'2020-01-01'), (2, date'2020-01-01'), (3, date'2020-01-02')""")
    run(project, "bookings_ds_append_only", "2020-01-02 01:00", "--full-refresh", mutability__settle=settle)
    project.runner.execute(f"""insert into {project.source_schema}.fct_bookings values
        (4, date'2020-01-02'), (5, date'2020-01-03')""")
    skipped = run(project, "bookings_ds_append_only", "2020-01-02 23:59", mutability__settle=settle)
    assert any("skipped, nothing to do" in line for line in skipped.tideline_lines)   # update_cron '0 0 * * *'
    primed = run(project, "bookings_ds_append_only", "2020-01-03 00:00", mutability__settle=settle)
    op = ">=" if settle else ">"
    assert any(f"appended {3 if settle else 1} rows with ds {op} 2020-01-02 and <= 9999-12-31" in line
               for line in primed.tideline_lines), primed.tideline_lines
    return sorted(r[0] for r in project.rows(f"select booking_id from {project.fresh('bookings_ds_append_only')}"))


@pytest.mark.both_targets
@pytest.mark.formats("parquet", "delta", "iceberg")
def test_the_seeds_partial_landing_hazard_and_settle(project, deps):
    assert partial_landing(project, settle=0) == [1, 2, 3, 5]       # booking 4 is never seen, as the seed warns
    assert partial_landing(project, settle=1) == [1, 2, 3, 4, 5]    # settle: 1 re-reads 2020-01-02


# Random landings of bookings in batches, one run after each: the table follows the rule
# (reference_mutability.append_only_run)
# after every run, and whenever no booking landed below what settle re-reads, it equals a prime
# over everything (incremental equals rebuild). No shrinking: each step is a dbt run.
@end_to_end_property(make_test=5)
@example(settle=0, batches=[[0, 0, 1], [1, 2]])     # the seed's partial landing: booking 4 is lost
@example(settle=1, batches=[[0, 0, 1], [1, 2]])     # settle: 1 re-reads the newest day and keeps it
@example(settle=2, batches=[[0, 1, 2], [1, 3], [3]])  # settle: 2 re-reads the two newest days
@given(settle=st.integers(0, 2), batches=st.lists(st.lists(st.integers(0, 4), min_size=1, max_size=4), min_size=2, max_size=4))
def test_append_only_runs_follow_the_rule_and_equal_a_prime_when_settle_covers_the_landings(project, deps, settle, batches):
    project.runner.execute(f"drop table if exists {project.source_schema}.fct_bookings")
    project.write_source("fct_bookings", BOOKINGS)
    landed: list[tuple] = []
    stored: list[tuple] = []
    covered = True
    for step, batch in enumerate(batches):
        rows = [(len(landed) + i + 1, dt.date(2020, 1, 1) + dt.timedelta(days=d)) for i, d in enumerate(batch)]
        landed += rows
        project.runner.execute(f"insert into {project.source_schema}.fct_bookings values "
                               + ", ".join(f"({b}, date'{ds}')" for b, ds in rows))
        now = f"2020-02-{step + 1:02d} 00:00"
        if step == 0:
            run(project, "bookings_ds_append_only", now, "--full-refresh", mutability__settle=settle)
            stored = list(landed)
        else:
            run(project, "bookings_ds_append_only", now, mutability__settle=settle)
            stored, complete = append_only_run(stored, landed, settle)
            covered = covered and complete
        got = sorted(project.rows(f"select booking_id, ds from {project.fresh('bookings_ds_append_only')}"))
        assert got == sorted(stored), f"settle {settle}, batches {batches}, after run {step}"
    if covered:
        run(project, "bookings_ds_append_only", now, "--full-refresh", mutability__settle=settle)
        rebuilt = sorted(project.rows(f"select booking_id, ds from {project.fresh('bookings_ds_append_only')}"))
        assert got == rebuilt == sorted(landed), f"settle {settle}, batches {batches}: incremental vs a prime"


def test_append_only_reads_only_new_values_also_when_the_sql_ignores_the_bounds(project, deps):
    project.write_source("readings", "reading_id int, sensor string, reading_value double",
           [(1, "a", 1.0), (2, "a", 2.0), (3, "b", 3.0)], replace=True)
    run(project, "readings_append_only", "2025-03-01 10:00", "--full-refresh")
    # New readings arrive, and reading 2 is written again with another value: earlier values are
    # never rescanned, so the correction is not seen.
    project.write_source("readings", "reading_id int, sensor string, reading_value double",
           [(4, "b", 4.0), (5, "a", 5.0), (2, "a", 20.0)])
    skipped = run(project, "readings_append_only", "2025-03-01 10:15")   # update_cron '*/30 * * * *'
    assert any("next tick of '*/30 * * * *' at 2025-03-01 10:30" in line for line in skipped.tideline_lines)
    appended = run(project, "readings_append_only", "2025-03-01 10:30")
    assert any("appended 2 rows with reading_id > 3 and <= 1000000000" in line for line in appended.tideline_lines)
    project.assert_table_equals("readings_append_only", [
        {"reading_id": i, "sensor": s, "reading_value": v}
        for i, s, v in [(1, "a", 1.0), (2, "a", 2.0), (3, "b", 3.0), (4, "b", 4.0), (5, "a", 5.0)]])
    assert properties(project, "readings_append_only")["tideline.along_max"] == "5"
    # A rerun of the same tick (as after a crash between the write and the properties) doubles nothing.
    run(project, "readings_append_only", "2025-03-01 11:00", tideline__fail_at="readings_append_only:appended",
        expect_success=False)
    run(project, "readings_append_only", "2025-03-01 11:00")
    assert project.rows(f"select count(*), count(distinct reading_id) from {project.fresh('readings_append_only')}") == [(5, 5)]
    # A --full-refresh re-primes into a new version: a crash before the swap leaves the old rows
    # and properties; the rerun swaps in the re-read rows (the correction of reading 2 too).
    before = properties(project, "readings_append_only")
    crashed = run(project, "readings_append_only", "2025-03-01 11:10", "--full-refresh", expect_success=False,
                  tideline__fail_at="readings_append_only:built")
    assert "injected failure after readings_append_only:built" in "\n".join(crashed.messages)
    assert project.rows(f"select sum(reading_value) from {project.fresh('readings_append_only')}") == [(15.0,)]
    assert properties(project, "readings_append_only") == before
    run(project, "readings_append_only", "2025-03-01 11:10", "--full-refresh")
    assert project.rows(f"select count(*), sum(reading_value) from {project.fresh('readings_append_only')}") == [(6, 35.0)]
    assert properties(project, "readings_append_only")["tideline.refreshed_at"] == "2025-03-01 11:10:00"


# ---- a crash after any statement of every kind ------------------------------------------------

KINDS = ["catalog_immutable", "accounts_full_mutation", "readings_append_only", "bookings_ds_append_only"]
READINGS = "reading_id int, sensor string, reading_value double"


@pytest.mark.formats("parquet", "delta", "iceberg")
@pytest.mark.make_test_formats("delta")
def test_a_crash_after_any_statement_then_a_rerun_equals_an_uninterrupted_run(project, deps, crash_report):
    """Every kind at once: a prime (--full-refresh), a run at a tick of every cron (a rebuild,
    an append, a ds append that re-reads nothing below its bound, an immutable that stays), then
    a --full-refresh over changed sources; each repeated until it finishes, each attempt dying
    after the first statement that changes storage no earlier attempt died after
    (harness.CrashPoints). After each crash every model reads as before the run or as after it;
    after each run every model holds what its rule gives."""
    project.reset_models()   # from an empty schema: a first build's statements are crash points too
    points = CrashPoints(project)
    accounts = [(1, 100), (2, 200)]
    readings = [(1, "a", 1.0), (2, "a", 2.0)]
    bookings = [(1, dt.date(2020, 1, 1)), (2, dt.date(2020, 1, 2))]
    catalog = [("x", "first")]
    columns = {"catalog_immutable": "code, label", "accounts_full_mutation": "account_id, balance",
               "readings_append_only": "reading_id, sensor, reading_value", "bookings_ds_append_only": "booking_id, ds"}

    def tables() -> dict[str, list[tuple]]:
        return {m: sorted(project.rows(f"select {columns[m]} from {project.fresh(m)}")) for m in KINDS if project.exists(m)}

    project.write_source("accounts", "account_id int, balance int", accounts, replace=True)
    project.write_source("readings", READINGS, readings, replace=True)
    project.write_source("fct_bookings", BOOKINGS, bookings, replace=True)
    project.write_source("catalog", "code string, label string", catalog, replace=True)
    schedule = [
        ("2025-01-01 13:00", ("--full-refresh",), {}),
        # a tick of every cron; booking 3 lands below the newest stored ds (settle 0: never read)
        ("2025-01-02 13:00", (), {"accounts": [(1, 150), (3, 300)], "readings": [(3, "b", 3.0), (4, "a", 4.0)],
                                  "fct_bookings": [(3, dt.date(2020, 1, 2)), (4, dt.date(2020, 1, 3))],
                                  "catalog": [("x", "second")]}),
        ("2025-01-03 13:00", ("--full-refresh",), {"readings": [(5, "b", 5.0)]}),
    ]
    expected = [
        {"catalog_immutable": [("x", "first")], "accounts_full_mutation": accounts, "readings_append_only": readings,
         "bookings_ds_append_only": bookings},
        {"catalog_immutable": [("x", "first")], "accounts_full_mutation": [(1, 150), (3, 300)],
         "readings_append_only": readings + [(3, "b", 3.0), (4, "a", 4.0)],
         "bookings_ds_append_only": bookings + [(4, dt.date(2020, 1, 3))]},
        {"catalog_immutable": [("x", "second")], "accounts_full_mutation": [(1, 150), (3, 300)],
         "readings_append_only": readings + [(3, "b", 3.0), (4, "a", 4.0), (5, "b", 5.0)],
         "bookings_ds_append_only": bookings + [(3, dt.date(2020, 1, 2)), (4, dt.date(2020, 1, 3))]},
    ]
    for (now, extra, loads), after in zip(schedule, expected):
        for source, new in loads.items():
            if source == "accounts" or source == "catalog":
                project.write_source(source, {"accounts": "account_id int, balance int", "catalog": "code string, label string"}[source],
                                     new, replace=True)
            else:
                project.runner.execute(f"insert into {project.source_schema}.{source} values "
                                       + ", ".join("(" + ", ".join(sql_literal(v) for v in row) + ")" for row in new))
        points.until_done(lambda on_event: run(project, " ".join(KINDS), now, *extra, expect_success=False, on_event=on_event),
                          f"run at {now} {' '.join(extra)}", after_crash=CrashPoints.before_or_after(tables, tables(), after))
        assert tables() == {m: sorted(rows) for m, rows in after.items()}, now
    assert points.nodes() >= set(KINDS), points.nodes()
    crash_report(points.report(f"mutability, every kind ({project.file_format})"))


@pytest.fixture(scope="class")
def readings_with_new_rows(project, deps):
    """readings_append_only built from one reading, then two new source rows: the refused runs
    must not read them into anything. Built once for the whole matrix: each case checks that its
    refusal changed nothing, so every case starts from the same tables."""
    project.write_source("readings", "reading_id int, sensor string, reading_value double", [(1, "a", 1.0)], replace=True)
    run(project, "readings_append_only", "2025-04-01 00:00", "--full-refresh")
    before = rows(project, "readings_append_only", ["reading_id", "sensor", "reading_value"])
    project.write_source("readings", "reading_id int, sensor string, reading_value double", [(2, "b", 2.0), (3, "b", 3.0)])
    return before


class TestBadSettings:
    """The mutability refusal matrix, over one build (fixture readings_with_new_rows)."""

    @pytest.mark.parametrize("model, settings, message", [
        ("bad_type", {}, 'tideline: model bad_type: mutability type "sometimes_mutable" is unknown; accepted: immutable, '
                         'full_mutation, append_only, ds_append_only'),
        ("bad_config_name", {}, "tideline: model bad_config_name: config update_crn is not a config of materialized='append_only' "
                                "(did you mean update_cron?); its configs: along, compact_every, file_format, max, max_along_values, "
                                "min, mutability, settle, update_cron"),
        ("bad_type_params", {}, "tideline: model bad_type_params: config mutability.type_params.alng = reading_id is invalid; "
                                "accepted: a key of mutability.type_params: along, max, max_along_values, min, settle, update_cron "
                                "(did you mean along?)"),
        ("readings_append_only", {"mutability__along": ""}, "tideline: model readings_append_only: append_only needs `along`, the column new rows are found by; "
                                                  "got \"\"; accepted: a column name of the model's query, e.g. along='ds'"),
        ("readings_append_only", {"mutability__along": "sensor_id"},
         'tideline: model readings_append_only: along "sensor_id" is not a column of its query; it returns reading_id, sensor, reading_value'),
        ("readings_append_only", {"mutability__min": 2000000000},
         'tideline: model readings_append_only: min "2000000000" is after max "1000000000"; accepted: min <= max'),
        ("readings_append_only", {"mutability__max_along_values": 0},
         "tideline: model readings_append_only: max_along_values 0 is invalid; accepted: an integer >= 1 (how many values of "
         "along one run may write; each is a partition)"),
        ("readings_append_only", {"mutability__max_along_values": 1},
         'tideline: model readings_append_only: this run would write 2 values of along "reading_id", more than '
         'max_along_values 1; each value is a partition. Use a date-like along (ds), narrow [min, max] for the prime, or '
         'raise max_along_values. Nothing was written.'),
        ("readings_append_only", {"mutability__cron": "0 25 * * *"},
         "tideline: update_cron of model readings_append_only = \"0 25 * * *\" is not a valid cron expression: hour value '25' is not in 0-23; "
         "accepted: five fields 'minute hour day-of-month month day-of-week' of *, N, A-B, lists and /steps, e.g. '0 13 * * *'"),
    ])
    def test_bad_settings_are_refused_and_change_nothing(self, project, readings_with_new_rows, model, settings, message):
        # the new source rows are the snapshot's "before": the refused run must not read them into anything
        project.refused(message, lambda: run(project, model, "2025-04-02 00:00", expect_success=False, **settings))
        assert_rows_equal(rows(project, "readings_append_only", ["reading_id", "sensor", "reading_value"]), readings_with_new_rows)

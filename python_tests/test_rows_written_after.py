"""Fast tier: the per-format strategies that locate rows found behind a watermark
(macros/internal/written_after_strategies.sql): of a source table, the rows in a range written
after a moment. Each runs in this process's SparkSession against a real table of its format,
written in two inserts with the moment between them, and must give exactly the second insert's
rows in the range, also when the second insert repeats a row of the first (a duplicate is a row
of its own), and none after the newest write; on Delta and Iceberg (by the version the table had
then) also after the source's files were compacted since."""

from __future__ import annotations

import time

import pytest

from harness import ICEBERG_CATALOG, named_rows, rows_equal
from pure_macros import PureMacros

pytestmark = pytest.mark.fast

MACROS = PureMacros("internal/written_after_strategies.sql", "internal/written_after_versions.sql", "internal/times.sql",
                    "internal/literals.sql")
FIRST = [(1, "a", "2025-03-01 09:00:00"), (2, "b", "2025-03-01 09:05:00")]
SECOND = [(2, "b", "2025-03-01 09:05:00"), (3, "c", "2025-02-28 23:00:00"), (4, "d", "2025-02-01 00:00:00")]
IN_RANGE = "load_tstamp > timestamp'2025-02-28 09:10:00' and load_tstamp <= timestamp'2025-03-01 09:10:00'"
COMPACT = {"delta": "optimize {table}", "iceberg": "call {catalog}system.rewrite_data_files(table => '{name}', options => map('min-input-files', '1'))"}


@pytest.mark.parametrize("table_format, strategy", [("parquet", "default__rows_written_after_files"),
                                                    ("delta", "default__rows_written_after_delta"),
                                                    ("iceberg", "default__rows_written_after_iceberg")])
def test_the_rows_written_after_a_moment_are_exactly_the_later_inserts_in_range(runner, table_format, strategy):
    schema = f"t_written_after_{table_format}"
    catalog = f"{ICEBERG_CATALOG}." if table_format == "iceberg" else ""
    table = f"{catalog}{schema}.source"
    runner.execute(f"create schema if not exists {catalog}{schema}")
    runner.execute(f"drop table if exists {table}")
    runner.execute(f"create table {table} (id int, name string, load_tstamp timestamp) using {table_format}")

    def insert(rows) -> None:
        runner.execute(f"insert into {table} values " + ", ".join(f"({i}, '{n}', timestamp'{t}')" for i, n, t in rows))

    MACROS.query_rows = lambda sql: named_rows(runner, sql)   # the strategies read the table's history

    def written_after(moment: str) -> list[dict]:
        found = getattr(MACROS, strategy)(table, moment, IN_RANGE)
        assert found["why"] is None, found
        return named_rows(runner, found["sql"])

    def now() -> str:
        return runner.rows("select cast(current_timestamp() as string)")[0][0]

    insert(FIRST)
    time.sleep(1.1)                       # file times in milliseconds, versions by their commit time
    read_at = now()
    time.sleep(1.1)
    insert(SECOND)
    expected = [{"id": i, "name": n} for i, n, _ in SECOND[:2]]       # the third is out of the range
    assert rows_equal([{"id": r["id"], "name": r["name"]} for r in written_after(read_at)], expected)
    if table_format in COMPACT:           # a compaction rewrites every file: the versions still tell
        runner.execute(COMPACT[table_format].format(table=table, catalog=catalog, name=f"{schema}.source"))
        assert rows_equal([{"id": r["id"], "name": r["name"]} for r in written_after(read_at)], expected)
    time.sleep(1.1)
    assert written_after(now()) == []     # nothing written after now
    if table_format == "iceberg":         # before its first snapshot: its history does not reach back
        assert getattr(MACROS, strategy)(table, "2000-01-01 00:00:00", IN_RANGE) == {
            "sql": None, "why": f"{table}'s snapshots no longer reach back to 2000-01-01 00:00:00"}
    runner.execute(f"drop table {table}")


class _View:
    type = "view"

    def __str__(self) -> str:
        return "shop.recent_orders"


def test_a_view_is_not_located_and_says_why():
    """A view has no files or versions of its own: its rows are counted, not located, and the
    messages say why (no query is sent: a file-metadata read of a view is an error)."""
    found = PureMacros("internal/written_after_strategies.sql").rows_written_after(_View(), "2025-03-01 09:00:00", "true")
    assert found == {"sql": None, "why": "shop.recent_orders is a view"}

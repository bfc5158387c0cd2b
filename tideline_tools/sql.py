"""One small interface for running SQL on either target.

`LocalSpark` uses the in-process SparkSession (the very one dbt's `method: session` uses, since
both are built from the profile's settings and `getOrCreate` returns the existing session).
`ThriftSpark` talks to a Spark Thrift Server through PyHive, like dbt's `method: thrift`.
The generator and the test harness only speak SQL, so they run unchanged on both.
"""

from __future__ import annotations

from typing import Any, Protocol, Sequence

from .profile import target_config, target_name


class SqlRunner(Protocol):
    target: str

    def execute(self, sql: str) -> None: ...

    def rows(self, sql: str) -> list[tuple]: ...

    def columns(self, sql: str) -> list[str]: ...

    def columns_and_rows(self, sql: str) -> tuple[list[str], list[tuple]]: ...


class LocalSpark:
    target = "local"

    def __init__(self, server_side_parameters: dict[str, Any]):
        from pyspark.sql import SparkSession

        builder = SparkSession.builder.enableHiveSupport()
        for key, value in server_side_parameters.items():
            builder = builder.config(key, str(value))
        # dbt-spark forces this on every session it opens; do the same so both agree.
        builder = builder.config("spark.sql.ansi.enabled", "false")
        self.spark = builder.getOrCreate()
        self.spark.sparkContext.setLogLevel("ERROR")
        # Embedded Derby cannot filter a date partition column in the metastore: Hive logs that
        # at ERROR with a stack trace (DataNucleus), then Spark lists the partitions and prunes
        # them itself. It is not an error of the run; keep it out of the tools' output.
        jvm = self.spark.sparkContext._jvm
        jvm.org.apache.logging.log4j.core.config.Configurator.setLevel("DataNucleus", jvm.org.apache.logging.log4j.Level.FATAL)

    def execute(self, sql: str) -> None:
        self.spark.sql(sql).collect()

    def rows(self, sql: str) -> list[tuple]:
        return [tuple(r) for r in self.spark.sql(sql).collect()]

    def columns(self, sql: str) -> list[str]:
        return self.spark.sql(sql).columns

    def columns_and_rows(self, sql: str) -> tuple[list[str], list[tuple]]:
        """A query's column names and its rows, planned once."""
        frame = self.spark.sql(sql)
        return frame.columns, [tuple(r) for r in frame.collect()]


class ThriftSpark:
    target = "cluster"

    def __init__(self, host: str, port: int, user: str, configuration: dict[str, Any]):
        from pyhive import hive

        self.connection = hive.connect(
            host=host,
            port=int(port),
            username=user,
            configuration={k: str(v) for k, v in configuration.items()},
        )

    def _cursor(self, sql: str):
        cursor = self.connection.cursor()
        cursor.execute(sql)
        return cursor

    def execute(self, sql: str) -> None:
        self._cursor(sql).close()

    def rows(self, sql: str) -> list[tuple]:
        return self.columns_and_rows(sql)[1]

    def columns_and_rows(self, sql: str) -> tuple[list[str], list[tuple]]:
        """A query's column names and its rows, in one statement, with the same Python types the
        local runner returns (PyHive gives strings)."""
        cursor = self._cursor(sql)
        try:
            described = cursor.description or []
            parsers = [_THRIFT_PARSERS.get(d[1]) for d in described]
            rows = [
                tuple(p(v) if isinstance(v, str) and p is not None else v for v, p in zip(row, parsers))
                for row in cursor.fetchall()
            ]
            return [d[0].split(".")[-1] for d in described], rows
        finally:
            cursor.close()

    def columns(self, sql: str) -> list[str]:
        cursor = self._cursor(f"select * from ({sql}) as q limit 0")
        try:
            return [d[0].split(".")[-1] for d in cursor.description]
        finally:
            cursor.close()


def _timestamp(text: str):
    import datetime as dt

    return dt.datetime.fromisoformat(text)


def _date(text: str):
    import datetime as dt

    return dt.date.fromisoformat(text)


def _decimal(text):
    import decimal

    return decimal.Decimal(str(text))


def _json(text):
    import json

    return json.loads(text)


# The Thrift server sends these types as text; arrays, maps and structs as JSON.
_THRIFT_PARSERS = {"TIMESTAMP_TYPE": _timestamp, "DATE_TYPE": _date, "DECIMAL_TYPE": _decimal,
                   "ARRAY_TYPE": _json, "MAP_TYPE": _json, "STRUCT_TYPE": _json}


def connect(target: str | None = None) -> SqlRunner:
    """A SQL runner for a profile target (default: TIDELINE_TARGET, else `local`)."""
    if target_name(target) == "local":
        from .localenv import use_data_dir

        use_data_dir()   # the data folder (its lock held for the life of this process)
    config = target_config(target)
    if config["method"] == "session":
        return LocalSpark(config.get("server_side_parameters", {}))
    return ThriftSpark(
        config["host"], config["port"], config.get("user", "tideline"), config.get("server_side_parameters", {})
    )


def quote(value: Any) -> str:
    """A SQL literal for a Python value (strings, numbers, None, dates and datetimes)."""
    import datetime as dt

    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, dt.datetime):
        return f"timestamp'{value.strftime('%Y-%m-%d %H:%M:%S.%f')}'"
    if isinstance(value, dt.date):
        return f"date'{value.isoformat()}'"
    text = str(value).replace("\\", "\\\\").replace("'", "\\'")
    return f"'{text}'"


def values_list(rows: Sequence[Sequence[Any]]) -> str:
    return ", ".join("(" + ", ".join(quote(v) for v in row) + ")" for row in rows)

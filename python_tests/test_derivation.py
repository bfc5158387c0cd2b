"""Derivations (seed 001, Estuary Flow) over several runs, from a project that installs tideline
as a package (python_tests/derivation_project): the seed's examples as written in it, each
compared whole-table after every run with an independent Python reference that processes the
documents one by one in commit order, as the seed describes Flow's runtime."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from harness import Project, assert_rows_equal
from reference_derivation import Derivation, Transform

DERIVATION = Path(__file__).parent / "derivation_project"
T0 = dt.datetime(2025, 3, 1, 9, 0)


@pytest.fixture(scope="module")
def deps(runner):
    Project(runner, "derivation_deps").dbt("deps", project_dir=DERIVATION)


def run(project, model: str, now: dt.datetime, *extra: str, expect_success: bool = True, **vars):
    return project.dbt("run", "--select", model, *extra, project_dir=DERIVATION, expect_success=expect_success,
                       vars={"derivation__source": project.source_schema, "tideline__now": now.strftime("%Y-%m-%d %H:%M:%S"),
                             **vars})


TRANSFERS = "id bigint, sender string, recipient string, amount double, load_tstamp timestamp"


def load(project, table: str, columns: str, rows: list[dict], replace: bool = False) -> None:
    name = f"{project.source_schema}.{table}"
    project.runner.execute(f"create schema if not exists {project.source_schema}")
    if replace:
        project.runner.execute(f"drop table if exists {name}")
    project.runner.execute(f"create table if not exists {name} ({columns}) using parquet")
    if rows:
        names = [c.split()[0] for c in columns.split(", ")]
        values = ", ".join("(" + ", ".join(_sql(r[n]) for n in names) + ")" for r in rows)
        project.runner.execute(f"insert into {name} values {values}")


def _sql(value) -> str:
    if value is None:
        return "null"
    if isinstance(value, dt.datetime):
        return f"timestamp'{value:%Y-%m-%d %H:%M:%S}'"
    if isinstance(value, str):
        return "'" + value.replace("'", "\\'") + "'"
    return repr(value)


def transfer(id_: int, sender: str, recipient: str, amount: float, minutes: int) -> dict:
    return {"id": id_, "sender": sender, "recipient": recipient, "amount": float(amount),
            "load_tstamp": T0 + dt.timedelta(minutes=minutes)}


def flagged_reference() -> Derivation:
    return Derivation(
        unique_key=("id",),
        registers={"balance": (0.0, "sum")},
        transforms=[
            Transform("fromTransferRecipient", "transfers", key=lambda r: (r["recipient"],), order="id",
                      update=lambda r: {"balance": r["amount"]}),
            Transform("fromTransferSender", "transfers", key=lambda r: (r["sender"],), order="id",
                      update=lambda r: {"balance": -r["amount"]},
                      publish=lambda r, reg, prev: [{"id": r["id"], "sender": r["sender"], "recipient": r["recipient"],
                                                     "amount": r["amount"], "balance": reg["balance"],
                                                     "overdrawn": reg["balance"] < 0}]),
        ],
    )


def test_flagged_transfers_alice_50_then_75(project, deps):
    """The seed's sequence: alice receives 50, then sends 75: balance -25, overdrawn."""
    load(project, "transfers", TRANSFERS, [transfer(1, "bob", "alice", 50, 0)], replace=True)
    run(project, "flagged_transfers", T0 + dt.timedelta(hours=1))
    load(project, "transfers", TRANSFERS, [transfer(2, "alice", "carol", 75, 90)])
    run(project, "flagged_transfers", T0 + dt.timedelta(hours=2))
    got = project.table("flagged_transfers", ["id", "sender", "recipient", "amount", "balance", "overdrawn"])
    assert_rows_equal(got, [
        {"id": 1, "sender": "bob", "recipient": "alice", "amount": 50.0, "balance": -50.0, "overdrawn": True},
        {"id": 2, "sender": "alice", "recipient": "carol", "amount": 75.0, "balance": -25.0, "overdrawn": True},
    ])

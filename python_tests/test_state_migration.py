"""tl_state of an earlier version, migrated on the first run of this one (issue 32, "honest state").

Version 2 (up to commit V2) kept a daily aggregate's first load time of a date (where the
recompute of the date starts reading the source) in its date rows' lower_limit; version 3 gives
it first_load. The second test runs the aggregate over source_events() on V2, then on this
checkout, against the Python reference after every run.

Version 3 (up to commit V3) kept no definition of a derivation or a continual task; version 4
records it in their run rows. The third test builds a derivation on V3, then runs it on this
checkout: the first run adds the column and records the definition, which a later edit of the
model is then refused against.

State version 1 (tideline up to commit V1) kept a channel's mutable_time in upper_limit, the
newest real-time arrival it read in lower_limit and its missing deletes in rows_rejected; version
2 gives them columns of their own. Here the channel example runs twice with tideline as it was at
V1 (the package taken from this repository's history with `git archive`), writing a real state of
version 1; then the same project runs on with this checkout: the first run adds the columns,
records the version, moves the channel's rows, and every epoch after every run still equals the
reference, a move of mutable_time included. On each table format.
"""

from __future__ import annotations

import datetime as dt
import subprocess

import pytest

from harness import FROM_SOURCE, Project, assert_rows_equal, project_copy
from reference import Pipeline, source_rows
from reference_channel import Channel
from test_derivation import BATCHES, DERIVATION, T0, TRANSFERS, derived_table, flagged_reference
from test_channel import CHANNELS, COLUMNS, AT, M0, assert_epochs, change, empty_sources, item, load, t
from test_source_events import RUN_TIMES as SOURCE_RUN_TIMES, SETTINGS as SOURCE_SETTINGS, VARS as SOURCE_VARS, \
    WORLD as SOURCE_WORLD, assert_as_the_reference
from tideline_tools.profile import PROJECT_DIR

pytestmark = [pytest.mark.formats("parquet", "delta", "iceberg"), pytest.mark.extended]

V1 = "962fabf02e052674ed245872edae80c019500c44"   # the last commit of state version 1
V2 = "ada7558f41107c54a531f21595cfee42495cfcf7"   # the last commit of state version 2
V3 = "3c83c00e80f1328b1c7eb08f145bfbbc737d40fb"   # the last commit of state version 3
VERSION = "5"                                      # this checkout's (state_version())


def tideline_at(commit: str, to) -> None:
    """tideline as it was at `commit` (its dbt project: models, macros, generic tests) in `to`."""
    to.mkdir()
    taken = subprocess.run(["git", "-C", str(PROJECT_DIR), "archive", commit, "dbt_project.yml", "macros", "models", "tests"],
                           capture_output=True)
    if taken.returncode:
        pytest.fail(f"this test runs tideline as it was at commit {commit}, from the repository's history, which this "
                    f"clone lacks (a shallow clone? `git fetch --unshallow`): {taken.stderr.decode().strip()}")
    subprocess.run(["tar", "-x", "-C", str(to)], input=taken.stdout, check=True)


def install(project: Project, channels, package) -> None:
    (channels / "packages.yml").write_text(f"packages:\n  - local: {package}\n")
    project.dbt("deps", project_dir=channels)


def test_a_version_1_state_is_migrated_by_the_first_run_and_the_channel_goes_on(runner, file_format, tmp_path):
    project = Project(runner, f"state_migration_{file_format}", file_format=file_format)
    project.reset()
    old = tmp_path / "tideline_v1"
    tideline_at(V1, old)
    channels = project_copy(CHANNELS, tmp_path / "channels", {})
    ref = Channel(M0, checks={"value_not_negative": lambda v: v["value"] >= 0, "label_present": lambda v: v["label"] is not None})
    realtime: list[dict] = []
    changes: list[tuple[int, dict]] = []

    def step(now, rt=(), a=(), b=(), move_to=None, select="readings readings_copy"):
        rt = [{**r, "load_tstamp": now - dt.timedelta(minutes=30)} for r in rt]
        realtime.extend(rt)
        changes.extend(load(project, list(rt), list(a), list(b)))
        ref.run(now, realtime, changes, move_to)
        project.dbt("run", "--select", *select.split(), project_dir=channels,
                    vars={"channels__source": project.source_schema, "tideline__now": now.strftime("%Y-%m-%d %H:%M:%S"),
                          "channels__mutable_time": (move_to or ref.mutable_time).strftime("%Y-%m-%d %H:%M:%S")})
        assert_epochs(project, ref, f"after the run at {now}")
        assert_rows_equal(project.table("readings_copy", COLUMNS), ref.epoch("IMMUTABLE"), label=f"readings_copy at {now}")

    try:
        empty_sources(project)
        install(project, channels, old)
        step(t(29, 6), rt=[item(t(29, 1), "r1", 10), item(t(29, 2), "r2", 20)],
             a=[change("insert", t(27, 10), "a1", t(28, 1), 1), change("insert", t(28, 9), "a2", t(28, 2), 2)],
             b=[change("insert", t(28, 9), "b1", t(28, 3), 3), change("insert", M0, "b0", t(28, 4), 4)], select="readings+")
        step(t(29, 12), rt=[item(t(29, 7), "r3", 30)],
             a=[change("insert", t(27, 10), "a1", t(29, 9), 11)],
             b=[change("delete", t(28, 9), "missing", t(29, 7))])
        state = project.fresh("tl_state")
        v1 = project.rows(f"select count(*), max(upper_limit), sum(rows_rejected) from {state} where model = 'readings' and kind = 'run'")
        assert v1 == [(2, M0, 1)], f"version 1 keeps mutable_time in upper_limit: {v1}"

        # the upgrade: the epoch views, whose SQL reads the channel's state, are built again with
        # the channel (CHANGELOG: `dbt run --select <channel>+` once after upgrading)
        install(project, channels, PROJECT_DIR)
        step(t(29, 14), rt=[item(t(29, 13), "r4", 40)], a=[change("insert", t(28, 20), "a4", t(29, 13), 7)], select="readings+")
        moved = project.rows(f"""select count(*), count(upper_limit), count(lower_limit), count(rows_rejected),
            count_if(mutable_time = timestamp'{M0}'), count(realtime_after), sum(missing_deletes)
            from {state} where model = 'readings' and kind = 'run'""")
        assert moved == [(3, 0, 0, 0, 3, 3, 1)], f"each run row's facts in the channel's own columns: {moved}"
        properties = {r[0]: r[1] for r in project.rows(f"show tblproperties {state}")}
        assert properties.get("tideline.state_version") == VERSION, properties
        step(t(29, 16), move_to=AT)
        assert project.rows(f"select max_by(mutable_time, batch) from {state} where model = 'readings' and kind = 'run'") == [(AT,)]
    finally:
        project.reset()


def test_a_version_2_state_of_a_daily_aggregate_over_the_source_is_migrated_and_it_goes_on(runner, file_format, tmp_path):
    """Three runs on V2 (late rows skipped and held, so the dates' first loads matter later),
    then this version: its first run adds first_load (and later columns), records this version, moves the aggregate's
    date rows (lower_limit to first_load) and goes on; every run equals the reference."""
    project = Project(runner, f"state_v2_{file_format}", file_format=file_format)
    project.reset()
    old = tmp_path / "tideline_v2"
    tideline_at(V2, old)
    reference = Pipeline(SOURCE_SETTINGS)
    try:
        for index, now in enumerate(SOURCE_RUN_TIMES):
            project.load(SOURCE_WORLD, until=now, cadence_seconds=3600)
            project.dbt("run", "--select", FROM_SOURCE, vars={**SOURCE_VARS, "tideline__now": str(now)},
                        project_dir=old if index < 3 else None)
            state = project.fresh("tl_state")   # (in the Iceberg catalog on iceberg)
            reference.run(source_rows(project), now)
            assert_as_the_reference(project, reference, f"run at {now} ({'version 2' if index < 3 else 'this version'})")
            if index == 2:
                kept = project.rows(f"select count(*), count(lower_limit) from {state} where model = '{FROM_SOURCE}' and kind = 'date'")
                assert kept[0][0] > 0 and kept[0][1] > 0, f"version 2 keeps first loads in lower_limit: {kept}"
            if index == 3:
                rows, in_lower, in_first = project.rows(f"""select count(*), count(lower_limit), count(first_load)
                    from {state} where model = '{FROM_SOURCE}' and kind = 'date'""")[0]
                assert rows > 0 and in_lower == 0 and in_first > 0, f"the date rows' first loads moved: {(rows, in_lower, in_first)}"
                properties = {r[0]: r[1] for r in project.rows(f"show tblproperties {state}")}
                assert properties.get("tideline.state_version") == VERSION, properties
        runs = project.rows(f"select count(*), count(lower_limit) from {state} where model = '{FROM_SOURCE}' and kind = 'run'")
        assert runs[0][0] == len(SOURCE_RUN_TIMES) and runs[0][1] == len(SOURCE_RUN_TIMES) - 1, \
            f"run rows keep their windows in lower_limit (all but the first build's): {runs}"
    finally:
        project.reset()


def test_a_version_3_state_of_a_derivation_is_migrated_and_its_definition_recorded(runner, file_format, tmp_path):
    """flagged_transfers built on V3 (no definition kept), then run on this checkout: the first
    run adds the column, records the definition and equals the reference; an edit of the model
    after that is refused, naming the transform, with nothing written."""
    project = Project(runner, f"state_v3_{file_format}", file_format=file_format)
    project.reset()
    old = tmp_path / "tideline_v3"
    tideline_at(V3, old)
    derivations = project_copy(DERIVATION, tmp_path / "derivations", {})
    reference = flagged_reference()

    def run_at(hours: int, expect_success: bool = True):
        return project.dbt("run", "--select", "flagged_transfers", project_dir=derivations, expect_success=expect_success,
                           vars={"derivation__source": project.source_schema, "tideline__now": str(T0 + dt.timedelta(hours=hours))})

    try:
        install(project, derivations, old)
        project.write_source("transfers", TRANSFERS, BATCHES[0], replace=True)
        run_at(1)
        install(project, derivations, PROJECT_DIR)
        project.write_source("transfers", TRANSFERS, BATCHES[1])
        run_at(3)
        reference.run({"transfers": BATCHES[0] + BATCHES[1]}, T0 + dt.timedelta(hours=3))
        assert_rows_equal(derived_table(project, "flagged_transfers", reference), reference.rows(), label="after the upgrade")
        state = project.fresh("tl_state")
        kept = project.rows(f"select count(*), count(definition) from {state} where model = 'flagged_transfers' and kind = 'run'")
        assert kept == [(2, 1)], f"the run on V3 kept no definition, the run after the upgrade its own: {kept}"
        properties = {r[0]: r[1] for r in project.rows(f"show tblproperties {state}")}
        assert properties.get("tideline.state_version") == VERSION, properties
        model = derivations / "models" / "flagged_transfers.sql"
        model.write_text(model.read_text().replace("update={'balance': '-amount'}", "update={'balance': '-2 * amount'}"))
        project.refused("tideline: derivation flagged_transfers: its definition changed since its rows were built: "
                        "transform fromTransferSender (changed)", lambda: run_at(4, expect_success=False))
    finally:
        project.reset()

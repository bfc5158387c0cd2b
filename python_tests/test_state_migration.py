"""tl_state of an earlier version, migrated on the first run of this one (issue 32, "honest state").

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

from harness import Project, assert_rows_equal, project_copy
from reference_channel import Channel
from test_channel import CHANNELS, COLUMNS, AT, M0, assert_epochs, change, empty_sources, item, load, t
from tideline_tools.profile import PROJECT_DIR

pytestmark = pytest.mark.formats("parquet", "delta", "iceberg")

V1 = "962fabf02e052674ed245872edae80c019500c44"   # the last commit of state version 1


def install(project: Project, channels, package) -> None:
    (channels / "packages.yml").write_text(f"packages:\n  - local: {package}\n")
    project.dbt("deps", project_dir=channels)


def test_a_version_1_state_is_migrated_by_the_first_run_and_the_channel_goes_on(runner, file_format, tmp_path):
    project = Project(runner, f"state_migration_{file_format}", file_format=file_format)
    project.reset()
    old = tmp_path / "tideline_v1"
    old.mkdir()
    taken = subprocess.run(["git", "-C", str(PROJECT_DIR), "archive", V1, "dbt_project.yml", "macros", "models"],
                           capture_output=True)
    if taken.returncode:
        pytest.fail(f"this test runs tideline as it was at commit {V1}, from the repository's history, which this "
                    f"clone lacks (a shallow clone? `git fetch --unshallow`): {taken.stderr.decode().strip()}")
    archive = taken.stdout
    subprocess.run(["tar", "-x", "-C", str(old)], input=archive, check=True)
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
        assert properties.get("tideline.state_version") == "2", properties
        step(t(29, 16), move_to=AT)
        assert project.rows(f"select max_by(mutable_time, batch) from {state} where model = 'readings' and kind = 'run'") == [(AT,)]
    finally:
        project.reset()

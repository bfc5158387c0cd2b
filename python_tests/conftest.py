"""Fixtures shared by the whole suite.

One SQL runner per test run: on `local` (default) the in-process SparkSession that dbt's
`method: session` also uses, with a data folder of its own under pytest's temp folder; on
`cluster` (TIDELINE_TARGET=cluster, see `make test-cluster`) a PyHive connection to the
Thrift server. Each test module gets a `Project`: its own schemas, dropped when it ends.
Tests that must also pass on the cluster carry the marker `both_targets`.
"""

from __future__ import annotations

import os
import re

import pytest

from harness import Project

TARGET = os.environ.get("TIDELINE_TARGET", "local")
# The suite's tables hold a few hundred rows: whole-stage code generation (a Java compile per
# new plan) costs more than it saves there (profiles/profiles.yml). Only speed changes; every
# subprocess the tests start (dbt, the demo, the kill tests) inherits it.
os.environ.setdefault("TIDELINE_WHOLE_STAGE_CODEGEN", "false")


FORMAT_IN_ID = re.compile(r"[\[-](parquet|delta|iceberg)[\]-]")


def pytest_xdist_make_scheduler(config, log):
    """Two pytest processes (make test-local): a module's tests stay in one process, as with
    `--dist loadscope` (its module-scoped schemas are built once), except that each table format
    of a module marked `formats` is a unit of its own (its schemas are its own anyway), so the
    long multi-format modules spread over both processes."""
    from xdist.scheduler import LoadScopeScheduling

    class ModuleAndFormatScheduling(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            module = nodeid.split("::", 1)[0]
            found = FORMAT_IN_ID.search(nodeid)
            return f"{module}[{found[1]}]" if found else module

    return ModuleAndFormatScheduling(config, log)


def pytest_collection_modifyitems(config, items):
    if TARGET == "cluster":
        skip = pytest.mark.skip(reason="runs on the local target only")
        for item in items:
            if "both_targets" not in item.keywords:
                item.add_marker(skip)


@pytest.fixture(scope="session")
def runner(tmp_path_factory):
    if TARGET == "local":
        from tideline_tools.localenv import use_data_dir

        use_data_dir(tmp_path_factory.mktemp("tideline_data"))
    from tideline_tools.sql import connect

    return connect(TARGET)


def pytest_generate_tests(metafunc):
    """A module or test marked `formats("parquet", "delta")` runs once per table format, each
    with schemas of its own; the others run in TIDELINE_FILE_FORMAT's (default parquet). On the
    cluster target Iceberg is left out (the Thrift server has the catalog; the cluster tests
    cover Delta and parquet, which keeps `make test-cluster` at its length)."""
    if "file_format" in metafunc.fixturenames:
        marker = metafunc.definition.get_closest_marker("formats")
        formats = marker.args if marker else (os.environ.get("TIDELINE_FILE_FORMAT", "parquet"),)
        if TARGET == "cluster":
            formats = tuple(f for f in formats if f != "iceberg")
        metafunc.parametrize("file_format", formats, scope="module")


@pytest.fixture(scope="module")
def project(runner, request, file_format):
    name = request.module.__name__.rsplit(".", 1)[-1]
    default = os.environ.get("TIDELINE_FILE_FORMAT", "parquet")
    proj = Project(runner, name if file_format == default else f"{name}_{file_format}", file_format=file_format)
    proj.reset()
    yield proj
    proj.reset()

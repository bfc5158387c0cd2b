"""tideline installed as the README says (issue 38, item 4): from git, pinned by a `revision` (a
version tag), and from a local path. `dbt deps` as a user runs it, in a project of its own, from
a clone of this repository (file://: no network); no Spark is started.

The tag is made in the clone (a fresh clone of main need not carry the release tags); what is
checked is that `revision` chooses what is installed: the tagged commit, not the branch's head.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from tideline_tools.profile import PROJECT_DIR

pytestmark = pytest.mark.fast

DBT = Path(sys.executable).parent / "dbt"


def git(cwd: Path, *args: str) -> str:
    return subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True, text=True).stdout.strip()


def deps(project: Path, packages: list[dict]) -> subprocess.CompletedProcess:
    (project / "packages.yml").write_text(yaml.safe_dump({"packages": packages}))
    (project / "dbt_project.yml").write_text(yaml.safe_dump(
        {"name": "installs_tideline", "version": "1.0.0", "config-version": 2, "profile": "tideline"}))
    env = {**os.environ, "DBT_PROFILES_DIR": str(PROJECT_DIR / "profiles"), "DBT_SEND_ANONYMOUS_USAGE_STATS": "false"}
    return subprocess.run([str(DBT), "deps"], cwd=project, env=env, capture_output=True, text=True, timeout=300)


def installed_version(project: Path) -> str:
    return yaml.safe_load((project / "dbt_packages" / "tideline" / "dbt_project.yml").read_text())["version"]


def test_a_git_install_pinned_by_revision_gets_the_tagged_commit(tmp_path):
    source = tmp_path / "tideline.git"
    git(tmp_path, "clone", "-q", "--no-local", str(PROJECT_DIR), str(source))
    git(source, "config", "user.email", "test@tideline.invalid")
    git(source, "config", "user.name", "test")
    released = yaml.safe_load((source / "dbt_project.yml").read_text())["version"]
    tag = f"v{released}"   # the release tags' form (README, "Using tideline as a package")
    git(source, "tag", "-f", "-a", tag, "-m", f"tideline {released}")   # the clone may carry it already
    # a later commit on the branch: the pin must not follow it
    project_file = source / "dbt_project.yml"
    project_file.write_text(project_file.read_text().replace(f'version: "{released}"', 'version: "99.0.0"'))
    git(source, "commit", "-q", "-am", "unreleased work")
    assert yaml.safe_load(project_file.read_text())["version"] == "99.0.0"

    pinned = tmp_path / "pinned"
    pinned.mkdir()
    result = deps(pinned, [{"git": f"file://{source}", "revision": tag}])
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    assert installed_version(pinned) == released
    assert (pinned / "dbt_packages" / "tideline" / "macros").is_dir()
    lock = yaml.safe_load((pinned / "package-lock.yml").read_text())
    assert lock["packages"][0]["revision"] == git(source, "rev-list", "-n", "1", tag)


def test_a_local_install_gets_the_working_tree(tmp_path):
    result = deps(tmp_path, [{"local": str(PROJECT_DIR)}])
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    assert installed_version(tmp_path) == yaml.safe_load((PROJECT_DIR / "dbt_project.yml").read_text())["version"]

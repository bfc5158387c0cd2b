"""The tiers (docs/tests.md, "Tiers"): every test runs in `make test` or in the extended tier,
and a scenario that `make test` runs shorter (marker `longer_in_extended`) runs in both, so
that its full length runs somewhere."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

PROJECT_DIR = Path(__file__).parent.parent


def collected(extended: bool, *args: str) -> tuple[set[str], int]:
    """The test ids a tier runs (pytest --collect-only), and how many tests there are in all."""
    env = {**os.environ, "TIDELINE_EXTENDED": "1" if extended else ""}
    out = subprocess.run([sys.executable, "-m", "pytest", "python_tests", "--collect-only", "-q", *args],
                         cwd=PROJECT_DIR, env=env, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stdout[-2000:] + out.stderr[-2000:]
    ids = {line for line in out.stdout.splitlines() if "::" in line}
    total = re.search(r"(\d+)/(\d+) tests collected|(\d+) tests collected", out.stdout)
    assert total, out.stdout[-500:]
    return ids, int(total[2] or total[3])


def test_every_test_runs_in_a_tier_and_the_shorter_scenarios_in_both():
    make_test, total = collected(False)
    extended, _ = collected(True)
    assert len(make_test | extended) == total, sorted(set().union(make_test, extended))[:5]
    longer, _ = collected(False, "-m", "longer_in_extended")
    assert longer and longer <= make_test and longer <= extended, (longer, longer - extended)
    only_extended, _ = collected(True, "-m", "extended")
    assert only_extended and only_extended <= extended and not only_extended & make_test, only_extended & make_test

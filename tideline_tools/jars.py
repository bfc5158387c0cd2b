"""The pinned Delta Lake and Iceberg jars: fetched with Maven, checked by sha256, found by Spark.

    python -m tideline_tools.jars fetch   # what `make setup` runs: fetch what is missing, check all
    python -m tideline_tools.jars path    # the folder Spark loads them from

`profiles/jars.lock` pins each jar (group:artifact:version and sha256). They go to JARS_DIR
(`.tideline-jars/`, git-ignored, outside `.tideline/` so that `make clean` keeps them); the
local target's profile loads `$TIDELINE_JARS_DIR/*.jar` and the cluster's Thrift server gets
them with --jars. Nothing is downloaded when dbt runs.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from .profile import PROFILES_DIR, PROJECT_DIR

LOCK = PROFILES_DIR / "jars.lock"
JARS_DIR = PROJECT_DIR / ".tideline-jars"


@dataclass(frozen=True)
class Jar:
    group: str
    artifact: str
    version: str
    sha256: str

    @property
    def coordinates(self) -> str:
        return f"{self.group}:{self.artifact}:{self.version}"

    @property
    def file_name(self) -> str:
        return f"{self.artifact}-{self.version}.jar"


def pinned(lock: Path = LOCK) -> list[Jar]:
    jars = []
    for number, line in enumerate(lock.read_text().splitlines(), 1):
        text = line.split("#", 1)[0].strip()
        if not text:
            continue
        try:
            coordinates, sha256 = text.split()
            group, artifact, version = coordinates.split(":")
        except ValueError:
            raise SystemExit(f"tideline: {lock}:{number}: expected 'group:artifact:version sha256', got {line!r}")
        jars.append(Jar(group, artifact, version, sha256.lower()))
    return jars


def jars_dir() -> Path:
    return Path(os.environ.get("TIDELINE_JARS_DIR") or JARS_DIR).resolve()


def sha256_of(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def classpath(folder: Path | None = None) -> list[Path]:
    """The pinned jars' paths, in lock order."""
    folder = folder or jars_dir()
    return [folder / jar.file_name for jar in pinned()]


def fetch(folder: Path | None = None) -> list[Path]:
    """Fetch each pinned jar that is missing or wrong, then check every one; exit with one line on failure."""
    folder = folder or jars_dir()
    folder.mkdir(parents=True, exist_ok=True)
    for jar in pinned():
        target = folder / jar.file_name
        if target.exists() and sha256_of(target) == jar.sha256:
            continue
        if shutil.which("mvn") is None:
            raise SystemExit("tideline: Maven (mvn) is needed to fetch the pinned Delta and Iceberg jars; "
                             "install it (Debian: apt-get install maven) and run `make setup` again")
        staging = folder / ".incoming"
        shutil.rmtree(staging, ignore_errors=True)
        print(f"tideline: fetching {jar.coordinates} with Maven", file=sys.stderr, flush=True)
        result = subprocess.run(
            ["mvn", "-q", "-B", "dependency:copy", f"-Dartifact={jar.coordinates}", f"-DoutputDirectory={staging}"],
            capture_output=True, text=True,
        )
        fetched = staging / jar.file_name
        if result.returncode != 0 or not fetched.exists():
            raise SystemExit(f"tideline: Maven could not fetch {jar.coordinates}:\n{result.stdout[-2000:]}{result.stderr[-2000:]}")
        found = sha256_of(fetched)
        if found != jar.sha256:
            raise SystemExit(f"tideline: {jar.coordinates} from Maven has sha256 {found}, {LOCK.name} pins {jar.sha256}; "
                             "not installed")
        fetched.replace(target)
        shutil.rmtree(staging, ignore_errors=True)
    stray = sorted(p.name for p in folder.glob("*.jar") if p.name not in {j.file_name for j in pinned()})
    for name in stray:   # a jar of an earlier pin would load beside the new one
        (folder / name).unlink()
    return classpath(folder)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tideline_tools.jars", description=__doc__.split("\n")[0])
    parser.add_argument("command", choices=["fetch", "path"])
    args = parser.parse_args(argv)
    if args.command == "fetch":
        for path in fetch():
            print(f"tideline: {path.name} ok (sha256 checked)")
    else:
        print(jars_dir())
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Each dbt project the suite runs, parsed once per set of parse-time inputs and reused.

dbt parses a whole project again (3 to 9 s here, most of a refused run) whenever `--vars`
differ from those of its target folder's last parse, since a var may change a config, a source
or a ref. tideline's own vars (`tideline__*`) are read when a run executes, never while dbt
parses (the two that name the events source are the exception: sources.yml reads them), so
the suite parses a project with its parse-time vars only, keeps dbt's Manifest, and gives it to
the next commands through dbtRunner's own reuse of a parsed project (`dbtRunner(manifest=...)`).
The run itself gets every var, as `--vars`, and reads them as a user's run does.

A kept Manifest is used again only while the project's files are as they were when it was
parsed (the contents of every file it was parsed from and of dbt_project.yml, and the names in
their folders): a test that edits or adds a model gets a new parse, as dbt's partial parsing
would notice. TIDELINE_TEST_REPARSE=1
turns the reuse off (every command parses, as on a user's machine); the environment tests run
dbt by path in processes of their own and so parse as users do.

A parse that does happen (a new schema, new parse-time vars, an edited file) is itself shorter
through dbt's own cache for test suites, which conftest.py turns on: the Jinja of a macro file
dbt parsed once in this process is not parsed again.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections import OrderedDict
from pathlib import Path
from typing import Any, Callable

# The vars that dbt reads while it parses the projects under test: the events source's schema
# and table (models/tideline/sources.yml). Every other tideline__ var is read at run time.
PARSE_TIME_TIDELINE_VARS = frozenset({"tideline__events_schema", "tideline__events_table"})
# Commands given a parsed project (`parse` parses). An inline compile (`compile --inline`) adds
# its node to the Manifest and dbt's CompileTask takes it out again when the command ends.
REUSING_COMMANDS = frozenset({"run", "build", "test", "compile", "seed", "snapshot", "run-operation", "show", "list", "ls"})
KEPT = 6


def parse_time_vars(vars: dict[str, Any]) -> dict[str, Any]:
    """The vars that can change what dbt parses: all but tideline's run-time vars."""
    return {k: v for k, v in vars.items() if not k.startswith("tideline__") or k in PARSE_TIME_TIDELINE_VARS}


def reuses(args: tuple[str, ...]) -> bool:
    """Whether this command may be given a parsed project."""
    return os.environ.get("TIDELINE_TEST_REPARSE") != "1" and bool(args) and args[0] in REUSING_COMMANDS


def _environment() -> dict[str, str]:
    """The environment that dbt's parse reads (profiles.yml and dbt_project.yml use env_var)."""
    return {k: v for k, v in os.environ.items() if k.startswith(("TIDELINE_", "DBT_")) and k != "TIDELINE_NOW"}


def _fingerprint(manifest: Any, project_dir: Path) -> str:
    """A digest of every file the Manifest was parsed from and of the project's own files
    (their contents), and of the names in their folders (a file added beside them)."""
    paths = {project_dir / name for name in ("dbt_project.yml", "packages.yml", "dependencies.yml", "selectors.yml")}
    for source_file in manifest.files.values():
        path = getattr(source_file, "path", None)
        if path is not None and getattr(path, "project_root", None):
            paths.add(Path(path.absolute_path))
    digest = hashlib.sha1()
    for folder in sorted({path.parent for path in paths}):
        digest.update(f"{folder}:{sorted(os.listdir(folder)) if folder.is_dir() else None}".encode())
    for path in sorted(paths):
        digest.update(str(path).encode())
        digest.update(path.read_bytes() if path.is_file() else b"-")
    return digest.hexdigest()


class ParsedProjects:
    """The last KEPT parsed projects of this pytest process, by what their parse read."""

    def __init__(self) -> None:
        self._kept: OrderedDict[str, tuple[Any, Path, str]] = OrderedDict()

    def manifest(self, project_dir: Path, target: str, profiles_dir: str | None, vars: dict[str, Any],
                 parse: Callable[[], Any]) -> Any:
        """The Manifest of `project_dir` parsed with these parse-time `vars`: the kept one while
        its files are unchanged, else `parse()`'s."""
        key = json.dumps([str(project_dir), target, str(profiles_dir), vars, _environment()], sort_keys=True, default=str)
        kept = self._kept.get(key)
        if kept is not None and _fingerprint(kept[0], project_dir) == kept[2]:
            self._kept.move_to_end(key)
            return kept[0]
        manifest = parse()
        if manifest is None:
            return None
        self._kept[key] = (manifest, project_dir, _fingerprint(manifest, project_dir))
        self._kept.move_to_end(key)
        while len(self._kept) > KEPT:
            self._kept.popitem(last=False)
        return manifest


PARSED = ParsedProjects()

"""Every macro and materialization tideline ships is described in YAML, as `dbt docs` shows it
(issue 32, item 7). Public macros are described in each folder's <folder>.yml, internal ones in
its internals.yml; a macro whose name starts with `_` is private to its file's helpers and needs
none. Read from the files, without dbt: a macro added without a description, an argument renamed
in the signature but not in the YAML, or a YAML entry left behind by a removed macro fails here.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from tideline_tools.profile import PROJECT_DIR

pytestmark = pytest.mark.fast

MACROS = Path(PROJECT_DIR) / "macros"
GENERIC_TESTS = Path(PROJECT_DIR) / "tests" / "generic"
TEST = re.compile(r"{%-?\s*test\s+(\w+)\s*\(([^)]*)\)")
DEFINITION = re.compile(r"{%-?\s*macro\s+(\w+)\s*\(([^)]*)\)")
MATERIALIZATION = re.compile(r"{%-?\s*materialization\s+(\w+)\s*,\s*adapter\s*=\s*'(\w+)'")


def signature_names(signature: str) -> list[str]:
    """The argument names of a macro's signature (defaults may hold commas inside brackets)."""
    names, depth, current = [], 0, ""
    for ch in signature + ",":
        depth += ch in "([{"
        depth -= ch in ")]}"
        if ch == "," and depth == 0:
            if current.strip():
                names.append(current.split("=")[0].strip())
            current = ""
        else:
            current += ch
    return names


def definitions() -> dict[str, tuple[str, list[str]]]:
    """{name as dbt knows it: (file, argument names)}; a materialization `m` is known to dbt as
    materialization_m_<adapter>, a generic test `t` (tests/generic) as test_t."""
    found: dict[str, tuple[str, list[str]]] = {}
    for path in sorted(GENERIC_TESTS.glob("*.sql")):
        for name, signature in TEST.findall(path.read_text()):
            found[f"test_{name}"] = (str(path.relative_to(PROJECT_DIR)), signature_names(signature))
    for path in sorted(MACROS.rglob("*.sql")):
        text, file = path.read_text(), str(path.relative_to(PROJECT_DIR))
        for name, signature in DEFINITION.findall(text):
            found[name] = (file, signature_names(signature))
        for name, adapter in MATERIALIZATION.findall(text):
            found[f"materialization_{name}_{adapter}"] = (file, [])
    return found


def described() -> dict[str, dict]:
    entries: dict[str, dict] = {}
    for path in [*sorted(MACROS.rglob("*.yml")), *sorted(GENERIC_TESTS.glob("*.yml"))]:
        for entry in yaml.safe_load(path.read_text()).get("macros") or []:
            assert entry["name"] not in entries, f"{entry['name']} is described twice (again in {path})"
            entries[entry["name"]] = {**entry, "file": str(path.relative_to(PROJECT_DIR))}
    return entries


def test_every_macro_and_materialization_is_described_in_yaml():
    macros, entries = definitions(), described()
    missing = sorted(f"{file}: {name}" for name, (file, _) in macros.items()
                     if not name.startswith("_") and not (entries.get(name) or {}).get("description"))
    assert not missing, "described in no YAML file:\n" + "\n".join(missing)
    unknown = sorted(f"{entry['file']}: {name}" for name, entry in entries.items() if name not in macros)
    assert not unknown, "YAML describes macros that do not exist:\n" + "\n".join(unknown)
    assert len([n for n in macros if not n.startswith("_")]) > 250   # the scan found the macros


def test_the_arguments_in_yaml_are_those_of_the_signature():
    macros = definitions()
    wrong = []
    for name, entry in described().items():
        listed = [a["name"] for a in entry.get("arguments") or []]
        if listed != macros[name][1]:
            wrong.append(f"{entry['file']}: {name} lists {listed}, its signature has {macros[name][1]}")
    assert not wrong, "\n".join(wrong)


def test_no_description_holds_jinja():
    """dbt renders descriptions as Jinja when it parses: `{{ x }}` in one fails the parse of every
    project that installs tideline ("'x' is undefined")."""
    held = [f"{entry['file']}: {name}" for name, entry in described().items()
            if re.search(r"{{|{%|{#", yaml.safe_dump(entry))]
    assert not held, "\n".join(held)


def test_a_macro_without_description_is_found():
    """The scan itself: a macro written into a copy of a file is reported."""
    assert signature_names("relation, select_sql, partition_by=['a', 'b'], format={'x': 1}") == [
        "relation", "select_sql", "partition_by", "format"]
    assert DEFINITION.findall("{%- macro new_helper(a, b=none) -%}") == [("new_helper", "a, b=none")]
    assert MATERIALIZATION.findall("{% materialization channel, adapter='spark' %}") == [("channel", "spark")]

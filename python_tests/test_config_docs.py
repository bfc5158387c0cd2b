"""Fast tier: docs/configs.md describes exactly the config keys each tideline materialization
reads (tideline_config_keys in macros/internal/config_names.sql, the list the misspelling
check compares a model's keys with): a key added to a materialization without its line in
the docs, or a line left for a key no longer read, fails here."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from pure_macros import PureMacros

pytestmark = pytest.mark.fast

ROOT = Path(__file__).parent.parent
MACROS = PureMacros("internal/config_names.sql")
SHARED = {"file_format", "compact_every"}


def materializations() -> set[str]:
    found = set()
    for path in (ROOT / "macros" / "materializations").glob("*.sql"):
        found |= set(re.findall(r"{%\s*materialization\s+(\w+)\s*,", path.read_text()))
    return found


def documented() -> dict[str, set[str]]:
    """Each materialization of a `## ` section: the keys in its table's first column."""
    text = (ROOT / "docs" / "configs.md").read_text()
    sections = re.split(r"^## ", text, flags=re.M)[1:]
    keys = {}
    for section in sections:
        heading, body = section.split("\n", 1)
        found = set(re.findall(r"^\| `(\w+)` \|", body, flags=re.M))
        for name in heading.split(", "):
            keys[name.strip()] = found
    return keys


def test_every_materialization_has_its_section_listing_exactly_the_keys_it_reads():
    docs = documented()
    assert set(docs) == materializations(), (sorted(docs), sorted(materializations()))
    for name in sorted(materializations()):
        read = set(MACROS.tideline_config_keys(name)) - SHARED
        assert docs[name] == read, f"{name}: docs/configs.md lists {sorted(docs[name])}, the materialization reads {sorted(read)}"


def test_the_keys_every_materialization_reads_are_listed_once_before_the_sections():
    text = (ROOT / "docs" / "configs.md").read_text()
    preamble = text.split("\n## ", 1)[0]
    assert set(re.findall(r"^\| `(\w+)` \|", preamble, flags=re.M)) == SHARED
    for name in sorted(materializations()):
        assert SHARED <= set(MACROS.tideline_config_keys(name)), name

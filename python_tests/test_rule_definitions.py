"""Fast tier: the definition a derivation or a continual task records with its state
(macros/internal/definitions.sql, sql_as_defined.sql) and how a run compares it.

- A definition compared with itself, through the text the state keeps, has no changes; one
  recorded before tideline kept definitions (none) has none either.
- Between two random definitions (named parts of nested values) the changes are exactly the
  parts added, removed or of another value, each named once, sorted.
- SQL as a definition compares it: comments and runs of whitespace between tokens are no
  change; a changed token is one."""

from __future__ import annotations

import json

import pytest
from hypothesis import strategies as st

from harness import fast_property
from pure_macros import PureMacros

pytestmark = pytest.mark.fast

MACROS = PureMacros("internal/definitions.sql", "internal/sql_as_defined.sql", "internal/shown_values.sql")
NAMES = st.sampled_from(["unique_key", "derived_columns", "registers.total", "reduce.amount", "transform a", "transform b",
                         "statement 1", "statement 2", "input stream.orders", "columns"])
VALUES = st.recursive(st.one_of(st.none(), st.booleans(), st.integers(-5, 5), st.sampled_from(["id", "amount > 0", "a<b", "it's"])),
                      lambda inner: st.one_of(st.lists(inner, max_size=3), st.dictionaries(st.sampled_from(["type", "update", "shuffle"]), inner, max_size=3)),
                      max_leaves=6)
DEFINITIONS = st.dictionaries(NAMES, VALUES, max_size=6)


def as_json(value) -> str:
    """A value as the state keeps it (true and 1 differ there, not in Python's ==)."""
    return json.dumps(value, sort_keys=True)


@fast_property(st.tuples(DEFINITIONS, DEFINITIONS), edge_cases=[({}, {}), ({"transform a": {"update": "x"}}, {"transform b": {"update": "x"}})])
def test_the_changes_are_exactly_the_parts_added_removed_or_different(case):
    before, after = case
    recorded = MACROS.definition_text(before)
    assert MACROS.definition_changes(MACROS.definition_text(after), after) == []
    assert MACROS.definition_changes(None, after) == []
    expected = sorted([f"{name} (removed)" for name in before if name not in after]
                      + [f"{name} (added)" for name in after if name not in before]
                      + [f"{name} (changed)" for name in after if name in before and as_json(before[name]) != as_json(after[name])])
    assert MACROS.definition_changes(recorded, after) == expected


TOKENS = st.lists(st.sampled_from(["select", "id", ",", "amount", "from", "_tl_document", "where", "amount", ">", "0", "(", ")"]),
                  min_size=1, max_size=12)
GAPS = st.sampled_from([" ", "  ", "\n", "\n    ", " -- a comment\n", " /* note */ ", "\t"])


@fast_property(st.tuples(TOKENS, st.data()), edge_cases=[])
def test_comments_and_whitespace_are_no_change_a_changed_token_is_one(case):
    tokens, data = case
    plain = " ".join(tokens)
    spaced = "".join(token + data.draw(GAPS) for token in tokens)
    assert MACROS.sql_as_defined(spaced) == MACROS.sql_as_defined(plain) == plain
    index = data.draw(st.integers(0, len(tokens) - 1))
    other = tokens[:index] + [tokens[index] + "1"] + tokens[index + 1:]
    assert MACROS.sql_as_defined(" ".join(other)) != MACROS.sql_as_defined(plain)

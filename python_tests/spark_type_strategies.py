"""Hypothesis strategies for Spark type names, shared by the fast tests of the type rules
(test_rule_type_names: the grammar tideline accepts; test_rule_type_assignment: the
store-assignment rule): primitives, decimal, char and varchar, and arrays, maps and structs
nested over them."""

from __future__ import annotations

from hypothesis import strategies as st


def simple_types(primitives: list[str], char_max: int, spellings: tuple[str, ...] = ()) -> st.SearchStrategy[str]:
    """A primitive, a decimal(p,s), a char(n) or varchar(n) up to `char_max`, or one of
    `spellings` (other ways of writing them)."""
    parts = [
        st.sampled_from(primitives),
        st.builds(lambda p, s: f"decimal({p},{min(s, p)})", st.integers(1, 38), st.integers(0, 38)),
        st.builds(lambda kind, n: f"{kind}({n})", st.sampled_from(["char", "varchar"]), st.integers(1, char_max)),
    ]
    if spellings:
        parts.append(st.sampled_from(list(spellings)))
    return st.one_of(*parts)


def nested_types(simple: st.SearchStrategy[str], field: st.SearchStrategy[str], max_leaves: int,
                 unique_fields: bool = False) -> st.SearchStrategy[str]:
    """`simple`, or arrays, maps (keys from `simple`) and structs (field names from `field`,
    distinct when `unique_fields`) of them, nested up to `max_leaves` leaves."""
    unique = {"unique_by": lambda f: f[0]} if unique_fields else {}

    def nested(inner):
        return st.one_of(
            st.builds(lambda t: f"array<{t}>", inner),
            st.builds(lambda k, v: f"map<{k},{v}>", simple, inner),
            st.builds(lambda fields: "struct<{}>".format(",".join(f"{name}:{t}" for name, t in fields)),
                      st.lists(st.tuples(field, inner), min_size=1, max_size=3, **unique)),
        )

    return st.recursive(simple, nested, max_leaves=max_leaves)

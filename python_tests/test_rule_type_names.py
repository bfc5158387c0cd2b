"""Fast tier: the declared-type check (macros/internal/type_names.sql, is_spark_type) against
Spark's own parser of type names (DataType.fromDDL in this process's SparkSession).

Every type drawn from the grammar tideline accepts (primitives with their aliases, decimal,
char, varchar, array, map, struct, nested, in any case and with spaces) is accepted by the
macro and parsed by Spark; every misspelling of one (a letter dropped, doubled, swapped or
changed, a bracket lost) that the macro accepts Spark parses too: a type the check lets
through never fails a statement with Spark's parse error. And the refusals of one-word types
name the closest primitive."""

from __future__ import annotations

import pytest
from hypothesis import strategies as st

from harness import fast_property
from pure_macros import PureMacros
from spark_type_strategies import nested_types, simple_types

pytestmark = pytest.mark.fast

MACROS = PureMacros("internal/type_names.sql", "internal/column_types.sql", "internal/edit_distance.sql")
PRIMITIVES = ["boolean", "tinyint", "byte", "smallint", "short", "int", "integer", "bigint", "long", "float", "real",
              "double", "string", "binary", "date", "timestamp", "timestamp_ltz", "timestamp_ntz"]
FIELD = st.from_regex(r"[a-z_][a-z0-9_]{0,6}", fullmatch=True)

simple = simple_types(PRIMITIVES, char_max=255, spellings=("decimal", "dec(5)", "numeric(10,2)"))
types = nested_types(simple, FIELD, max_leaves=6, unique_fields=True)


def styled(text: str, upper: bool, spaced: bool) -> str:
    text = text.upper() if upper else text
    return text.replace(",", ", ").replace("<", " < ").replace(":", ": ") if spaced else text


def misspelt(text: str, position: int, edit: int) -> str:
    i = position % len(text)
    return [text[:i] + text[i + 1:], text[:i] + text[i] + text[i:], text[:i] + "x" + text[i + 1:],
            text[:i] + text[i + 1:i + 2] + text[i:i + 1] + text[i + 2:]][edit]


def spark_parses(runner, text: str) -> bool:
    try:
        runner.spark.sparkContext._jvm.org.apache.spark.sql.types.DataType.fromDDL(text)
        return True
    except Exception:   # py4j's error for Spark's ParseException
        return False


cases = st.fixed_dictionaries({"type": types, "upper": st.booleans(), "spaced": st.booleans(),
                               "position": st.integers(0, 200), "edit": st.integers(0, 3)})
EDGE_CASES = [
    {"type": "struct<a:int,b:struct<c:array<map<string,decimal(10,2)>>>>", "upper": False, "spaced": True, "position": 7, "edit": 0},
    {"type": "int", "upper": True, "spaced": False, "position": 1, "edit": 2},
    {"type": "array<string>", "upper": False, "spaced": False, "position": 12, "edit": 0},   # the closing bracket lost
]


@fast_property(cases, EDGE_CASES)
def test_a_type_the_check_accepts_is_one_spark_parses(runner, case):
    text = styled(case["type"], case["upper"], case["spaced"])
    assert MACROS.is_spark_type(text) is True, text
    assert spark_parses(runner, text), text
    bad = misspelt(text, case["position"], case["edit"])
    if MACROS.is_spark_type(bad):
        assert spark_parses(runner, bad), f"{bad!r} (from {text!r}) passed the check but Spark cannot parse it"


@pytest.mark.parametrize("text, hint", [("bignit", "bigint"), ("strng", "string"), ("timestmp", "timestamp"),
                                        ("dobule", "double"), ("array<strng>", None), ("", None)])
def test_a_refused_type_says_what_is_accepted_and_the_closest_primitive(text, hint):
    assert MACROS.is_spark_type(text) is False
    accepted = MACROS.spark_type_accepted(text)
    assert accepted.startswith("a Spark type: boolean, tinyint, smallint, int, bigint,"), accepted
    assert accepted.endswith(f" (did you mean {hint}?)" if hint else "struct<name:t,...>"), accepted

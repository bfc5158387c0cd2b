"""Fast tier: which types a declared column takes without a cast (macros/internal/
type_assignment.sql, type_assignable) against Spark's own rule for an insert into a table under
its default store assignment (Cast.canANSIStoreAssign, called in this process's SparkSession).

Pairs of types are drawn from one grammar (primitives with their aliases, decimal, char,
varchar, array, map, struct, nested, as `describe query` writes them and as a config declares
them) and the macro must agree with Spark on every pair, so a statement's column that Spark
would refuse in a table insert (an integer into a boolean, a string into a date) is refused by
tideline before its cast hides it, and nothing Spark accepts is refused."""

from __future__ import annotations

import pytest
from hypothesis import strategies as st

from harness import fast_property
from pure_macros import PureMacros
from spark_type_strategies import nested_types, simple_types

pytestmark = pytest.mark.fast

MACROS = PureMacros("internal/type_assignment.sql", "internal/column_types.sql")
PRIMITIVES = ["boolean", "tinyint", "smallint", "int", "integer", "bigint", "long", "float", "double", "string",
              "binary", "date", "timestamp", "timestamp_ntz", "void"]
FIELD = st.sampled_from(["a", "b", "c"])

simple = simple_types(PRIMITIVES, char_max=20)
types = nested_types(simple, FIELD, max_leaves=5)


def _nested_pairs(inner):
    """Two types of the same shape (array, map, struct of the same fields) whose parts are drawn
    apart: the pairs where the rule must look inside."""
    return st.one_of(
        st.builds(lambda p: (f"array<{p[0]}>", f"array<{p[1]}>"), inner),
        st.builds(lambda k, v: (f"map<{k[0]},{v[0]}>", f"map<{k[1]},{v[1]}>"), st.tuples(simple, simple), inner),
        st.builds(lambda fields: tuple("struct<{}>".format(",".join(f"{name}:{p[i]}" for name, p in fields)) for i in (0, 1)),
                  st.lists(st.tuples(FIELD, inner), min_size=1, max_size=3)),
    )


same_shape = st.recursive(st.tuples(simple, simple), _nested_pairs, max_leaves=4)
cases = st.one_of(
    st.fixed_dictionaries({"found": simple, "declared": simple}),
    st.builds(lambda p: {"found": p[0], "declared": p[1]}, same_shape),
    st.fixed_dictionaries({"found": types, "declared": types}),
)
EDGE_CASES = [
    {"found": "int", "declared": "boolean"},                        # the example: refused
    {"found": "boolean", "declared": "int"},
    {"found": "string", "declared": "date"},
    {"found": "timestamp", "declared": "date"},                     # accepted by Spark
    {"found": "array<int>", "declared": "array<string>"},
    {"found": "array<string>", "declared": "string"},
    {"found": "boolean", "declared": "string"},
    {"found": "binary", "declared": "varchar(4)"},
    {"found": "struct<b:bigint,c:string>", "declared": "struct<a:int,b:string>"},   # fields by position
    {"found": "struct<a:int>", "declared": "struct<a:int,b:int>"},
    {"found": "map<string,decimal(10,2)>", "declared": "map<string,double>"},
    {"found": "array<void>", "declared": "array<map<int,int>>"},
    {"found": "varchar(3)", "declared": "int"},
]


def spark_assignable(runner, found: str, declared: str) -> bool:
    jvm = runner.spark.sparkContext._jvm
    types = jvm.org.apache.spark.sql.types

    def parsed(text):
        # char(n) and varchar(n) are strings to the analyser (a table's column keeps only the
        # length check); void, the type of null, has no DDL name
        if text == "void":
            return getattr(getattr(types, "NullType$"), "MODULE$")
        return jvm.org.apache.spark.sql.catalyst.util.CharVarcharUtils.replaceCharVarcharWithString(types.DataType.fromDDL(text))
    return bool(jvm.org.apache.spark.sql.catalyst.expressions.Cast.canANSIStoreAssign(parsed(found), parsed(declared)))


@fast_property(cases, EDGE_CASES, examples=300, make_test=150)
def test_a_column_is_taken_without_a_cast_exactly_when_spark_would_store_it(runner, case):
    expected = spark_assignable(runner, case["found"], case["declared"])
    assert MACROS.type_assignable(case["found"], case["declared"]) is expected, case

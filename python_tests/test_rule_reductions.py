"""Fast tier: a derivation's register reductions, as tideline folds them in SQL, against the reference.

A derivation run folds each key's new updates into its stored register with window functions
(macros/derivation/fold.sql: `_fold`, which looks up each strategy's fold by name, and `_exposed` for what a reader of the register
sees). Here the registers of every strategy (sum with and without an initial value, min, max,
last_write_wins, first_write_wins, append, set, and merge with a sum, a max, a default
last_write_wins and a first_write_wins field; several again as Flow writes its reduction
annotations, `{strategy: minimize}`, and minimize and maximize of a struct by a key) are declared through tideline's own
`_reduction` (the spec the derivation's settings build), rendered once by dbt into one select
over a small table (a key, its documents in order, the stored register and each document's
update), then run in this process's SparkSession on random keys: some never written before,
some with a stored register, updates present or missing (null: no update). After every document
each register must read what reference_derivation's Derivation reads after processing the same
updates in the same order from the same register.

The same registers are also folded one document at a time, by the steps a derivation uses
where an update reads the register (macros/derivation/register_folds.sql, `_derivation_step`;
step_<strategy>), against the same reference. A minimize or maximize by a key deep-merges
values of equal keys (flow_top with a sum field), which depends on their order: it is folded
only this way, so the window fold leaves those registers out. Struct fields are drawn from
five values, so equal keys are common.

About 0.4 s an example (a truncate, an insert, a query).
"""

from __future__ import annotations

import pytest
from hypothesis import strategies as st

from harness import fast_property, sql_literal
from reference_derivation import Derivation, Transform

pytestmark = pytest.mark.fast

# name: (type, strategy, merge fields, initial)
REGISTERS = {
    "total": ("int", "sum", None, 5),
    "plain_sum": ("bigint", "sum", None, None),
    "low": ("int", "min", None, None),
    "high": ("int", "max", None, 0),
    "latest": ("int", "last_write_wins", None, 7),
    "earliest": ("int", "first_write_wins", None, None),
    "log": ("array<int>", "append", None, [1]),
    "seen": ("array<int>", "set", None, None),
    "merged": ("struct<a:int,b:int,c:int,d:int>", "merge", {"a": "sum", "b": "max", "d": "first_write_wins"},
               {"a": 1, "c": 9, "d": 4}),
    # the same strategies as Flow writes its reduction annotations: {strategy: <Flow's name>}
    "flow_total": ("int", {"strategy": "sum"}, None, 5),
    "flow_low": ("int", {"strategy": "minimize"}, None, None),
    "flow_high": ("int", {"strategy": "maximize"}, None, 0),
    "flow_latest": ("int", {"strategy": "lastWriteWins"}, None, 7),
    "flow_log": ("array<int>", {"strategy": "append"}, None, [1]),
    "flow_merged": ("struct<a:int,b:int,c:int,d:int>", {"strategy": "merge"},
                    {"a": {"strategy": "sum"}, "b": {"strategy": "maximize"}, "d": {"strategy": "firstWriteWins"}},
                    {"a": 1, "c": 9, "d": 4}),
    # Flow's minimize and maximize by a key: a struct compared by some of its fields (JSON pointers
    # or names); where they are equal, deep-merged field by field (last_write_wins unless given),
    # as Flow's example counts how often the least value was seen with a sum
    "flow_top": ("struct<a:int,b:int,c:int,d:int>", {"strategy": "maximize", "key": ["/b"]}, {"d": {"strategy": "sum"}}, None),
    "flow_bottom": ("struct<a:int,b:int,c:int,d:int>", {"strategy": "minimize", "key": ["c", "/a"]}, None,
                    {"a": 0, "b": 0, "c": 3, "d": 0}),
}
FLOW_NAMES = {"minimize": "min", "maximize": "max", "firstWriteWins": "first_write_wins", "lastWriteWins": "last_write_wins"}


def strategy_name(strategy) -> str:
    """tideline's name of a strategy given as a name or as Flow's annotation {strategy: ...}."""
    name = strategy["strategy"] if isinstance(strategy, dict) else strategy
    name = FLOW_NAMES.get(name, name)
    return name


def reference_strategy(strategy, fields):
    """The reference's strategy: a name, {field: strategy} for merge, or (kind, key fields,
    {field: strategy}) for minimize or maximize by a key (its fields: how equal keys merge)."""
    name = strategy_name(strategy)
    merged = {f: reference_strategy((fields or {}).get(f, "last_write_wins"), None) for f in FIELDS} if fields or name == "merge" else None
    if isinstance(strategy, dict) and "key" in strategy:
        return (name, tuple(k.strip("/") for k in strategy["key"]), merged or {f: "last_write_wins" for f in FIELDS})
    return merged if name == "merge" else name

FIELDS = ("a", "b", "c", "d")
TEMPLATE = """
{%- set registers = REGISTERS -%}
select k, seq
{%- for name, r in registers.items() %}
{%- set spec = tideline._reduction('folds', 'registers.' ~ name, r[1], r[0], r[2]) %}
{%- do spec.update({'initial_value': r[3]}) %}
{%- if not tideline._merges_equal_keys(spec) %}
{%- set initial = tideline._literal(r[3], r[0]) %}
    , {{ tideline._exposed(spec, tideline._fold(spec, 's_' ~ name, 'u_' ~ name, initial, 'w', 'folds ' ~ name), initial) }} as {{ name }}
{%- endif %}
{%- endfor %}
from SOURCE
window w as (partition by k order by seq rows between unbounded preceding and current row)
"""

# The same registers folded one document at a time, as a derivation whose updates read the
# register folds them (macros/derivation/register_folds.sql: `_derivation_step`, which steps each
# strategy by `_step`): each key's documents as one array, Spark's aggregate from the stored
# register, each register read after each document.
STEP_TEMPLATE = """
{%- set registers = [] -%}
{%- for name, r in REGISTERS.items() -%}
    {%- set spec = tideline._reduction('folds', 'registers.' ~ name, r[1], r[0], r[2]) -%}
    {%- do spec.update({'name': name, 'initial_value': r[3], 'initial': tideline._literal(r[3], r[0])}) -%}
    {%- do registers.append(spec) -%}
{%- endfor -%}
{%- set settings = {'name': 'folds', 'registers': registers, 'transforms': [{'name': 't', 'reading': []}]} -%}
{%- set trail_type = 'struct<r:' ~ tideline.register_struct_type(settings) ~ ',u:boolean>' -%}
select k, _tl_doc.seq as seq
{%- for r in registers %}
    , {{ tideline._exposed(r, 'element_at(_tl_trail, _tl_i + 2).r.' ~ r.name, r.initial) }} as {{ r.name }}
{%- endfor %}
from (
    select k, _tl_docs, aggregate(_tl_docs, cast(array(named_struct('r', stored, 'u', false)) as array<{{ trail_type }}>),
        (_tl_trail, _tl_doc) -> concat(_tl_trail, array({{ tideline._derivation_step(settings, trail_type) }}))) as _tl_trail
    from (
        select
            k,
            named_struct({% for r in registers %}'{{ r.name }}', s_{{ r.name }}{{ ', ' if not loop.last }}{% endfor %}) as stored,
            collect_list(named_struct('seq', seq, 'u', named_struct({% for r in registers %}'{{ r.name }}', u_{{ r.name }}{{ ', ' if not loop.last }}{% endfor %})))
                over (partition by k order by seq rows between unbounded preceding and unbounded following) as _tl_docs,
            row_number() over (partition by k order by seq) as n
        from SOURCE
    ) as lists
    where n = 1
) as trails
lateral view posexplode(_tl_docs) documents as _tl_i, _tl_doc
"""


def literal(value, type_: str) -> str:
    if value is None:
        return f"cast(null as {type_})"
    if type_.startswith("array<"):
        return f"cast(array({', '.join(str(v) for v in value)}) as {type_})"
    if type_.startswith("struct<"):
        return "named_struct(" + ", ".join(f"'{f}', {literal(value.get(f), 'int')}" for f in FIELDS) + ")"
    return f"cast({sql_literal(value)} as {type_})"


@pytest.fixture(scope="module")
def fold_sql(project):
    project.reset()
    table = f"{project.source_schema}.folds"
    columns = ["k int", "seq int"] + [f"{p}_{name} {r[0]}" for name, r in REGISTERS.items() for p in ("s", "u")]
    project.runner.execute(f"create schema if not exists {project.source_schema}")
    project.runner.execute(f"create table {table} ({', '.join(columns)}) using parquet")
    compiled = {}
    for name, template in (("window", TEMPLATE), ("step", STEP_TEMPLATE)):
        template = template.replace("REGISTERS", repr({n: list(r) for n, r in REGISTERS.items()}).replace("None", "none")) \
            .replace("SOURCE", table)
        compiled[name] = project.dbt("compile", "--inline", template).result.results[0].node.compiled_code
    return table, compiled


small = st.integers(-20, 20)
arrays = st.lists(st.integers(0, 4), max_size=3)
structs = st.fixed_dictionaries({f: st.one_of(st.none(), st.integers(-2, 2)) for f in FIELDS})   # equal keys are common
VALUES = {"int": small, "bigint": small, "array<int>": arrays, "struct<a:int,b:int,c:int,d:int>": structs}
updates = st.fixed_dictionaries({name: st.one_of(st.none(), VALUES[r[0]]) for name, r in REGISTERS.items()})
keys = st.fixed_dictionaries({
    "written": st.booleans(),
    "stored": updates,            # the stored register of a key written before (read only if written)
    "updates": st.lists(updates, min_size=1, max_size=4),
})
cases = st.lists(keys, min_size=1, max_size=4)


def reference_registers() -> dict:
    out = {}
    for name, (type_, strategy, fields, initial) in REGISTERS.items():
        out[name] = (initial, reference_strategy(strategy, fields))
    return out


def stored_register(case_key: dict) -> dict:
    """The stored register of a written key as the reference keeps it: a register (or field) of
    sum, min, max, append or set holds its initial value folded in (never null when the initial
    value is not); last/first_write_wins hold null until written."""
    derivation = Derivation(unique_key=(), transforms=[], registers=reference_registers())
    register = derivation._register((0,))
    transform = Transform(name="t", source="s", key=lambda r: (0,), update=lambda r: r["u"])
    derivation.process(transform, {"u": case_key["stored"]})
    return derivation.registers_by_key.get((0,), register)


def expected(case: list[dict]) -> list[dict]:
    out = []
    for k, key in enumerate(case):
        derivation = Derivation(unique_key=(), transforms=[], registers=reference_registers())
        if key["written"]:
            derivation.registers_by_key[(k,)] = stored_register(key)
        transform = Transform(name="t", source="s", key=lambda r: (r["k"],), update=lambda r: r["u"])
        for seq, update in enumerate(key["updates"]):
            derivation.process(transform, {"k": k, "u": update})
            out.append({"k": k, "seq": seq, **derivation._exposed(derivation.registers_by_key[(k,)])})
    return out


def input_rows(case: list[dict]) -> list[str]:
    rows = []
    for k, key in enumerate(case):
        stored = stored_register(key) if key["written"] else {}
        for seq, update in enumerate(key["updates"]):
            values = [str(k), str(seq)]
            for name, r in REGISTERS.items():
                values += [literal(stored.get(name), r[0]), literal(update[name], r[0])]
            rows.append("(" + ", ".join(values) + ")")
    return rows


def normal(value):
    if hasattr(value, "asDict"):
        return {f: value[f] for f in FIELDS}
    return list(value) if isinstance(value, (list, tuple)) else value


def no_update() -> dict:
    return {name: None for name in REGISTERS}


def update(**values) -> dict:
    return {**no_update(), **values}


EDGE_CASES = [
    [{"written": False, "stored": no_update(), "updates": [no_update()]}],   # never written, nothing updated
    [{"written": True, "stored": update(total=3, latest=2, earliest=8, log=[2], seen=[1, 2]),
      "updates": [update(total=1, latest=None, earliest=6, log=[], seen=[2, 3]), update(total=-4, latest=5, seen=[1])]}],
    [{"written": False, "stored": no_update(),
      "updates": [update(merged={"a": None, "b": 3, "c": None, "d": None}), update(merged={"a": 2, "b": -1, "c": 5, "d": 6})]},
     {"written": True, "stored": update(merged={"a": 4, "b": None, "c": None, "d": 2}),
      "updates": [update(merged={"a": 1, "b": 2, "c": 3, "d": 7})]}],
]


@pytest.mark.parametrize("fold", ["window", "step"])
@fast_property(cases, EDGE_CASES)
def test_each_register_reads_after_each_document_what_the_reference_reads(project, fold_sql, fold, case):
    """Both folds: the window functions (no update reads the register) and the sequential steps."""
    table, compiled = fold_sql
    sql = compiled[fold]
    project.runner.execute(f"truncate table {table}")
    project.runner.execute(f"insert into {table} values {', '.join(input_rows(case))}")
    # a minimize or maximize by a key merges equal keys in order: folded only step by step
    names = ["k", "seq", *(n for n, r in REGISTERS.items() if fold == "step" or not (isinstance(r[1], dict) and "key" in r[1]))]
    got = sorted(({n: normal(v) for n, v in zip(names, r, strict=True)} for r in project.rows(sql)), key=lambda r: (r["k"], r["seq"]))
    assert got == [{n: r[n] for n in names} for r in expected(case)], case

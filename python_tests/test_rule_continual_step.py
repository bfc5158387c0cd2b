"""Fast tier: one step of a continual task, as tideline writes it in SQL, against the reference.

A continual task's step is one select (macros/continual_task/step_sql.sql: `task_step_sql`) over
the output's live rows before the step (its data table: inserted rows of committed runs, less
those a committed run deleted) and the input's rows committed at the step's time: the rows it
deletes and the rows it inserts, or, in a compacting step, the whole output after the step.
Here the seed's upsert (a delete, then an insert), the same upsert with two statements that read
no input (a constant insert, a delete of negative values: they write nothing, as a Materialize
task reacts to its inputs only) and the running totals (an insert that reads `{{ this }}`) are
declared as statement blocks, their statements rendered by tideline's own
task_step_text (each tideline.input() standing for the step's rows), compiled once by dbt into
the step's select for a plain and a compacting step, then run in this process's SparkSession on
random tiny tables (temporary views): an output of any rows (keys repeated or not), an input with rows at the step's
time and at other times (which the step must not see), duplicates, negative values. The output
after the step must equal what reference_continual's step gives from the same output and the
same rows.

About 0.2 s an example (two temporary views, a query).
"""

from __future__ import annotations

import datetime as dt
import re

import pytest
from hypothesis import strategies as st

from harness import fast_property, rows_equal, temp_view
from reference_continual import running_totals, upsert

pytestmark = pytest.mark.fast

STEP = dt.datetime(2025, 5, 1, 10, 0)
OTHER_TIMES = (STEP - dt.timedelta(hours=1), STEP + dt.timedelta(minutes=1))
INPUT = "tl_filtered_events"   # a model of the project: tideline.input() resolves it with ref()

# The tasks: output columns, then the statement blocks as a model file declares them (collected
# here as collect_model_definitions collects a model's: tideline.model_definitions_collector()).
TASKS = {
    "upsert": ("{'key': 'int', 'val': 'int'}", """
{% call tideline.task_delete() %} key in (select key from {{ tideline.input('INPUT') }}) {% endcall %}
{% call tideline.task_insert() %} select key, max(val) as val from {{ tideline.input('INPUT') }} group by key {% endcall %}
"""),
    "running_totals": ("{'key': 'int', 'total': 'bigint', 'loaded_at': 'timestamp'}", """
{% call tideline.task_insert(columns=['key', 'total', 'loaded_at']) %}
    with previous as (select key, max_by(total, loaded_at) as total from {{ this }} group by key)
    select s.key, coalesce(max(p.total), 0) + sum(s.val) as total, max(s.load_tstamp) as loaded_at
    from {{ tideline.input('INPUT') }} as s
    left join previous as p on s.key = p.key
    group by s.key
{% endcall %}
"""),
    # the upsert with two statements that read no input, which write nothing (as in Materialize):
    # a constant row, and a delete of the output's negative values
    "upsert_inputless": ("{'key': 'int', 'val': 'int'}", """
{% call tideline.task_insert() %} select 99 as key, 99 as val {% endcall %}
{% call tideline.task_delete() %} key in (select key from {{ tideline.input('INPUT') }}) {% endcall %}
{% call tideline.task_delete() %} val < 0 {% endcall %}
{% call tideline.task_insert() %} select key, max(val) as val from {{ tideline.input('INPUT') }} group by key {% endcall %}
"""),
}
# One step's select of a task, plain and compacting, split by a marker line (when dbt executes:
# its parse has no config inputs yet).
TEMPLATE = """
-- depends_on: {{ ref('INPUT') }}
{{ config(inputs=['INPUT']) }}
{%- if execute -%}
{%- do model.update({'tideline_definitions': []}) -%}
STATEMENTS
{%- set statements = model.pop('tideline_definitions') -%}
{%- set columns = COLUMNS -%}
{%- for st in statements -%}
    {%- do st.update({'index': loop.index, 'legacy': false, 'columns': st.columns or (columns | list)}) -%}
    {%- set probe = tideline.task_input_probe(['INPUT']) -%}
    {%- set text = tideline.task_step_text(st, probe) -%}
    {%- do st.update({'has_where': text != '', 'reads_input': tideline.task_reads_input(text, probe)}) -%}
{%- endfor -%}
{%- set settings = {'name': 'fast_task', 'columns': columns.items() | list, 'inputs': [{'name': 'INPUT', 'commit_column': 'load_tstamp', 'columns': ['key', 'val', 'load_tstamp']}],
                    'statements': statements, 'reads_output': true, 'output': this | string, 'deletes': true} -%}
{%- set step = {'time': 'STEP', 'upto': false} -%}
{{ tideline.task_step_sql(settings, 'DATA', step, 'r2', {'compact': false, 'read_gen': '0', 'write_gen': '0', 'runs': ['r1']}) }}
-- SPLIT --
{{ tideline.task_step_sql(settings, 'DATA', step, 'r2', {'compact': true, 'read_gen': '0', 'write_gen': '1', 'runs': ['r1']}) }}
{%- endif -%}
"""
COLUMNS = {"upsert": ["key", "val"], "upsert_inputless": ["key", "val"], "running_totals": ["key", "total", "loaded_at"]}
TYPES = {"key": "int", "val": "int", "total": "bigint", "loaded_at": "timestamp"}


@pytest.fixture(scope="module")
def step_sql(project):
    """{task: (its data table, plain step select, compacting step select)}: the data tables and
    the input are temporary views, replaced for each example (no file written)."""
    out = {}
    for task, (columns, statements) in TASKS.items():
        data = f"fast_{task}_data"
        template = (TEMPLATE.replace("STATEMENTS", statements).replace("COLUMNS", columns).replace("INPUT", INPUT)
                    .replace("STEP", str(STEP)).replace("DATA", data))
        compiled = project.dbt("compile", "--inline", template).result.results[0].node.compiled_code
        # the input's relation as ref() resolved it: the example's input view instead
        plain, compacting = (re.sub(rf"[\w`.]*\b{INPUT}\b`?", "fast_step_input", part) for part in compiled.split("-- SPLIT --", 1))
        assert "tideline:step" not in plain and "load_tstamp = timestamp'2025-05-01 10:00:00'" in plain, plain
        # an input at a step is its own columns (tideline's `_tl_*` of an input that is a tideline output left out)
        assert f"(select key, val, load_tstamp from fast_step_input where load_tstamp = " in plain, plain
        out[task] = (data, plain, compacting)
    return out


def output_rows(task: str, draws: list[tuple[int, int]]) -> list[dict]:
    """The output before the step: each drawn (key, value) a row; running totals get distinct
    load times (the newest total of a key is then one row)."""
    if task != "running_totals":
        return [{"key": k, "val": v} for k, v in draws]
    return [{"key": k, "total": v, "loaded_at": STEP - dt.timedelta(hours=2, minutes=i)} for i, (k, v) in enumerate(draws)]


row = st.tuples(st.integers(0, 4), st.integers(-5, 20))
cases = st.fixed_dictionaries({
    "task": st.sampled_from(sorted(TASKS)),
    "compact": st.booleans(),
    "output": st.lists(row, max_size=5),
    "at_step": st.lists(row, max_size=5),                                    # the input's rows at the step
    "other": st.lists(st.tuples(row, st.sampled_from(OTHER_TIMES)), max_size=3),   # rows at other commit times
})
EDGE_CASES = [
    {"task": task, "compact": compact, "output": output, "at_step": at_step, "other": other}
    for task in sorted(TASKS) for compact in (False, True)
    for output, at_step, other in (
        ([], [], []),                                         # nothing at all
        ([(1, 5)], [], [((1, 9), OTHER_TIMES[0])]),           # only rows of other steps: no change
        ([], [(1, 3)], []),                                   # one row, empty output
        ([(1, 5), (2, 6)], [(1, 3), (1, 3)], []),             # a duplicate at the step
        ([(1, 5), (1, 7)], [(1, -2)], [((1, 4), OTHER_TIMES[1])]),   # a key twice in the output, a later row
    )
]


@fast_property(cases, EDGE_CASES)
def test_a_step_gives_the_output_the_reference_step_gives(project, step_sql, case):
    task, columns = case["task"], COLUMNS[case["task"]]
    data, plain, compacting = step_sql[task]
    before = output_rows(task, case["output"])
    inputs = [{"key": k, "val": v, "load_tstamp": STEP} for k, v in case["at_step"]] + \
             [{"key": k, "val": v, "load_tstamp": t} for (k, v), t in case["other"]]
    layout = {c: TYPES[c] for c in columns} | {"_tl_row": "string", "_tl_op": "string", "_tl_batch": "timestamp",
                                              "_tl_run": "string", "tl_gen": "string"}
    temp_view(project.runner, data, layout, [{**r, "_tl_row": f"r1|{i}", "_tl_op": "insert", "_tl_batch": STEP - dt.timedelta(hours=2),
                                          "_tl_run": "r1", "tl_gen": "0"} for i, r in enumerate(before)])
    temp_view(project.runner, "fast_step_input", {"key": "int", "val": "int", "load_tstamp": "timestamp"}, inputs)
    got = project.runner.rows(f"select {', '.join(columns)}, _tl_row, _tl_op from ({compacting if case['compact'] else plain})")
    if case["compact"]:
        assert all(r[-1] == "insert" for r in got), got
        after = [dict(zip(columns, r[:len(columns)])) for r in got]
    else:
        deleted = {r[-2] for r in got if r[-1] == "delete"}
        assert deleted <= {f"r1|{i}" for i in range(len(before))}, got
        after = [r for i, r in enumerate(before) if f"r1|{i}" not in deleted] + \
                [dict(zip(columns, r[:len(columns)])) for r in got if r[-1] == "insert"]
    step = running_totals if task == "running_totals" else upsert
    expected = step(before, [r for r in inputs if r["load_tstamp"] == STEP], {})
    assert rows_equal(after, expected), f"{task}: {after} != {expected}"

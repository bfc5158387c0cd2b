"""Stand-ins for tideline's macros while sqlfluff lints (its jinja templater cannot call them).

sqlfluff exposes this package as `tideline` in the templates it lints. Every macro becomes a
function returning a neutral piece of SQL of the right shape, so the SQL around the call
parses; what the macros generate is tested for real by the python_tests suite.
"""


def _macro(name):
    def stand_in(*args, **kwargs):
        if name == "transform":  # a derivation's transform: its publish lambda, the call block's body (one statement each)
            return kwargs["caller"]().rstrip() + ";\n" if "caller" in kwargs else ""
        if name == "task_insert":  # a continual task's insert block: its select
            return "insert into _tl_output\n" + kwargs["caller"]().strip() + ";"
        if name == "task_delete":  # a continual task's delete block: its condition
            return "delete from _tl_output" + (" where " + kwargs["caller"]().strip() if "caller" in kwargs else "") + ";"
        if name == "document":
            return "_tl_document"
        if name in ("input", "input_deletes"):  # a continual task's input at the step: a relation
            return "_tl_input"
        if name == "reference":  # a continual task's reference as of the step: a relation
            return "_tl_reference"
        if name == "derivation_registers":  # a derivation's registers: a relation
            return "_tl_registers"
        if name in ("filtered_events", "source_events", "events_this_run"):
            return name
        if name.startswith("attribute_view_"):  # a model generated from an attribute view: a select
            return "select 1 as generated"
        if name.startswith("channel_"):  # an epoch query over a channel: a subquery
            return "(select 1) as channel_items"
        if name.endswith("_list"):
            return "(null)"
        if name.endswith("_sql"):
            return "select null"
        if name.endswith("predicate") or name.startswith("in_"):
            return "true"
        if name.startswith("var_"):
            return 0
        return "null"

    return stand_in


def __getattr__(name):
    if name.startswith("__"):
        raise AttributeError(name)
    return _macro(name)

"""Reading the merge path's example model (models/examples/daily_user_activity_merged) as the
Python reference's daily_user_activity rows: the first and last operating system from their
structs, the distinct operating systems from their HLL sketch (exact at the suite's few values)."""

from __future__ import annotations

from reference import Pipeline

MERGED = "daily_user_activity_merged"
READ = ["event_date", "attribute_key", "event_count", "page_views", "page_pings", "transactions",
        "round(revenue, 6) as revenue", "first_event_tstamp", "last_event_tstamp",
        "first_os.os_family as first_os_family", "last_os.os_family as last_os_family",
        "hll_sketch_estimate(os_sketch) as os_count"]


def _order(row: dict) -> tuple:
    return row["event_date"], str(row["attribute_key"])


def merged_rows(project, model: str = MERGED) -> list[dict]:
    """The merged view's rows (none when it does not exist yet), in a canonical order."""
    if not project.exists(model):
        return []
    names = [c.split(" as ")[-1] for c in READ]
    rows = [dict(zip(names, r)) for r in project.rows(f"select {', '.join(READ)} from {project.fresh(model)}")]
    return sorted(rows, key=_order)


def expected_rows(reference: Pipeline) -> list[dict]:
    """The reference's daily_user_activity as merged_rows reads the merged model."""
    out = []
    for r in reference.daily_user_activity():
        row = {k: v for k, v in r.items() if k != "os_families"}
        row["os_count"] = len([o for o in r["os_families"] if o is not None])
        out.append(row)
    return sorted(out, key=_order)

"""An independent reference of attribute views, in plain Python.

It reads a view's definition from its YAML file and computes, from the events a daily aggregate
reflects, the attributes table as the README's "Attribute views" documents it: the attribute's
events and criteria (`!=` null-safe), its period in whole days ending on the reference day (or
the day before), values that are null left out, first/last by (derived_tstamp, event_id),
unique lists sorted, a default_value over a period without values. A view exported from
Snowplow Signals is read with its own translation (view_from_signals). No SQL of the models
is used.
"""

from __future__ import annotations

import datetime as dt
import re
from collections import defaultdict
from pathlib import Path

import yaml

BASE_COLUMNS = ("event_id", "derived_tstamp", "event_vendor", "event_name", "event_version")


def view_of(yaml_file: Path, model: str) -> dict:
    """The attribute view declared in the config of `model` in `yaml_file`."""
    doc = yaml.safe_load(yaml_file.read_text())
    for m in doc["models"]:
        if m["name"] == model:
            return m["config"]["meta"]["attribute_view"]
    raise KeyError(model)


SIGNALS_ENTITY_KEYS = {"user": "domain_userid", "session": "domain_sessionid"}


def _snake(name: str) -> str:
    return re.sub(r"([a-z0-9])([A-Z])", r"\1_\2", name).lower()


def _signals_property(p) -> str | None:
    """A Signals property (Snowflake syntax `col[0]:jsonName`, or an object) as a Spark path."""
    if p is None or (isinstance(p, str) and ":" not in p):
        return p
    if isinstance(p, str):
        column, path = p.split(":", 1)
        return f"{column}.{'.'.join(_snake(part) for part in path.split('.'))}"
    if p.get("type", "atomic") == "atomic":
        return p["name"]
    prefix = "unstruct_event" if p["type"] == "event" else "contexts"
    column = f"{prefix}_{p['vendor'].replace('.', '_')}_{_snake(p['name'])}_{p['major_version']}"
    if p["type"] == "entity":
        column += f"[{p.get('index', 0)}]"
    path = p.get("path", "").removeprefix("$").removeprefix(".")
    return f"{column}.{'.'.join(_snake(part) for part in path.split('.'))}" if path else column


def _signals_period(period) -> str | None:
    if period is None:
        return None
    if isinstance(period, (int, float)):
        seconds = period
    else:
        m = re.fullmatch(r"P(?:(\d+)D)?(?:T(?:(\d+)H)?)?", period)
        seconds = int(m.group(1) or 0) * 86400 + int(m.group(2) or 0) * 3600
    assert seconds % 86400 == 0, period
    return f"P{int(seconds // 86400)}D"


def view_from_signals(export: dict) -> dict:
    """A view as Snowplow Signals exports it, in this reference's (tideline's) form."""
    view = {"name": export["name"], "attribute_key": SIGNALS_ENTITY_KEYS.get(export["entity"]["name"], export["entity"]["name"])}
    for key in ("include_current_day", "first_last"):
        if key in export:
            view[key] = export[key]
    view["attributes"] = []
    for a in export["attributes"]:
        criteria = {j: [{**c, "property": _signals_property(c["property"])} for c in items]
                    for j, items in (a.get("criteria") or {}).items() if items is not None}
        view["attributes"].append({
            "name": a["name"], "type": a["type"], "events": a["events"], "aggregation": a["aggregation"],
            "property": _signals_property(a.get("property")), "criteria": criteria or None,
            "period": _signals_period(a.get("period")), "default_value": a.get("default_value")})
    return view


def paths(view: dict) -> list[str]:
    """Every column or path the view reads (its key, properties and criteria properties)."""
    found = [view["attribute_key"]]
    for a in view["attributes"]:
        if a.get("property"):
            found.append(a["property"])
        for items in (a.get("criteria") or {}).values():
            found.extend(c["property"] for c in items)
    return list(dict.fromkeys(found))


def select_list(view: dict) -> str:
    """The SQL select list that reads the events' values for the reference: the base columns
    and each path under its own name."""
    return ", ".join(list(BASE_COLUMNS) + [f"{p} as `{p}`" for p in paths(view) if p not in BASE_COLUMNS])


def period_days(period: str | None) -> int | None:
    if period is None:
        return None
    m = re.fullmatch(r"P(?:(\d+)D|(\d+)W|T(\d+)H)", period)
    return int(m.group(1)) if m.group(1) else int(m.group(2)) * 7 if m.group(2) else int(m.group(3)) // 24


def _like(value: str, pattern: str) -> bool:
    regex = "".join(".*" if ch == "%" else "." if ch == "_" else re.escape(ch) for ch in pattern)
    return re.fullmatch(regex, value, re.S) is not None


def _holds(c: dict, event: dict) -> bool:
    v = event[c["property"]]
    op, want = c["operator"], c.get("value")
    if op == "is null":
        return v is None
    if op == "is not null":
        return v is not None
    if op == "!=":
        return v is None or v != want
    if v is None:
        return False
    return {
        "=": lambda: v == want, "<": lambda: v < want, "<=": lambda: v <= want, ">": lambda: v > want,
        ">=": lambda: v >= want, "in": lambda: v in want, "like": lambda: _like(v, want),
    }[op]()


def _counts(a: dict, event: dict) -> bool:
    kinds = a["events"]
    if not any(event["event_vendor"] == e["vendor"] and event["event_name"] == e["name"]
               and (e.get("version") is None or event["event_version"] == e["version"]) for e in kinds):
        return False
    criteria = a.get("criteria") or {"all": []}
    (joiner, items), = criteria.items()
    results = [_holds(c, event) for c in items]
    return all(results) if joiner == "all" else any(results)


def _default(a: dict):
    """An attribute's default_value, of its declared type (a whole number is a float's 0.0)."""
    value = a["default_value"]
    return float(value) if a["type"] in ("float", "double") else value


def _of_view(view: dict, event: dict) -> bool:
    """Whether the event is one of the view's (of any attribute's events, criteria aside)."""
    return any(_counts({"events": a["events"]}, event) for a in view["attributes"])


def attributes(view: dict, events: list[dict], reference_day: dt.date, include_current_day: bool | None = None) -> list[dict]:
    """The attributes table: a row per key with an event on a date up to the last day."""
    include = view.get("include_current_day", True) if include_current_day is None else include_current_day
    last = reference_day if include else reference_day - dt.timedelta(days=1)
    key = view["attribute_key"]
    by_key: dict[str, list[dict]] = defaultdict(list)
    for e in events:
        if e[key] is not None and e["derived_tstamp"].date() <= last:
            by_key[e[key]].append(e)
    out = []
    for k, evs in by_key.items():
        row = {key: k}
        for a in view["attributes"]:
            n = period_days(a.get("period"))
            first_day = None if n is None else last - dt.timedelta(days=n - 1)
            matched = [e for e in evs if (first_day is None or e["derived_tstamp"].date() >= first_day) and _counts(a, e)]
            agg = a["aggregation"]
            if agg == "counter":
                row[a["name"]] = len(matched)
                continue
            if agg in ("first", "last") and view.get("first_last") == "view_events":
                # Signals: the value at the view's first (last) event, null unless that event is
                # one of the attribute's and has a value
                of_view = sorted((e["derived_tstamp"], e["event_id"], e) for e in evs
                                 if (first_day is None or e["derived_tstamp"].date() >= first_day) and _of_view(view, e))
                at = (of_view[0] if agg == "first" else of_view[-1])[2] if of_view else None
                row[a["name"]] = at[a["property"]] if at is not None and _counts(a, at) else None
                if a.get("default_value") is not None and row[a["name"]] is None:
                    row[a["name"]] = _default(a)
                continue
            values = [(e["derived_tstamp"], e["event_id"], e[a["property"]]) for e in matched if e[a["property"]] is not None]
            plain = [v for _, _, v in values]
            row[a["name"]] = {
                "sum": lambda: sum(plain) if plain else (0.0 if a["type"] in ("float", "double") else 0),
                "min": lambda: min(plain) if plain else None,
                "max": lambda: max(plain) if plain else None,
                "mean": lambda: sum(plain) / len(plain) if plain else None,
                "first": lambda: min(values)[2] if values else None,
                "last": lambda: max(values)[2] if values else None,
                "unique_list": lambda: sorted(set(plain)),
            }[agg]()
            if a.get("default_value") is not None and row[a["name"]] in (None, []):
                row[a["name"]] = _default(a)
        out.append(row)
    return out

"""Fast tier: an attribute view's periods and reference days against the reference, over random
events in random orders (issue 37, item 4).

The view below (every aggregation, periods of one day to a week and the lifetime, criteria, a
default value) is rendered by dbt (`dbt compile --inline`, no run): its daily aggregate's select
once per first_last setting, kept as views over a small `tl_filtered_events` table, and its
attributes table's select once per reference day (the var tideline__attributes_as_of: before,
inside and after the events' days) and include_current_day. Each example writes random events
(several users, up to twelve days, ties on derived_tstamp, null properties, events the view does
not list) in a random order and compares every rendering's rows with
reference_attributes.attributes over the same events: the periods' first and last days, the
reference day with and without the current day, first and last values over the attribute's own
events or the view's, and the defaults over empty periods.
"""

from __future__ import annotations

import datetime as dt
import json

import pytest
from hypothesis import strategies as st

import reference_attributes as ref_attrs
from harness import assert_rows_equal, fast_property, named_rows, replace_rows

pytestmark = pytest.mark.fast

START = dt.date(2025, 4, 1)
AS_OF = {"before": START + dt.timedelta(days=4), "inside": START + dt.timedelta(days=8), "after": START + dt.timedelta(days=13)}
SNOWPLOW = "com.snowplowanalytics.snowplow"
PAGE_VIEW = {"vendor": SNOWPLOW, "name": "page_view", "version": "1-0-0"}
LINK_CLICK = {"vendor": SNOWPLOW, "name": "link_click", "version": None}
TRANSACTION = {"vendor": SNOWPLOW, "name": "transaction", "version": None}
ATTRIBUTES = [
    {"name": "views_today", "type": "int64", "events": [PAGE_VIEW], "aggregation": "counter", "period": "P1D"},
    {"name": "a_clicks_3d", "type": "int32", "events": [LINK_CLICK], "aggregation": "counter", "period": "P3D",
     "criteria": {"all": [{"property": "page_urlpath", "operator": "like", "value": "/a%"}]}},
    {"name": "revenue_week", "type": "double", "events": [TRANSACTION], "aggregation": "sum", "property": "tr_total", "period": "P1W"},
    {"name": "mean_order", "type": "double", "events": [TRANSACTION], "aggregation": "mean", "property": "tr_total"},
    {"name": "smallest_order_3d", "type": "double", "events": [TRANSACTION], "aggregation": "min", "property": "tr_total", "period": "PT72H"},
    {"name": "largest_order_2d", "type": "double", "events": [TRANSACTION], "aggregation": "max", "property": "tr_total", "period": "P2D",
     "default_value": 0.0},
    {"name": "first_country", "type": "string", "events": [PAGE_VIEW, LINK_CLICK], "aggregation": "first", "property": "geo_country"},
    {"name": "last_country_3d", "type": "string", "events": [PAGE_VIEW], "aggregation": "last", "property": "geo_country", "period": "P3D"},
    {"name": "first_path_week", "type": "string", "events": [PAGE_VIEW], "aggregation": "first", "property": "page_urlpath",
     "period": "P1W", "default_value": "(none)"},
    {"name": "paths_2d", "type": "string_list", "events": [PAGE_VIEW, LINK_CLICK], "aggregation": "unique_list",
     "property": "page_urlpath", "period": "P2D"},
]
COLUMNS = {"event_id": "string", "derived_tstamp": "timestamp", "event_date": "date", "event_vendor": "string",
           "event_name": "string", "event_version": "string", "domain_userid": "string", "geo_country": "string",
           "page_urlpath": "string", "tr_total": "double"}
FIRST_LAST = ("attribute_events", "view_events")


def view(first_last: str, include: bool) -> dict:
    return {"name": "periods", "attribute_key": "domain_userid", "include_current_day": include, "first_last": first_last,
            "attributes": ATTRIBUTES}


def render(project, sql: str, as_of: dt.date | None = None) -> str:
    settings = {"tideline__now": "2025-04-20 06:00"}
    if as_of:
        settings["tideline__attributes_as_of"] = as_of.isoformat()
    return project.dbt("compile", "--inline", sql, vars=settings).result.results[0].node.compiled_code


@pytest.fixture(scope="module")
def renderings(project):
    """{(first_last, include, as_of): the attributes table's select}, over views of the daily
    aggregate's select (one per first_last) over the table tl_filtered_events."""
    project.reset()
    project.runner.execute(f"create schema if not exists {project.schema}")
    columns = ", ".join(f"{c} {t}" for c, t in COLUMNS.items())
    project.runner.execute(f"create table {project.schema}.tl_filtered_events ({columns}) using parquet")
    schema = json.dumps({c: t for c, t in COLUMNS.items()})
    out = {}
    for first_last in FIRST_LAST:
        definition = f"tideline.attribute_view_definition(fromjson('{json.dumps(view(first_last, True))}'), 'periods')"
        daily = render(project, f"{{{{ tideline.attribute_view_daily_sql({definition}, fromjson('{schema}')) }}}}")
        project.runner.execute(f"create or replace view {project.schema}.periods_daily_{first_last} as {daily}")
    for name, as_of in AS_OF.items():
        for first_last in FIRST_LAST:
            for include in (True, False):
                definition = f"tideline.attribute_view_definition(fromjson('{json.dumps(view(first_last, include))}'), 'periods')"
                daily = f"api.Relation.create(schema='{project.schema}', identifier='periods_daily_{first_last}')"
                out[first_last, include, name] = render(
                    project, f"{{{{ tideline.attribute_view_attributes_sql({definition}, {daily}) }}}}", as_of)
    return out


events = st.lists(st.fixed_dictionaries({
    "user": st.sampled_from(["u1", "u2", "u3", None]),
    "day": st.integers(0, 11),
    "hour": st.sampled_from([0, 9, 9, 23]),          # ties on derived_tstamp within a day
    "kind": st.sampled_from(["page_view", "page_view", "link_click", "transaction", "page_ping"]),
    "version": st.sampled_from(["1-0-0", "1-0-0", "2-0-0"]),
    "geo_country": st.sampled_from(["DE", "FR", None]),
    "page_urlpath": st.sampled_from(["/a", "/a/b", "/b", None]),
    "tr_total": st.sampled_from([None, 5.0, 12.5, 0.0]),
}), max_size=18)
cases = st.fixed_dictionaries({
    "events": events,
    "order": st.randoms(use_true_random=False),
    "first_last": st.sampled_from(FIRST_LAST),
    "include": st.booleans(),
    "as_of": st.sampled_from(sorted(AS_OF)),
})


def event_rows(case: dict) -> list[dict]:
    rows = []
    for i, e in enumerate(case["events"]):
        tstamp = dt.datetime.combine(START + dt.timedelta(days=e["day"]), dt.time(e["hour"]))
        rows.append({"event_id": f"e{i:03d}", "derived_tstamp": tstamp, "event_date": tstamp.date(), "event_vendor": SNOWPLOW,
                     "event_name": e["kind"], "event_version": e["version"], "domain_userid": e["user"],
                     "geo_country": e["geo_country"], "page_urlpath": e["page_urlpath"],
                     "tr_total": e["tr_total"] if e["kind"] == "transaction" else None})
    case["order"].shuffle(rows)
    return rows


def edge(events: list[dict], **settings) -> dict:
    import random

    base = {"user": "u1", "day": 5, "hour": 9, "kind": "page_view", "version": "1-0-0", "geo_country": "DE",
            "page_urlpath": "/a", "tr_total": None}
    return {"events": [{**base, **e} for e in events], "order": random.Random(0), "first_last": "attribute_events",
            "include": True, "as_of": "inside", **settings}


EDGE_CASES = [
    edge([]),                                                                    # no events at all
    edge([{}]),                                                                  # one event
    edge([{"day": 8}, {"day": 8, "kind": "link_click", "page_urlpath": "/a/b"}], include=False),  # only on the reference day
    edge([{"day": 2}, {"day": 8, "geo_country": None}]),                        # the 3-day period's first day, a null last value
    edge([{"day": 2, "kind": "transaction", "tr_total": 5.0}, {"day": 8, "kind": "link_click", "geo_country": "FR"}],
         first_last="view_events"),                                              # the view's last event is not the attribute's
    edge([{"hour": 9, "geo_country": "FR"}, {"hour": 9, "geo_country": "DE"}], first_last="view_events"),  # a tie
    edge([{"day": 11}], as_of="before"),                                        # every event after the reference day
    edge([{"day": 0, "kind": "transaction", "tr_total": 12.5}], as_of="after"),  # defaults over empty periods
]


@fast_property(cases, EDGE_CASES)
def test_the_attributes_of_each_period_and_reference_day_equal_the_reference(project, renderings, case):
    rows = event_rows(case)
    replace_rows(project.runner, f"{project.schema}.tl_filtered_events", list(COLUMNS), rows)
    sql = renderings[case["first_last"], case["include"], case["as_of"]]
    got = named_rows(project.runner, sql)
    the_view = view(case["first_last"], case["include"])
    expected = ref_attrs.attributes(the_view, rows, AS_OF[case["as_of"]], case["include"])
    assert_rows_equal(got, expected, label=f"{case['first_last']}, include {case['include']}, as of {case['as_of']}")


def worked_event(event_id: str, user: str, day: int, hour: int, kind: str, **values) -> dict:
    tstamp = dt.datetime.combine(START + dt.timedelta(days=day), dt.time(hour))
    return {"event_id": event_id, "derived_tstamp": tstamp, "event_date": tstamp.date(), "event_vendor": SNOWPLOW,
            "event_name": kind, "event_version": values.get("version", "1-0-0"), "domain_userid": user,
            "geo_country": values.get("geo"), "page_urlpath": values.get("path"), "tr_total": values.get("tr")}


# A worked example, as of 2025-04-09 with the day included: u1 buys (7.0) before its first page
# view on 04-03, clicks /a/b on 04-08, views /b from NL on 04-09 and buys (5.0) at its end; u2
# only views a page of another version and pings, none of them events of the view.
WORKED_EVENTS = [
    worked_event("e0", "u1", 2, 8, "transaction", tr=7.0),
    worked_event("e1", "u1", 2, 9, "page_view", geo="DE", path="/a"),
    worked_event("e2", "u1", 7, 9, "link_click", geo="FR", path="/a/b"),
    worked_event("e3", "u1", 8, 0, "page_view", geo="NL", path="/b"),
    worked_event("e4", "u1", 8, 23, "transaction", tr=5.0),
    worked_event("e5", "u2", 8, 9, "page_view", version="2-0-0", geo="SE", path="/c"),
    worked_event("e6", "u2", 8, 9, "page_ping", geo="NO"),
]
U1 = {"domain_userid": "u1", "views_today": 1, "a_clicks_3d": 1, "revenue_week": 12.0, "mean_order": 6.0,
      "smallest_order_3d": 5.0, "largest_order_2d": 5.0, "paths_2d": ["/a/b", "/b"]}
U2 = {"domain_userid": "u2", "views_today": 0, "a_clicks_3d": 0, "revenue_week": 0.0, "mean_order": None,
      "smallest_order_3d": None, "largest_order_2d": 0.0, "first_country": None, "last_country_3d": None,
      "first_path_week": "(none)", "paths_2d": []}
WORKED_EXPECTED = {
    # tideline's rule: the first and last values among the attribute's own events
    "attribute_events": [{**U1, "first_country": "DE", "last_country_3d": "NL", "first_path_week": "/a"}, U2],
    # Signals': the values at the view's first and last events; u1's first event of the view is
    # a transaction (no country, no path: the default), its last in the 3 days one too
    "view_events": [{**U1, "first_country": None, "last_country_3d": None, "first_path_week": "(none)"}, U2],
}


@pytest.mark.parametrize("first_last", FIRST_LAST)
def test_a_worked_example_gives_the_attributes_written_out_by_hand(project, renderings, first_last):
    """Issue 37, item 4: whole-table expectations written out by hand (not computed by the
    reference) for both first_last settings, on events where they differ."""
    replace_rows(project.runner, f"{project.schema}.tl_filtered_events", list(COLUMNS), WORKED_EVENTS)
    sql = renderings[first_last, True, "inside"]
    got = named_rows(project.runner, sql)
    assert_rows_equal(got, WORKED_EXPECTED[first_last], label=first_last)
    # the reference agrees, so the property test above checks the same rule
    assert_rows_equal(ref_attrs.attributes(view(first_last, True), WORKED_EVENTS, AS_OF["inside"], True),
                      WORKED_EXPECTED[first_last], label=f"the reference, {first_last}")

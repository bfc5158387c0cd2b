"""An independent reference of the time-based pipeline, in plain Python.

It follows the rules as documented (README, macros/incremental/run_limits.sql,
days_to_process.sql, macros/incremental/filtered_events.sql) from the raw source rows, with no
SQL of the models: the tests compare dbt's tables with what this computes.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from collections import defaultdict
from typing import Iterable

EVENT_COLUMNS = ("event_id", "load_tstamp", "dvce_created_tstamp", "derived_tstamp", "collector_tstamp",
                 "event_fingerprint", "app_id", "event_name", "domain_userid", "tr_total", "os_family", "load_date")
MICRO = dt.timedelta(microseconds=1)


def source_rows(project) -> list[dict]:
    rows = project.rows(f"select {', '.join(EVENT_COLUMNS)} from {project.events_table}")
    return [dict(zip(EVENT_COLUMNS, r)) for r in rows]


@dataclasses.dataclass
class Settings:
    start_date: dt.date
    backfill_limit_days: int = 30
    reprocess_days: int = 7
    min_rows_to_process: int = 1
    dedupe_lookback_days: int = 3
    app_ids: tuple[str, ...] = ()

    def vars(self) -> dict:
        return {
            "tideline__start_date": self.start_date.isoformat(),
            "tideline__backfill_limit_days": self.backfill_limit_days,
            "tideline__reprocess_days": self.reprocess_days,
            "tideline__min_rows_to_process": self.min_rows_to_process,
            "tideline__dedupe_lookback_days": self.dedupe_lookback_days,
            "tideline__app_id": list(self.app_ids),
        }


def date_decision(event_date: dt.date, new_rows: int, late_rows: int, skipped_before: int, now: dt.datetime,
                  s: Settings) -> tuple[bool, int]:
    """(processed, pending) of a daily aggregate's date in an incremental run, as documented: a
    date with on-time rows is processed; a late one when its pending rows (skipped before + late)
    reach min_rows_to_process and it is within reprocess_days of now's date."""
    on_time = new_rows - late_rows
    pending = skipped_before + late_rows
    recent = event_date >= now.date() - dt.timedelta(days=s.reprocess_days)
    return on_time > 0 or (pending >= s.min_rows_to_process and recent), pending


def _rank(row: dict) -> tuple:
    """The order in which copies of an event compete (first load, then device time, then the other
    timestamps and the fingerprint); a missing value ranks first, as in an ascending SQL order."""
    return tuple((v is not None, v) for v in (row["load_tstamp"], row["dvce_created_tstamp"], row["derived_tstamp"],
                                              row["collector_tstamp"], row["event_fingerprint"]))


class Pipeline:
    """The state a sequence of runs leaves: filtered events, and per date what the aggregate reflects."""

    def __init__(self, settings: Settings):
        self.s = settings
        self.watermark: dt.datetime | None = None
        self.filtered: dict[str, dict] = {}            # event_id -> row (with _batch)
        self.reflected: dict[dt.date, set[str]] = {}   # date -> event_ids the aggregate reflects
        self.skipped: dict[dt.date, int] = {}
        self.aggregate_built = False
        self.windows: list[tuple] = []
        self.counts: list[dict] = []                   # per run: what its run row records

    def run(self, rows: Iterable[dict], now: dt.datetime, settings: Settings | None = None) -> None:
        s = settings or self.s
        rows = list(rows)
        start = dt.datetime.combine(self.s.start_date, dt.time())
        lower = self.watermark if self.watermark is not None else start - MICRO
        # the range's first day: a first run's range begins on the start date (its lower limit
        # is a microsecond before it, to include it)
        first_day = lower.date() if self.watermark is not None else self.s.start_date
        loads = [r["load_tstamp"] for r in rows if lower < r["load_tstamp"] <= now]
        upper = min(min(loads) + dt.timedelta(days=s.backfill_limit_days), now) if loads else now
        window = [r for r in rows if lower < r["load_tstamp"] <= upper]
        self.windows.append((lower, upper, len(window)))
        if window:
            self.watermark = max(r["load_tstamp"] for r in window)
        elif self.watermark is None:
            self.watermark = lower
        earlier_ids = {
            r["event_id"] for r in rows
            if r["load_tstamp"] <= lower and first_day - dt.timedelta(days=s.dedupe_lookback_days) <= r["load_date"]
        }
        first: dict[str, dict] = {}
        for r in window:
            if r["event_id"] is None:
                continue
            if r["event_id"] not in first or _rank(r) < _rank(first[r["event_id"]]):
                first[r["event_id"]] = r
        first_in_window = {eid: r for eid, r in first.items() if eid not in earlier_ids}
        without_id = sum(1 for r in window if r["event_id"] is None)
        without_time = sum(1 for r in first_in_window.values() if r["derived_tstamp"] is None)
        self.counts.append({"rows_read": len(window), "duplicates_dropped": len(window) - without_id - len(first_in_window),
                            "rows_rejected": without_id + without_time})
        new = [
            dict(r, _batch=upper) for eid, r in first.items()
            if eid not in earlier_ids and r["derived_tstamp"] is not None and r["derived_tstamp"] >= start
            and (not self.s.app_ids or r["app_id"] in self.s.app_ids)
        ]
        for r in new:
            self.filtered[r["event_id"]] = r
        if window or self.aggregate_built:   # no committed filtered events yet: nothing to build
            self._aggregate(new, now, s)

    def _aggregate(self, new: list[dict], now: dt.datetime, s: Settings) -> None:
        by_date: dict[dt.date, list[dict]] = defaultdict(list)
        for r in self.filtered.values():
            by_date[r["derived_tstamp"].date()].append(r)
        if not self.aggregate_built:
            for d, events in by_date.items():
                self.reflected[d] = {e["event_id"] for e in events}
                self.skipped[d] = 0
            self.aggregate_built = True
            return
        new_by_date: dict[dt.date, list[dict]] = defaultdict(list)
        for r in new:
            new_by_date[r["derived_tstamp"].date()].append(r)
        for d in set(new_by_date) | {d for d, n in self.skipped.items() if n > 0}:
            late = sum(1 for r in new_by_date[d] if r["load_tstamp"].date() > d)
            processed, pending = date_decision(d, len(new_by_date[d]), late, self.skipped.get(d, 0), now, s)
            if processed:
                self.reflected[d] = {e["event_id"] for e in by_date[d]}
                self.skipped[d] = 0
            else:
                self.skipped[d] = pending

    def backfill(self, first: dt.date, last: dt.date) -> None:
        """A run with tideline__backfill_dates [first, last], as documented: the aggregate's dates
        first..last are recomputed whole from the filtered events (their skipped rows included,
        nothing pending after it); no window is read and no watermark moves."""
        for d in {r["derived_tstamp"].date() for r in self.filtered.values()}:
            if first <= d <= last:
                self.reflected[d] = {eid for eid, r in self.filtered.items() if r["derived_tstamp"].date() == d}
                self.skipped[d] = 0

    # ---- expected tables ---------------------------------------------------------------
    def filtered_rows(self) -> list[dict]:
        return [{"event_id": r["event_id"], "load_tstamp": r["load_tstamp"], "_tl_batch": r["_batch"],
                 "event_date": r["derived_tstamp"].date()} for r in self.filtered.values()]

    def daily_user_activity(self) -> list[dict]:
        out = []
        for d, ids in self.reflected.items():
            groups: dict[str | None, list[dict]] = defaultdict(list)
            for eid in ids:
                r = self.filtered[eid]
                groups[r["domain_userid"]].append(r)
            for key, events in groups.items():
                by_time = sorted(events, key=lambda e: (e["derived_tstamp"], e["event_id"]))
                out.append({
                    "event_date": d, "attribute_key": key, "event_count": len(events),
                    "page_views": sum(e["event_name"] == "page_view" for e in events),
                    "page_pings": sum(e["event_name"] == "page_ping" for e in events),
                    "transactions": sum(e["event_name"] == "transaction" for e in events),
                    "revenue": round(float(sum(e["tr_total"] or 0 for e in events)), 6),
                    "first_event_tstamp": by_time[0]["derived_tstamp"], "last_event_tstamp": by_time[-1]["derived_tstamp"],
                    "first_os_family": by_time[0]["os_family"], "last_os_family": by_time[-1]["os_family"],
                    "os_families": tuple(sorted({e["os_family"] for e in events})),
                })
        return out

    def aggregation_manifest(self) -> list[dict]:
        totals = defaultdict(int)
        for r in self.filtered.values():
            totals[r["derived_tstamp"].date()] += 1
        return [{"event_date": d, "processed_rows": len(self.reflected.get(d, ())),
                 "skipped_rows": self.skipped.get(d, 0)} for d in set(totals) | set(self.skipped)
                if d in self.reflected or self.skipped.get(d, 0)]


def user_attributes(daily: list[dict], now: dt.datetime) -> list[dict]:
    today = now.date()
    users: dict = defaultdict(list)
    for row in daily:
        if row["event_date"] <= today:
            users[row["attribute_key"]].append(row)
    out = []
    for key, rows in users.items():
        last7 = [r for r in rows if today - dt.timedelta(days=7) < r["event_date"] <= today]
        first = min(rows, key=lambda r: r["first_event_tstamp"])
        last = max(rows, key=lambda r: r["last_event_tstamp"])
        out.append({
            "attribute_key": key,
            "first_seen_date": min(r["event_date"] for r in rows),
            "last_seen_date": max(r["event_date"] for r in rows),
            "first_os_family": first["first_os_family"], "last_os_family": last["last_os_family"],
            "page_views_lifetime": sum(r["page_views"] for r in rows),
            "page_views_last_7_days": sum(r["page_views"] for r in last7),
            "transactions_lifetime": sum(r["transactions"] for r in rows),
            "revenue_lifetime": round(float(sum(r["revenue"] for r in rows)), 6),
            "revenue_last_7_days": round(float(sum(r["revenue"] for r in last7)), 6),
            "active_days_last_7_days": len(last7),
            "operating_systems": tuple(sorted({os for r in rows for os in r["os_families"]})),
        })
    return out

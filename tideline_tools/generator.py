"""Deterministic Snowplow-shaped atomic events, generated in Spark SQL and loaded like a loader.

The model has two parts:

* an `EventWorld`: every event that will ever happen, each with the time it happened
  (derived_tstamp) and the time it reaches the loader (its *arrival*). It is a pure function
  of its settings: every column comes from hashes of (seed, event number), never from
  `rand()`, so the same settings give the same rows whatever the partitioning or engine.
* a load (`load_events`): one call is one load at time `until`; it writes the events that
  arrived in `(since, until]` with `load_tstamp = until`, into a parquet table partitioned by
  `load_date`. With `cadence_seconds` one call writes what a loader running every
  `cadence_seconds` would have written over `(since, until]`, each event stamped with the
  first load tick at or after its arrival; `gaps` are periods with no loads (their events
  go out with the first load after the gap).

Irregularities, each an exact number of events (a bijection of the event numbers picks them):
late arrivals (1..max_late_days days after their event date), duplicates in the same load,
re-loads of an event days later with another derived_tstamp, events before the world's start
(loaded on its first day), and bot traffic. The generator is SQL only, so it runs on the
embedded Spark and through the Thrift server alike.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import math
from typing import Iterable, Sequence

from .sql import SqlRunner, quote

UTC = dt.timezone.utc
DAY_US = 86_400_000_000
HOUR_US = 3_600_000_000

KINDS = ("late", "pre_start", "duplicate", "reload", "bot")


def _utc(value: dt.datetime | dt.date | str) -> dt.datetime:
    if isinstance(value, str):
        value = dt.datetime.fromisoformat(value)
    if not isinstance(value, dt.datetime):
        value = dt.datetime(value.year, value.month, value.day)
    if value.tzinfo is None:
        value = value.replace(tzinfo=UTC)
    return value.astimezone(UTC)


def _micros(value: dt.datetime) -> int:
    return round((_utc(value) - dt.datetime(1970, 1, 1, tzinfo=UTC)).total_seconds() * 1_000_000)


def _array(values: Sequence[str]) -> str:
    return "array(" + ", ".join(quote(v) for v in values) + ")"


@dataclasses.dataclass(frozen=True)
class EventWorld:
    """All events of a simulated site: who, what, when it happened and when it arrives."""

    seed: int = 42
    start: dt.datetime = dt.datetime(2025, 1, 1, tzinfo=UTC)
    days: int = 10
    events_per_day: int = 1000
    users: int = 200
    app_ids: tuple[str, ...] = ("website", "mobile", "backend")
    event_mix: tuple[tuple[str, int], ...] = (
        ("page_view", 35),
        ("page_ping", 45),
        ("link_click", 15),
        ("transaction", 5),
    )
    late_share: float = 0.05
    max_late_days: int = 3
    duplicate_share: float = 0.01
    reload_share: float = 0.01
    reload_after_days: int = 2
    pre_start_share: float = 0.01
    pre_start_days: int = 3
    bot_share: float = 0.02
    bot_users: int = 3
    normal_latency_seconds: int = 600

    def __post_init__(self):
        object.__setattr__(self, "start", _utc(self.start))
        problems = []
        if self.days < 1:
            problems.append(f"days must be >= 1, got {self.days}")
        if self.events_per_day < 1:
            problems.append(f"events_per_day must be >= 1, got {self.events_per_day}")
        if self.users < 1:
            problems.append(f"users must be >= 1, got {self.users}")
        if not self.app_ids:
            problems.append("app_ids must not be empty")
        names = {name for name, _ in self.event_mix}
        if not names <= {"page_view", "page_ping", "link_click", "transaction"} or not names:
            problems.append(f"event_mix names must be among page_view, page_ping, link_click, transaction: {names}")
        if any(weight < 0 for _, weight in self.event_mix) or sum(w for _, w in self.event_mix) <= 0:
            problems.append("event_mix weights must be >= 0 with a positive sum")
        shares = [self.late_share, self.pre_start_share, self.duplicate_share, self.reload_share, self.bot_share]
        if any(s < 0 for s in shares) or sum(shares) > 1:
            problems.append("the shares of late, pre_start, duplicate, reload and bot events must be >= 0 and sum to <= 1")
        if self.max_late_days < 1 or self.reload_after_days < 1 or self.pre_start_days < 1:
            problems.append("max_late_days, reload_after_days and pre_start_days must be >= 1")
        if self.bot_share > 0 and self.bot_users < 1:
            problems.append("bot_users must be >= 1 when bot_share > 0")
        if problems:
            raise ValueError("invalid EventWorld: " + "; ".join(problems))

    # ---- exact sizes ---------------------------------------------------------------------
    @property
    def base_events(self) -> int:
        return self.days * self.events_per_day

    def kind_counts(self) -> dict[str, int]:
        """How many base events are of each irregular kind (exact, before copies are added)."""
        n = self.base_events
        shares = {
            "late": self.late_share,
            "pre_start": self.pre_start_share,
            "duplicate": self.duplicate_share,
            "reload": self.reload_share,
            "bot": self.bot_share,
        }
        return {kind: math.floor(n * shares[kind]) for kind in KINDS}

    def rows_total(self) -> int:
        """Rows the world sends to the loader: every event once, duplicates and re-loads twice."""
        counts = self.kind_counts()
        return self.base_events + counts["duplicate"] + counts["reload"]

    def last_arrival(self) -> dt.datetime:
        """An upper bound of every arrival: loading up to here loads the whole world."""
        end = self.start + dt.timedelta(days=self.days)
        return end + dt.timedelta(days=self.max_late_days + self.reload_after_days + 2)

    # ---- SQL -----------------------------------------------------------------------------
    def _permutation(self) -> tuple[int, int]:
        """A bijection r = (i*a + b) mod n of the event numbers, from the seed."""
        n = self.base_events
        a = 2_654_435_761 + 2 * (self.seed % 1000)
        while math.gcd(a, n) != 1:
            a += 1
        b = (self.seed * 97_531) % n
        return a, b

    def world_sql(self, partitions: int | None = None) -> str:
        """Every row the world sends: Snowplow columns (without load fields) + _arrival_us, _kind."""
        n = self.base_events
        a, b = self._permutation()
        counts = self.kind_counts()
        bounds, acc = {}, 0
        for kind in KINDS:
            acc += counts[kind]
            bounds[kind] = acc
        parts = partitions or max(1, min(64, n // 250_000 + 1))
        seed = int(self.seed)
        start_us = _micros(self.start)
        first_day_us = start_us - self.pre_start_days * DAY_US

        def h(salt: str, *keys: str) -> str:
            args = ", ".join([str(seed), *(keys or ("id",)), quote(salt)])
            return f"pmod(xxhash64({args}), 2147483647)"

        def u(salt: str, *keys: str) -> str:
            # a uniform double in [0, 1)
            return f"({h(salt, *keys)} / 2147483647D)"

        def uuid(hex_column: str) -> str:
            """Format a 32-digit hex column (an md5 computed once, in the middle select) as a UUID."""
            c = hex_column
            return f"concat_ws('-', substr({c}, 1, 8), substr({c}, 9, 4), substr({c}, 13, 4), substr({c}, 17, 4), substr({c}, 21, 12))"

        total_weight = sum(w for _, w in self.event_mix)
        name_case, acc_w = [], 0
        for name, weight in self.event_mix:
            if weight == 0:
                continue
            acc_w += weight
            name_case.append(f"when {h('name')} % {total_weight} < {acc_w} then '{name}'")
        pages = [
            "/", "/products", "/products/kettle", "/products/teapot", "/products/mug", "/cart",
            "/checkout", "/account", "/blog", "/blog/brewing-guide", "/search", "/about",
        ]
        oses = ["Windows", "Mac OS X", "iOS", "Android", "Linux"]
        browsers = ["Chrome", "Firefox", "Safari", "Edge"]
        countries = ["DE", "FR", "GB", "US", "NL", "ES", "PL", "SE"]
        mediums = ["search", "social", "email", "internal", "unknown"]

        events = f"""
select
  *,
  case
    when _kind = 'late' then (cast(floor(_event_us / {DAY_US}) as bigint) + 1) * {DAY_US}
      + ({h('late_days')} % {self.max_late_days}) * {DAY_US} + cast(floor({u('lat')} * {DAY_US - 1}) as bigint)
    when _kind = 'pre_start' then {start_us} + cast(floor({u('lat')} * {DAY_US - 1}) as bigint)
    else _event_us + cast(floor({u('lat')} * {self.normal_latency_seconds * 1_000_000}) as bigint)
  end as _arrival_us
from (
  select
    id,
    _kind,
    case
      when _kind = 'pre_start' then {start_us} - 1 - cast(floor({u('t')} * {self.pre_start_days * DAY_US - 1}) as bigint)
      else {start_us} + cast(floor({u('t')} * {self.days * DAY_US - 1}) as bigint)
    end as _event_us,
    case when _kind = 'bot' then {self.users} + {h('bot_user')} % {max(self.bot_users, 1)}
      else {h('user')} % {self.users} end as user_n,
    case when _kind = 'bot' then 'page_view' else case {' '.join(name_case)} end end as name,
    case when _kind = 'bot' then {quote(self.app_ids[0])}
      else element_at({_array(self.app_ids)}, cast({h('app')} % {len(self.app_ids)} + 1 as int)) end as app_id
  from (
    select
      id,
      case
        when r < {bounds['late']} then 'late'
        when r < {bounds['pre_start']} then 'pre_start'
        when r < {bounds['duplicate']} then 'duplicate'
        when r < {bounds['reload']} then 'reload'
        when r < {bounds['bot']} then 'bot'
        else 'normal'
      end as _kind
    from (select id, pmod(id * {a} + {b}, {n}) as r from range(0, {n}, 1, {parts}))
  )
)"""
        shared, columns = self._columns_sql(uuid, h, u, first_day_us, pages, oses, browsers, countries, mediums)
        # A duplicate is sent twice in one load; a re-load is sent again days later (_copy 2).
        # The middle select computes each hash, md5 and lookup once; Spark keeps it apart from
        # the outer one because its expressions are used several times there.
        return f"""
select
{columns}
from (
  select *,
{shared}
  from ({events}) as events
  lateral view explode(
    case _kind when 'duplicate' then array(0, 1) when 'reload' then array(0, 2) else array(0) end
  ) copies as _copy
) as shaped
"""

    def _columns_sql(self, uuid, h, u, first_day_us, pages, oses, browsers, countries, mediums) -> tuple[str, str]:
        """(the middle select's shared columns, the outer select's Snowplow columns)."""
        seed = int(self.seed)
        session_idx = f"(1 + div(_event_us - {first_day_us}, {4 * HOUR_US}))"
        user_key = f"concat('{seed}', '-u-', user_n)"
        session_key = f"concat({user_key}, '-s-', {session_idx})"
        multi_device = f"(case when user_n % 3 = 0 then {session_idx} % 2 else 0 end)"
        shared = {
            # A re-loaded copy (_copy = 2) arrives days later, with a derived_tstamp hours later.
            "_ev_us": f"_event_us + case when _copy = 2 then (1 + {h('reload_shift')} % 6) * {HOUR_US} else 0 end",
            "_arr_us": (
                f"_arrival_us + case when _copy = 2 then {self.reload_after_days} * {DAY_US} "
                f"+ cast(floor({u('reload_arrival')} * {HOUR_US}) as bigint) else 0 end"
            ),
            "_session_idx": session_idx,
            "_page": f"element_at({_array(pages)}, cast({h('page')} % {len(pages)} + 1 as int))",
            "_os": (
                f"case when _kind = 'bot' then 'Other' else element_at({_array(oses)}, "
                f"cast(pmod(xxhash64({seed}, user_n, 'os') + {multi_device}, {len(oses)}) + 1 as int)) end"
            ),
            "_browser": (
                f"case when _kind = 'bot' then 'Robot/Spider' else element_at({_array(browsers)}, "
                f"cast(pmod(xxhash64({seed}, user_n, 'br'), {len(browsers)}) + 1 as int)) end"
            ),
            "_medium": f"{h('medium')} % {len(mediums)}",
            "_mkt": f"{h('mkt')} % 5 = 0",
            "_device_us": f"cast(floor({u('device')} * 5000000) as bigint)",
            "_event_md5": f"md5(concat('{seed}-e-', id))",
            "_user_md5": f"md5({user_key})",
            "_network_md5": f"md5(concat({user_key}, '-n'))",
            "_session_md5": f"md5({session_key})",
            "_page_view_md5": f"md5(concat({session_key}, element_at({_array(pages)}, cast({h('page')} % {len(pages)} + 1 as int))))",
            "_order_md5": f"case when name = 'transaction' then md5(concat('{seed}-o-', id)) end",
        }
        is_tx = "name = 'transaction'"
        mobile = "(_os in ('iOS', 'Android'))"
        cols = {
            "app_id": "app_id",
            "platform": "case when app_id = 'mobile' then 'mob' when app_id = 'backend' then 'srv' else 'web' end",
            "collector_tstamp": f"timestamp_micros(_ev_us + cast(floor({u('collector')} * 3000000) as bigint))",
            "dvce_created_tstamp": "timestamp_micros(_ev_us - _device_us)",
            "event": "case name when 'link_click' then 'unstruct' else name end",
            "event_id": uuid("_event_md5"),
            "name_tracker": "'tl'",
            "v_tracker": "case when app_id = 'mobile' then 'ios-5.0.0' else 'js-3.24.0' end",
            "user_id": "case when user_n % 4 = 0 and _kind <> 'bot' then concat('user_', user_n) end",
            "user_ipaddress": "concat('10.', user_n % 250, '.', div(user_n, 250) % 250, '.7')",
            "domain_userid": uuid("_user_md5"),
            "domain_sessionidx": "cast(_session_idx as int)",
            "network_userid": uuid("_network_md5"),
            "geo_country": f"element_at({_array(countries)}, cast(pmod(xxhash64({seed}, user_n, 'geo'), {len(countries)}) + 1 as int))",
            "page_url": "concat('https://shop.example.com', _page)",
            "page_title": "concat('Tea shop | ', _page)",
            "page_referrer": f"case when {h('refr')} % 3 = 0 then 'https://www.search.example/' end",
            "page_urlscheme": "'https'",
            "page_urlhost": "'shop.example.com'",
            "page_urlpath": "_page",
            "refr_medium": f"element_at({_array(mediums)}, cast(_medium + 1 as int))",
            "refr_source": "case when _medium = 0 then 'Search Example' end",
            "mkt_medium": "case when _mkt then 'cpc' end",
            "mkt_source": "case when _mkt then 'newsletter' end",
            "tr_orderid": f"case when {is_tx} then {uuid('_order_md5')} end",
            "tr_total": f"case when {is_tx} then round(5 + {u('revenue')} * 195, 2) end",
            "tr_currency": f"case when {is_tx} then 'EUR' end",
            "pp_yoffset_max": f"case when name = 'page_ping' then cast({h('scroll')} % 5000 as int) end",
            "useragent": (
                "case when _kind = 'bot' then 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)' "
                "else concat('Mozilla/5.0 (', _os, ') ', _browser) end"
            ),
            "br_family": "_browser",
            "br_type": "case when _kind = 'bot' then 'Robot' else 'Browser' end",
            "os_family": "_os",
            "dvce_type": f"case when _kind = 'bot' then 'Robot' when {mobile} then 'Mobile' else 'Computer' end",
            "dvce_ismobile": mobile,
            "dvce_sent_tstamp": "timestamp_micros(_ev_us - _device_us + 1000000)",
            "domain_sessionid": uuid("_session_md5"),
            "derived_tstamp": "timestamp_micros(_ev_us)",
            "event_vendor": "'com.snowplowanalytics.snowplow'",
            "event_name": "name",
            "event_format": "'jsonschema'",
            "event_version": "'1-0-0'",
            "event_fingerprint": "md5(concat(id, '-', _ev_us))",
            "contexts_com_snowplowanalytics_snowplow_web_page_1": f"array(named_struct('id', {uuid('_page_view_md5')}))",
            "unstruct_event_com_snowplowanalytics_snowplow_link_click_1": (
                "case when name = 'link_click' then named_struct('target_url', "
                f"concat('https://partner.example/', {h('target')} % 20), 'element_id', 'cta') end"
            ),
            "_arrival_us": "_arr_us",
            "_kind": "_kind",
            "_copy": "_copy",
        }
        return (
            ",\n".join(f"    {expr} as {name}" for name, expr in shared.items()),
            ",\n".join(f"  {expr} as {name}" for name, expr in cols.items()),
        )


# The source table: Snowplow's atomic columns that tideline uses, plus the loader's fields.
EVENT_COLUMNS: tuple[tuple[str, str], ...] = (
    ("app_id", "string"),
    ("platform", "string"),
    ("etl_tstamp", "timestamp"),
    ("collector_tstamp", "timestamp"),
    ("dvce_created_tstamp", "timestamp"),
    ("event", "string"),
    ("event_id", "string"),
    ("name_tracker", "string"),
    ("v_tracker", "string"),
    ("user_id", "string"),
    ("user_ipaddress", "string"),
    ("domain_userid", "string"),
    ("domain_sessionidx", "int"),
    ("network_userid", "string"),
    ("geo_country", "string"),
    ("page_url", "string"),
    ("page_title", "string"),
    ("page_referrer", "string"),
    ("page_urlscheme", "string"),
    ("page_urlhost", "string"),
    ("page_urlpath", "string"),
    ("refr_medium", "string"),
    ("refr_source", "string"),
    ("mkt_medium", "string"),
    ("mkt_source", "string"),
    ("tr_orderid", "string"),
    ("tr_total", "double"),
    ("tr_currency", "string"),
    ("pp_yoffset_max", "int"),
    ("useragent", "string"),
    ("br_family", "string"),
    ("br_type", "string"),
    ("os_family", "string"),
    ("dvce_type", "string"),
    ("dvce_ismobile", "boolean"),
    ("dvce_sent_tstamp", "timestamp"),
    ("domain_sessionid", "string"),
    ("derived_tstamp", "timestamp"),
    ("event_vendor", "string"),
    ("event_name", "string"),
    ("event_format", "string"),
    ("event_version", "string"),
    ("event_fingerprint", "string"),
    ("load_tstamp", "timestamp"),
    ("contexts_com_snowplowanalytics_snowplow_web_page_1", "array<struct<id:string>>"),
    ("unstruct_event_com_snowplowanalytics_snowplow_link_click_1", "struct<target_url:string,element_id:string>"),
)
PARTITION_COLUMN = ("load_date", "date")


def create_events_table(runner: SqlRunner, table: str) -> None:
    """Create the source table (parquet, partitioned by load_date) and its schema if missing."""
    if "." in table:
        runner.execute(f"create schema if not exists {table.split('.')[0]}")
    columns = ",\n  ".join(f"{name} {type_}" for name, type_ in (*EVENT_COLUMNS, PARTITION_COLUMN))
    runner.execute(f"create table if not exists {table} (\n  {columns}\n) using parquet partitioned by (load_date)")


def last_load(runner: SqlRunner, table: str) -> dt.datetime | None:
    """The latest load_tstamp in the table, reading only its newest load_date partition."""
    partitions = [row[0] for row in runner.rows(f"show partitions {table}")]
    dates = sorted(p.split("=", 1)[1] for p in partitions if p.startswith("load_date="))
    if not dates:
        return None
    value = runner.rows(f"select max(load_tstamp) from {table} where load_date = date'{dates[-1]}'")[0][0]
    return _utc(value) if value is not None else None


def _loaded_at_sql(cadence_us: int | None, until_us: int, gaps: Sequence[tuple[int, int]]) -> str:
    """The load time of an event with arrival `_arrival_us`, as micros."""
    if cadence_us is None:
        return str(until_us)
    expr = f"((div(_arrival_us - 1, {cadence_us}) + 1) * {cadence_us})"
    for gap_start, gap_end in sorted(gaps):  # ascending, so a gap that ends in the next one chains on
        expr = f"(case when {expr} >= {gap_start} and {expr} < {gap_end} then {gap_end} else {expr} end)"
    return expr


def load_events(
    runner: SqlRunner,
    world: EventWorld,
    table: str,
    until: dt.datetime | str,
    since: dt.datetime | str | None = None,
    cadence_seconds: int | None = None,
    gaps: Iterable[tuple[dt.datetime | str, dt.datetime | str]] = (),
) -> int:
    """Load the events that arrived in (since, until]; return the number of rows written.

    since defaults to the table's latest load_tstamp (the loader resumes where it stopped),
    or to the beginning of time for an empty table. With cadence_seconds, `since` and `until`
    must fall on ticks of the cadence (counted from 1970-01-01 00:00 UTC).
    """
    create_events_table(runner, table)
    until_dt = _utc(until)
    since_dt = _utc(since) if since is not None else last_load(runner, table)
    until_us = _micros(until_dt)
    since_us = _micros(since_dt) if since_dt is not None else -(2**62)
    if since_dt is not None and since_us >= until_us:
        raise ValueError(f"since ({since_dt}) must be before until ({until_dt})")
    gap_us = [(_micros(_utc(a)), _micros(_utc(b))) for a, b in gaps]
    if any(a >= b for a, b in gap_us):
        raise ValueError("each gap must be (start, end) with start < end")
    cadence_us = None
    if cadence_seconds is not None:
        if cadence_seconds <= 0:
            raise ValueError(f"cadence_seconds must be positive, got {cadence_seconds}")
        cadence_us = cadence_seconds * 1_000_000
        for name, value in (("until", until_us), ("since", since_us if since_dt else 0)):
            if value % cadence_us:
                raise ValueError(f"{name} must fall on a tick of the {cadence_seconds}s cadence")
    loaded = _loaded_at_sql(cadence_us, until_us, gap_us)
    names = [name for name, _ in EVENT_COLUMNS]
    select_cols = ",\n  ".join(
        f"timestamp_micros(_load_us - 60000000) as etl_tstamp" if name == "etl_tstamp"
        else "timestamp_micros(_load_us) as load_tstamp" if name == "load_tstamp"
        else name
        for name in names
    )
    first_date = (since_dt or world.start - dt.timedelta(days=world.pre_start_days)).date()
    rows_before = _count(runner, table, first_date)
    runner.execute(
        f"""
insert into {table} partition (load_date)
select
  {select_cols},
  to_date(timestamp_micros(_load_us)) as load_date
from (
  select *, cast({loaded} as bigint) as _load_us
  from ({world.world_sql()}) as world
  where _arrival_us > {since_us} and _arrival_us <= {until_us}
) as arrived
where _load_us <= {until_us}
distribute by load_date
"""
    )
    return _count(runner, table, first_date) - rows_before


def _count(runner: SqlRunner, table: str, from_date: dt.date) -> int:
    """Rows in partitions from `from_date` on (a load only writes there; the rest is not read)."""
    return int(runner.rows(f"select count(*) from {table} where load_date >= {quote(from_date)}")[0][0])


def truth_sql(world: EventWorld) -> str:
    """The world with its hidden labels (event_id, _kind, _copy, _arrival_us): for tests only."""
    return f"select event_id, derived_tstamp, _kind, _copy, _arrival_us from ({world.world_sql()})"

"""Attribute views from a Snowplow Signals export file: the models that compute them.

    python -m tideline_tools.signals_views my_views.json --to models/signals

The file is what Signals gives (JSON or YAML): one view (the SDK's View or attribute group,
dumped), a list of views, or a mapping with one list of them (for example the API's
{"attribute_groups": [...]}). For each view it writes, in the folder `--to`:

    <name>.yml        the view, as it is in the file, in the model's meta.attribute_view
    <name>.sql        its attributes table:  {{ tideline.attribute_view_table('<name>_daily') }}
    <name>_daily.sql  its daily aggregate:   {{ tideline.attribute_view_daily_aggregate('<name>') }}

dbt reads the view from the model's config (dbt's Jinja cannot open a file), so the file is
copied into it unchanged and tideline reads Signals' form there, as when a view is pasted inline.
Nothing is translated here: `dbt run-operation tideline.check_attribute_views` then checks the
views in a few seconds. Signals' semantics are chosen with --first-last view_events (written
beside the view's keys) and Signals' lateness vars with --late-event-lookback-days and
--min-late-events-to-process (the daily aggregates' config reprocess_days and
min_rows_to_process; docs/attribute_views.md says how the rules differ). An existing .yml of the same view is replaced (a new export); an
existing .sql is kept (it may have been edited).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

import yaml

from . import console


class ExportError(ValueError):
    """The file is not a Signals export this tool reads; the message says why."""


def read_views(path: Path) -> list[dict]:
    """The views of an export file, in the order it holds them."""
    text = path.read_text()
    try:
        data = json.loads(text) if path.suffix.lower() == ".json" else yaml.safe_load(text)
    except (json.JSONDecodeError, yaml.YAMLError) as e:
        raise ExportError(f"{path}: not valid {'JSON' if path.suffix.lower() == '.json' else 'YAML'}: {e}") from e
    if isinstance(data, dict) and "attributes" not in data and "name" not in data:
        lists = [v for v in data.values() if isinstance(v, list)]
        if len(lists) != 1:
            raise ExportError(f"{path}: a mapping without a view's name must hold exactly one list of views "
                              f"(keys: {', '.join(map(str, data)) or 'none'})")
        data = lists[0]
    views = data if isinstance(data, list) else [data]
    for i, view in enumerate(views, 1):
        if not isinstance(view, dict) or not isinstance(view.get("name"), str):
            raise ExportError(f"{path}: view #{i} is not a mapping with a name")
        if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", view["name"]):
            raise ExportError(f"{path}: view name {view['name']!r} is not a model name (letters, digits and underscores)")
    names = [v["name"] for v in views]
    if len(set(names)) != len(names):
        raise ExportError(f"{path}: the views' names repeat: {', '.join(sorted(n for n in set(names) if names.count(n) > 1))}")
    return views


def model_files(view: dict, source: str, lateness: dict[str, int] | None = None) -> dict[str, str]:
    """The three files of a view's models, by file name; `lateness` ({reprocess_days,
    min_rows_to_process}, Signals' lookback mapped) goes into the daily aggregate's config."""
    name = view["name"]
    settings = ", ".join(f"{k}={v}" for k, v in (lateness or {}).items())
    properties = {"version": 2, "models": [{
        "name": name,
        "description": view.get("description") or f"Attributes per key of the Snowplow Signals view {name}.",
        "config": {"meta": {"attribute_view": view}},
    }]}
    header = (f"# Written by python -m tideline_tools.signals_views from {source}: the Signals view {name}, as\n"
              "# it is in that file. Export it again and rerun the tool to replace it.\n")
    return {
        f"{name}.yml": header + yaml.safe_dump(properties, sort_keys=False, allow_unicode=True),
        f"{name}.sql": f"-- The attributes table of the Signals view {name} ({name}.yml).\n"
                       f"{{{{ tideline.attribute_view_table('{name}_daily') }}}}\n",
        f"{name}_daily.sql": f"-- The daily aggregate of the Signals view {name}.\n"
                             + (f"{{{{ config({settings}) }}}}\n" if settings else "")
                             + f"{{{{ tideline.attribute_view_daily_aggregate('{name}') }}}}\n",
    }


def write_models(views: list[dict], to: Path, source: str, lateness: dict[str, int] | None = None,
                 first_last: str | None = None) -> list[tuple[str, str, str]]:
    """Write each view's files; (file, what, done) per file. `first_last` is written beside the
    view's own keys."""
    to.mkdir(parents=True, exist_ok=True)
    done = []
    for view in views:
        view = {**view, "first_last": first_last} if first_last else view
        for file, text in model_files(view, source, lateness).items():
            path = to / file
            if path.suffix == ".sql" and path.exists():
                done.append((str(path), view["name"], "kept"))
                continue
            state = "replaced" if path.exists() else "written"
            path.write_text(text)
            done.append((str(path), view["name"], state))
    return done


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m tideline_tools.signals_views", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("export", type=Path, help="the Signals export: a .json, .yml or .yaml file")
    p.add_argument("--to", type=Path, default=Path("models/signals"), help="the models folder to write (default models/signals)")
    p.add_argument("--first-last", choices=["attribute_events", "view_events"],
                   help="written beside each view's keys: view_events takes first and last values as Signals does")
    p.add_argument("--late-event-lookback-days", type=int, metavar="N",
                   help="Signals' snowplow__late_event_lookback_days: the daily aggregates' config reprocess_days")
    p.add_argument("--min-late-events-to-process", type=int, metavar="M",
                   help="Signals' snowplow__min_late_events_to_process: the daily aggregates' config min_rows_to_process")
    args = p.parse_args(argv)
    lateness = {key: value for key, value in (("reprocess_days", args.late_event_lookback_days),
                                              ("min_rows_to_process", args.min_late_events_to_process)) if value is not None}
    if lateness.get("reprocess_days", 0) < 0 or lateness.get("min_rows_to_process", 1) < 1:
        p.error("--late-event-lookback-days must be >= 0 and --min-late-events-to-process >= 1")
    try:
        views = read_views(args.export)
    except (ExportError, OSError) as e:
        console.ERR.print(f"tideline: signals_views: {e}")
        return 2
    done = write_models(views, args.to, args.export.name, lateness, args.first_last)
    console.table("Signals views", ["file", "view", "done"], done)
    console.OUT.print(f"{len(views)} view(s). Check them without Spark: dbt run-operation tideline.check_attribute_views")
    return 0


if __name__ == "__main__":
    sys.exit(main())

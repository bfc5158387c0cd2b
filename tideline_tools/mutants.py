"""A small mutation run: does the suite fail when a key rule is broken?

Each mutant changes one rule in one file (a macro, or the Python reference the tests trust),
then runs the tests that guard that rule; the mutant is killed when they fail. The files are put
back after each mutant, also when the run is interrupted. The working tree's files must be
unchanged before the run (nothing of yours is overwritten). Commit nothing while it runs: a
`git commit -a` then would take the mutated file with it.

    python -m tideline_tools.mutants            # every mutant
    python -m tideline_tools.mutants -k window  # the mutants whose name contains "window"
    python -m tideline_tools.mutants --list

A mutant whose text is no longer found (the code moved) is reported as such, never as killed.
"""

from __future__ import annotations

import argparse
import dataclasses
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


@dataclasses.dataclass(frozen=True)
class Mutant:
    name: str
    file: str
    old: str
    new: str
    tests: tuple[str, ...]   # pytest arguments: the tests that should kill it


PIPELINE = ("python_tests/test_time_based_pipeline.py", "-k", "parquet and (hourly or min_rows)")
CRASH = ("python_tests/test_crash_safety.py", "-k", "parquet")
WINDOW = ("python_tests/test_rule_run_window.py",)   # the fast tier's run window against the reference
FOLDS = ("python_tests/test_rule_reductions.py",)    # the fast tier's register reductions against the reference
CHANNEL_RUNS = ("python_tests/test_rule_channel_runs.py",)   # the fast tier's channel runs against the reference
APPEND = ("python_tests/test_rule_append_only.py",)          # the fast tier's append_only rule against the reference
MERGE = ("python_tests/test_merged_daily_aggregate.py", "-k", "every_run and parquet")   # the merge path against the reference
MERGE_CRASH = ("python_tests/test_merged_daily_aggregate.py", "-k", "crash and parquet")
MERGE_SOURCE = ("python_tests/test_merged_source_aggregate.py", "-k", "every_run")   # the merge path over source_events()
MERGE_CRASH_DELTA = ("python_tests/test_merged_daily_aggregate.py", "-k", "crash and delta")   # the version-pinned view
MERGE_DIED = ("python_tests/test_merged_daily_aggregate.py", "-k", "died")   # a dead part beside one committed run

MUTANTS = [
    # (in_run_window's lower bound is no such spot: the rows at or before it are read anyway, as
    # the copies that dedupe the window's events; `in_window` decides which are this run's)
    Mutant("window lower bound inclusive (a boundary row read twice)", "macros/incremental/run_window.sql",
           "    {%- set in_window -%}\n        load_tstamp > {{ lower[0] }}",
           "    {%- set in_window -%}\n        load_tstamp >= {{ lower[0] }}", PIPELINE),
    Mutant("window upper bound exclusive (a boundary row never read)", "macros/incremental/limits_sql.sql",
           "    and load_tstamp > {{ lower[0] }}\n    and load_tstamp <= {{ upper_sql }}",
           "    and load_tstamp > {{ lower[0] }}\n    and load_tstamp < {{ upper_sql }}", PIPELINE),
    Mutant("duplicate copies not dropped", "macros/incremental/events_this_run.sql",
           "where copy_rank = 1 and in_window", "where copy_rank >= 1 and in_window", PIPELINE),
    Mutant("a window copy of an id loaded before the window kept", "macros/incremental/events_this_run.sql",
           "where copy_rank = 1 and in_window", "where in_window", WINDOW),
    Mutant("ids with two copies not ranked", "macros/incremental/events_this_run.sql",
           "        having count(*) > 1", "        having count(*) > 2", WINDOW),
    Mutant("dedupe lookback one day short", "macros/incremental/run_window.sql",
           "date_sub(date'{{ lower[1] }}', {{ lookback }})", "date_sub(date'{{ lower[1] }}', {{ lookback }} - 1)", WINDOW),
    Mutant("a copy loaded before the window does not compete", "macros/incremental/run_window.sql",
           "            or (load_date <= date'{{ lower[1] }}' and load_tstamp <= {{ lower[0] }})\n", "", WINDOW),
    Mutant("upper limit anchored on the lower limit, not on the next load", "macros/incremental/limits_sql.sql",
           "else least(next_load + interval {{ days }} days", "else least({{ lower[0] }} + interval {{ days }} days", WINDOW),
    Mutant("skipped count not reset when a date is processed", "macros/incremental/days_to_process_select.sql",
           "case when processed then 0 else pending_rows end", "case when processed then skipped_before else pending_rows end",
           PIPELINE),
    Mutant("min_rows_to_process off by one", "macros/incremental/days_to_process_select.sql",
           "skipped_before + late_rows >= {{ q.min_rows }}", "skipped_before + late_rows > {{ q.min_rows }}", PIPELINE),
    Mutant("reprocess_days off by one", "macros/incremental/days_to_process_select.sql",
           "and event_date >= date_sub(to_date({{ tideline.ts(q.now) }}), {{ q.reprocess_days }})",
           "and event_date > date_sub(to_date({{ tideline.ts(q.now) }}), {{ q.reprocess_days }})", PIPELINE),
    Mutant("a var's lower bound off by one (backfill_limit_days 0 accepted)", "macros/internal/vars.sql",
           "var_int('tideline__backfill_limit_days', 1)", "var_int('tideline__backfill_limit_days', 0)",
           ("python_tests/test_bad_inputs.py", "-k", "backfill_limit_days")),
    Mutant("a table in another format only warned about, with the refusal's words", "macros/internal/format_checks.sql",
           '{{ exceptions.raise_compiler_error("tideline: model {name}: table {table} is {found}',
           '{{ exceptions.warn("tideline: model {name}: table {table} is {found}',
           ("python_tests/test_table_formats.py", "-k", "another_format")),
    Mutant("readers see rows of runs that never committed", "macros/incremental/filtered_events.sql",
           "            where _tl_run in ({{ tideline.committed_runs_sql(relation.identifier) }})\n", "", CRASH),
    Mutant("cron: the next tick is the minute itself", "macros/mutability/cron_ticks.sql",
           "{%- set start = tideline._cron_time(t).replace(second=0, microsecond=0) + modules.datetime.timedelta(minutes=1) -%}",
           "{%- set start = tideline._cron_time(t).replace(second=0, microsecond=0) -%}",
           ("python_tests/test_cron.py",)),
    Mutant("derivation: last_write_wins keeps the first write", "macros/derivation/fold_writes.sql",
           "{%- set folded -%}coalesce(last({{ update }}, true) over {{ w }}, {{ stored }}){%- endset -%}",
           "{%- set folded -%}coalesce(first({{ update }}, true) over {{ w }}, {{ stored }}){%- endset -%}",
           ("python_tests/test_derivation.py", "-k", "seed_examples")),
    Mutant("derivation: a set register keeps duplicates", "macros/derivation/fold_collections.sql",
           "{{- return(tideline._fold_array(true, spec, stored, update, initial, w)) -}}",
           "{{- return(tideline._fold_array(false, spec, stored, update, initial, w)) -}}", FOLDS),
    Mutant("derivation: a sum register starts from 0, not from its initial value", "macros/derivation/fold_arithmetic.sql",
           "else cast(coalesce({{ stored }}, {{ initial }}, 0) as {{ wide }})", "else cast(coalesce({{ stored }}, 0) as {{ wide }})",
           FOLDS),
    Mutant("derivation: an append register never written reads as an empty array", "macros/derivation/fold_collections.sql",
           "case when coalesce({{ stored }}, {{ initial }}) is null and count({{ update }}) over {{ w }} = 0 then null",
           "case when false then null", FOLDS),
    Mutant("channel: an insert applied before a delete of the same change time", "macros/channel/changes.sql",
           "case when op = 'delete' then 0 else 1 end", "case when op = 'delete' then 1 else 0 end", CHANNEL_RUNS),
    Mutant("channel: a move also freezes the item on the new boundary", "macros/channel/write_sql.sql",
           "item_date >= date'{{ move.to[:10] }}' and item_time > {{ tideline.ts(move.to) }}",
           "item_date >= date'{{ move.to[:10] }}' and item_time >= {{ tideline.ts(move.to) }}", CHANNEL_RUNS),
    Mutant("append_only: the newest stored values kept in text order ('9' after '10')", "macros/mutability/append_rule.sql",
           "{%- do keyed.append({'text': value, 'key': value | int if whole else value | float if fractional else value}) -%}",
           "{%- do keyed.append({'text': value, 'key': value}) -%}", APPEND),
    Mutant("append_only: settle re-reads one stored value too few", "macros/mutability/append_rule.sql",
           "{%- set low = recent[:settings.settle] | last -%}", "{%- set low = recent[:settings.settle - 1] | last or low -%}", APPEND),
    Mutant("reference: the last copy of a duplicate wins", "python_tests/reference.py",
           "if r[\"event_id\"] not in first or _rank(r) < _rank(first[r[\"event_id\"]]):",
           "if r[\"event_id\"] not in first or _rank(r) > _rank(first[r[\"event_id\"]]):", PIPELINE),
    Mutant("reference: late rows never skipped", "python_tests/reference.py",
           "return on_time > 0 or (pending >= s.min_rows_to_process and recent), pending",
           "return True, pending", PIPELINE),
    Mutant("merge part re-reads the batch a date was processed at", "macros/incremental/daily_merge_sql.sql",
           "and _tl_batch > {{ tideline.ts(d.processed_batch) }}", "and _tl_batch >= {{ tideline.ts(d.processed_batch) }}", MERGE),
    Mutant("merge part bounded by the newest last-processed batch (held rows lost)", "macros/incremental/daily_merge_sql.sql",
           "and _tl_batch > {{ tideline.ts(batches | min) }}", "and _tl_batch > {{ tideline.ts(batches | max) }}", MERGE),
    Mutant("merged parts of runs that never committed", "macros/incremental/daily_merge_sql.sql",
           "        where _tl_run in ({{ runs_sql }})", "        where true or _tl_run in ({{ runs_sql }})", MERGE_CRASH),
    Mutant("merge part over the source counts a date's copies loaded before its last batch", "macros/incremental/daily_merge_sql.sql",
           "and load_tstamp > {{ tideline.ts(d.processed_batch) }}", "and load_tstamp > {{ tideline.ts(d.processed_batch) }} - interval 1 day",
           MERGE_SOURCE),
    Mutant("merged model read unpinned (the next run's part and settling seen before its view)", "macros/incremental/daily_merge_publish.sql",
           "        from {{ data }} {{ version }}", "        from {{ data }}", MERGE_CRASH_DELTA),
    Mutant("settling skips the dates whose newest part carries the batch it settled at", "macros/incremental/daily_merge_layout.sql",
           "where _tl_batch >= {{ tideline.ts(open_from) }}", "where _tl_batch > {{ tideline.ts(open_from) }}", MERGE),
    Mutant("settling leaves parts of runs that died", "macros/incremental/daily_merge_layout.sql",
           "            or count(distinct case when committed.run_id is null then parts._tl_run end) > 0\n",
           "\n", MERGE_DIED),
]


def run(mutant: Mutant) -> str:
    path = ROOT / mutant.file
    original = path.read_text()
    if original.count(mutant.old) != 1:
        return f"not applied: its text is found {original.count(mutant.old)} times in {mutant.file}"
    path.write_text(original.replace(mutant.old, mutant.new))
    try:
        started = time.monotonic()
        # a folder of its own: pytest's numbered temp folders of other sessions stay untouched
        with tempfile.TemporaryDirectory(prefix="tideline-mutant-") as basetemp:
            result = subprocess.run([sys.executable, "-m", "pytest", *mutant.tests, "-x", "-q", "-p", "no:randomly",
                                     "-p", "no:cacheprovider", "--no-header", "--basetemp", basetemp],
                                    cwd=ROOT, capture_output=True, text=True)
        took = time.monotonic() - started
    finally:
        path.write_text(original)
    summary = (result.stdout.strip().splitlines() or ["?"])[-1]
    if result.returncode == 1:
        return f"killed in {took:.0f} s ({summary})"
    if result.returncode == 0:
        return f"SURVIVED ({summary})"
    return f"error, exit {result.returncode} ({summary})"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-k", default="", help="only the mutants whose name contains this text")
    parser.add_argument("--list", action="store_true")
    args = parser.parse_args(argv)
    chosen = [m for m in MUTANTS if args.k.lower() in m.name.lower()]
    if args.list:
        for m in chosen:
            print(f"{m.name}: {m.file}; tests: {' '.join(m.tests)}")
        return 0
    files = sorted({m.file for m in chosen})
    if subprocess.run(["git", "diff", "--quiet", "--", *files], cwd=ROOT).returncode != 0:
        print(f"uncommitted changes in {', '.join(files)}: commit or stash them first", file=sys.stderr)
        return 2
    killed = 0
    for m in chosen:
        outcome = run(m)
        killed += outcome.startswith("killed")
        print(f"{m.name}: {outcome}", flush=True)
    print(f"{killed} of {len(chosen)} mutants killed")
    return 0 if killed == len(chosen) else 1


if __name__ == "__main__":
    sys.exit(main())

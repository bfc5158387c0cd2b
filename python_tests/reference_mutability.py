"""An independent Python reference of append_only's documented rule (README, "Mutability"):
a prime reads the rows with min <= along <= max; a later run reads the rows with along above
the largest stored value (settle 0), or from the settle-th newest stored value on (settle N),
up to max, and replaces the stored rows of every value it read. Along values are compared as
the values they are (numbers by value, dates by date), never as text."""

from __future__ import annotations

from typing import Any


def append_only_run(stored: list[tuple], source_rows: list[tuple], settle: int, prime: bool = False,
                    low: Any = None, high: Any = None) -> tuple[list[tuple], bool]:
    """The stored rows after one run, rows being tuples whose last item is the along value
    (`low`/`high`: min and max, None for unbounded). Also says whether the run saw every
    source row within the bounds that the stored rows lack (true when nothing landed below
    what it re-reads)."""
    within = [r for r in source_rows if (low is None or r[-1] >= low) and (high is None or r[-1] <= high)]
    values = sorted({r[-1] for r in stored}, reverse=True)
    if prime or not values:
        read = within
    elif settle:
        read = [r for r in within if r[-1] >= values[min(settle, len(values)) - 1]]
    else:
        read = [r for r in within if r[-1] > values[0]]
    written = {r[-1] for r in read}
    after = read if prime else [r for r in stored if r[-1] not in written] + read
    return after, set(after) == set(within)

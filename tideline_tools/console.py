"""What the Python tools print, through rich: progress on long work and summary tables.

Progress goes to stderr, so a tool's results on stdout stay clean when redirected; on a
terminal it is a live spinner or bar, elsewhere (CI logs, a pipe) one line when the step ends.
Tables go to stdout; `markdown=True` prints them as a Markdown table (docs/benchmarks.md
takes them as they are).
"""

from __future__ import annotations

import sys
import time
from contextlib import contextmanager
from typing import Any, Callable, Iterator, Sequence

from rich import box
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, SpinnerColumn, TextColumn, TimeElapsedColumn
from rich.table import Table

OUT = Console(highlight=False, markup=False, soft_wrap=True)
# A Markdown table is never wrapped or cut, whatever the terminal's width (or none)
WIDE = Console(highlight=False, markup=False, soft_wrap=True, width=100_000)
ERR = Console(stderr=True, highlight=False, markup=False, soft_wrap=True)


@contextmanager
def step(description: str) -> Iterator[None]:
    """A spinner while one long step runs (a load, a server start), then `done: <description>
    (<seconds>s)` on stderr."""
    started = time.monotonic()
    with Progress(SpinnerColumn(), TextColumn("{task.description}"), TimeElapsedColumn(),
                  console=ERR, transient=True) as progress:
        progress.add_task(description, total=None)
        yield
    ERR.print(f"done: {description} ({time.monotonic() - started:.0f}s)")


@contextmanager
def bar(description: str, total: int) -> Iterator[Callable[[str], None]]:
    """A bar over `total` units of work (runs, days); the callable advances it by one and
    prints its note above the bar."""
    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                  console=ERR) as progress:
        task = progress.add_task(description, total=total)

        def advance(note: str = "") -> None:
            if note:
                progress.console.print(note)
            progress.advance(task)

        yield advance


def table(title: str, columns: Sequence[str], rows: Sequence[Sequence[Any]], markdown: bool = False) -> None:
    """A summary table on stdout; numbers right-aligned."""
    grid = Table(title=None if markdown else title, box=box.MARKDOWN if markdown else box.SIMPLE_HEAD,
                 title_justify="left", show_edge=markdown)
    for i, name in enumerate(columns):
        numeric = bool(rows) and all(isinstance(row[i], (int, float)) for row in rows)
        grid.add_column(name, justify="right" if numeric else "left")
    for row in rows:
        grid.add_row(*(_cell(value) for value in row))
    if markdown:
        OUT.print(f"\n{title}")
    console = WIDE if markdown else OUT
    with console.capture() as captured:
        console.print(grid)
    # without the blank edge lines and the padding after each line
    sys.stdout.write("".join(line.rstrip() + "\n" for line in captured.get().splitlines() if line.strip()))
    sys.stdout.flush()


def _cell(value: Any) -> str:
    if isinstance(value, float):
        return f"{value:.2f}"
    return "" if value is None else str(value)

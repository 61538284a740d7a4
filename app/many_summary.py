"""The summary of a ``convert-many`` batch: one row per company (``Row``), the companies that need
attention first (could not be converted, then differ from QuickBooks, then with warnings), as
``summary.csv`` and a printable ``summary.html`` in OUTDIR, and the exit status (0 every book
matches; 3 some differ, with ``--strict``; 1 some could not be converted)."""

from __future__ import annotations

import datetime as dt
from collections import Counter
from collections.abc import Sequence
from dataclasses import astuple, dataclass, fields, replace
from pathlib import Path
from typing import Literal

from app import csvsafe, words
from app.fileio import write_text
from app.printable import render

State = Literal["done", "differs", "failed", "kept"]
STATE_WORDS = {
    "failed": "could not be converted",
    "differs": "differs from QuickBooks",
    # its book changed since the batch wrote it (``many.changed_since``): left as it is
    "kept": "kept as changed since, not proven again",
    "done": "matches QuickBooks",
}
RANK = {"failed": 0, "differs": 1, "kept": 2, "done": 3}


@dataclass(frozen=True, slots=True)
class Row:
    """One company in the summary. ``run``: "converted", "unchanged" (its book was written
    earlier from the same files and plan: not converted again), "kept" (its book changed since)
    or "not started"."""

    status: str
    company: str
    transactions: int
    documents: int
    accounts_match: int
    accounts_differ: int
    open_balances_differ: int
    warnings: int
    seconds: float
    folder: str
    book: str
    run: str
    message: str
    state: State = "failed"  # not a column: the status's code

    @classmethod
    def of(cls, result: dict, company: str, folder: str, run: str) -> Row:
        """A row from a company's result.json (app.many_worker)."""
        state: State = result.get("state", "failed")
        if state not in STATE_WORDS:
            state = "failed"
        return cls(
            STATE_WORDS[state],
            company,
            int(result.get("transactions", 0)),
            int(result.get("documents", 0)),
            int(result.get("accounts_match", 0)),
            int(result.get("accounts_differ", 0)),
            int(result.get("open_balances_differ", 0)),
            int(result.get("warnings", 0)),
            float(result.get("seconds", 0.0)) if run == "converted" else 0.0,
            folder,
            result.get("target", "") if state != "failed" else "",
            run,
            str(result.get("message", "")),
            state,
        )


COLUMNS = tuple(f.name for f in fields(Row))[:-1]


def ordered(rows: Sequence[Row]) -> list[Row]:
    """Attention first: could not be converted, differs, has warnings; then by company."""
    return sorted(rows, key=lambda r: (RANK[r.state], r.warnings == 0, r.company.casefold()))


def headline(rows: Sequence[Row]) -> str:
    """ "20 companies: 17 match QuickBooks, 3 could not be converted"."""
    n = Counter(r.state for r in rows)
    parts = []
    if n["done"]:
        parts.append(f"{n['done']:,} match{'es' * (n['done'] == 1)} QuickBooks")
    if n["differs"]:
        parts.append(words.differ(n["differs"], "company", "companies") + " from QuickBooks")
    if n["failed"]:
        parts.append(f"{n['failed']:,} could not be converted")
    if n["kept"]:
        parts.append(f"{n['kept']:,} kept as changed since written, not proven again")
    unchanged = sum(1 for r in rows if r.run == "unchanged")
    said = f"{words.plural(len(rows), 'company')}: " + ", ".join(parts)
    # (its own sentence: said after the last part, it read as part of that one)
    return said + (f"; {unchanged:,} unchanged since their book was written" if unchanged else "")


def with_twins(rows: Sequence[Row], same: dict[str, str]) -> list[Row]:
    """The rows, each company whose exports are another's (``app.many.same_exports``) saying so
    first in its message, counted as a warning."""
    said = "the same exports as {}, file for file: the same company twice? {}"
    return [
        replace(r, warnings=r.warnings + 1, message=said.format(other, r.message).strip())
        if (other := same.get(r.company)) is not None
        else r
        for r in rows
    ]


def twins_line(same: dict[str, str]) -> str:
    """What the batch says once about companies whose exports are another's ("": none)."""
    pairs = "; ".join(f"{c} holds the same exports as {o}" for c, o in same.items())
    return f"Warning: {pairs}, file for file: the same company twice?" if same else ""


def exit_status(rows: Sequence[Row], strict: bool) -> int:
    states = {r.state for r in rows}
    if "failed" in states:
        return 1
    return 3 if strict and states & {"differs", "kept"} else 0  # (kept: not proven)


def write(outdir: Path, rows: Sequence[Row], source: str) -> None:
    """summary.csv and summary.html in ``outdir``, attention first."""
    rows = ordered(rows)
    write_text(outdir / "summary.csv", csvsafe.text([COLUMNS, *(astuple(r)[:-1] for r in rows)]))
    page = render(
        "many/summary.html",
        rows=rows,
        headline=headline(rows),
        source=source,
        written=dt.datetime.now().strftime("%Y-%m-%d %H:%M"),
    )
    write_text(outdir / "summary.html", page)

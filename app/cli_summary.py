"""What ``run.py convert`` says about its input before writing: the files read, what is (or would
be) imported, what is left out, and the warnings, the most important first (``summary``); each
finding worded with its fix in the command line's words (``worded``)."""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal
from pathlib import Path
from typing import TextIO

from app import pipeline
from app.as_of import as_of_words
from app.fixes import with_fix
from app.model import FileInfo, Ledger, Problem, money
from app.openings import OPENING_KIND
from app.pages import preview
from app.pages.documents import documents_view
from app.pages.preview import left_out
from app.pages.tax import tax_view
from app.readers.private import quoted
from app.words import count_name, plural

ORDER_WORDS = {"mdy": "M/D/Y", "dmy": "D/M/Y"}
SHOWN_WARNINGS = 50  # a long overlap can warn once per transaction
TOPICS = ("truncated", "coverage", "opening", "overlap", "difference")  # most important first


def by_importance(warnings: Sequence[Problem]) -> list[Problem]:
    """A file cut at the export cap, the files' dates, the opening balance they keep from being
    made, one history in two files, figures that differ, then the rest; in file and line order
    within each (stable)."""
    rank = {topic: i for i, topic in enumerate(TOPICS)}
    return sorted(warnings, key=lambda w: rank.get(w.topic, len(TOPICS)))


def warnings_file(report: Path) -> Path:
    """Where ``--report r.csv`` puts every warning: r.warnings.txt beside it."""
    return report.with_name(f"{report.stem}.warnings.txt")


def summary(prepared: pipeline.Prepared, out: TextIO, report: Path | None = None) -> None:
    """What was read, imported, left out, and the warnings, the most important first (at most
    ``SHOWN_WARNINGS``; the rest counted, and where to read them: beside ``report``)."""
    parsed, ledger = prepared.parsed, prepared.ledger
    print(f"Read {plural(len(parsed.files), 'file')}:", file=out)
    for info in parsed.files:
        print(f"  {info.filename}: {describe(info)}", file=out)
    print("Imported:" if not prepared.errors else "Would import:", file=out)
    for line in counts(ledger):
        print(f"  {line}", file=out)
    for line in as_of_words(ledger.as_of):
        print(f"  {line}", file=out)
    docs = documents_view(prepared.documents)
    if docs is not None:
        print(f"  {docs.summary()}", file=out)
        for line in docs.notes:
            print(f"  {line}", file=out)
    tax = tax_view(prepared.sales_tax, ledger)
    if tax is not None and (tax.tables or tax.items or tax.kept or tax.mode == "lines"):
        print(f"  {tax.summary()}", file=out)
        for line in tax.notes():
            print(f"  {line}", file=out)
    groups = left_out(ledger)
    if groups:
        print("Not imported:", file=out)
        for g in groups:
            more = "; ..." if len(g.reasons) > 2 else ""
            print(f"  {g.what}: {g.count:,} ({'; '.join(g.reasons[:2])}{more})", file=out)
    _warnings(prepared, out, report)
    if prepared.notes:
        print("Notes:", file=out)
        for p in prepared.notes:
            print(f"  {worded(p)}", file=out)


def _warnings(prepared: pipeline.Prepared, out: TextIO, report: Path | None) -> None:
    """The warnings, the most important first; past ``SHOWN_WARNINGS`` how many, and where."""
    if prepared.warnings:
        n = len(prepared.warnings)
        print(f"Warnings ({n:,}):", file=out)
        for w in by_importance(prepared.warnings)[:SHOWN_WARNINGS]:
            print(f"  {worded(w)}", file=out)
        more = n - SHOWN_WARNINGS
        if more > 0:
            if prepared.errors:
                where = f"a run that writes the book lists all {n:,} beside --report REPORT.csv"
            elif report:
                where = f"all {n:,} are in {warnings_file(report)}"
            else:
                where = f"add --report REPORT.csv to have all {n:,} in REPORT.warnings.txt"
            print(f"  ... and {more:,} more, less important ({where})", file=out)


def worded(p: Problem, plan: str = "") -> str:
    """``file:line: message; to fix: ...`` in the command line's words; ``plan``: the plan
    file given, named where the fix is to edit it."""
    return with_fix(str(p), p.fix, "cli", p.source.filename if p.source else "", plan)


def describe(info: FileInfo) -> str:
    parts = [info.kind]
    if info.encoding:
        parts.append(info.encoding)
    if info.date_order:
        order = ORDER_WORDS.get(info.date_order, info.date_order)
        parts.append(f"dates {order}" + (" (could be either)" if info.date_order_ambiguous else ""))
    if info.first_date and info.last_date:
        parts.append(f"{info.first_date.isoformat()} to {info.last_date.isoformat()}")
    if info.cut:
        parts.append(
            "cut short (accepted)"
            if info.stops_early
            else "cut at QuickBooks' export cap (accepted)"
        )
    parts.extend(f"{count_name(what)} {n:,}" for what, n in info.counts)
    if info.marks:
        parts.append("cleared marks " + " ".join(quoted(m) for m in info.marks))
    return ", ".join(parts)


def counts(ledger: Ledger) -> list[str]:
    n = dict(preview.counts(ledger))
    made = sum(1 for a in ledger.accounts if not a.origin and not a.folds_into)
    subs = sum(1 for a in ledger.accounts if a.folds_into)
    said = [plural(made, "parent") + " created"] * bool(made)
    said += [plural(subs, "class sub-account", "class sub-accounts")] * bool(subs)
    opening = next((t for t in ledger.transactions if t.kind_label == OPENING_KIND), None)
    made_here = ""
    if opening is not None:  # (never unsaid: it is what the history did not explain)
        debits = sum((s.value for s in opening.splits if s.value > 0), Decimal(0))
        made_here = (
            f", of which 1 opening-balance transaction made here on {opening.date} "
            f"({plural(len(opening.splits), 'line')}, debits {money(debits)}): what the "
            "history does not explain of QuickBooks' figures"
        )
    return [
        plural(n["Accounts"], "account") + (f" ({', '.join(said)})" if said else ""),
        f"{plural(n['Transactions'], 'transaction')} with {plural(n['Splits'], 'line')}"
        + made_here,
        f"{plural(n['Customers'], 'customer')} with {plural(n['Jobs'], 'job')}",
        plural(n["Vendors"], "vendor"),
        plural(n["Employees"], "employee"),
        plural(n["Terms"], "bill term", "bill terms"),
    ]

"""Write the archive and the working book of one prepared conversion (``app.archive``), each
read back through GnuCash and proven like a single book (``pipeline``), and the table that
proves the working book opens where the archive closes.

Both books are built beside their targets under hidden names and put in place only when both
are written and read back; a run that fails leaves neither (an existing target is replaced only
with ``overwrite``)."""

from __future__ import annotations

import datetime as dt
import os
from dataclasses import dataclass, replace
from decimal import Decimal
from pathlib import Path

from app import archive as split
from app import audit, check_causes, csvsafe, pipeline
from app.archive import Carried
from app.as_of import as_counted, role_account
from app.book import BookSnapshot
from app.documents.selection import before
from app.errors import BookWriteError, ProblemsError
from app.fileio import write_text
from app.model import AccountType, Ledger, Role, money
from app.plan import Plan, parse_day
from app.verify_report import Check, Row
from app.words import differ, plural

PNL = ("income", "expense")


@dataclass(frozen=True, slots=True)
class SplitOutcome:
    day: dt.date
    archive: pipeline.Outcome
    working: pipeline.Outcome
    carried: tuple[Carried, ...]

    @property
    def carried_ok(self) -> bool:
        return bool(self.carried) and all(not c.difference for c in self.carried)

    @property
    def ok(self) -> bool:
        return self.archive.report.ok and self.working.report.ok and self.carried_ok

    def carried_headline(self) -> str:
        last = self.day - dt.timedelta(days=1)
        n = len(self.carried)
        if not self.carried:
            return "nothing carried from the archive: no balances to compare"
        bad = sum(1 for c in self.carried if c.difference)
        if not bad:
            return (
                f"the working book opens on {last} with the archive's closing balances: "
                f"{n} of {plural(n, 'account')} equal to the cent"
            )
        return f"{differ(bad, 'account')} between the archive's closing and the working opening"

    def carried_lines(self) -> list[str]:
        """One line per account: closing, opening, difference (the table of the proof)."""
        width = max((len(c.account) for c in self.carried), default=7)
        out = [f"{'account':<{width}}  {'archive closing':>16}  {'working opening':>16}  diff"]
        for c in self.carried:
            diff = money(c.difference) if c.difference else "0.00"
            out.append(
                f"{c.account:<{width}}  {money(c.closing):>16}  {money(c.opening):>16}  {diff}"
            )
        return out

    def carried_csv(self) -> str:
        """The carried table as CSV (an account name that looks like a formula neutralised)."""
        header = ("account", "archive_closing", "working_opening", "difference")
        rows = [(c.account, f"{c.closing:.2f}", f"{c.opening:.2f}", f"{c.difference:.2f}")
                for c in self.carried]  # fmt: skip
        return csvsafe.text([header, *rows])


def books(prepared: pipeline.Prepared, plan: Plan) -> tuple[pipeline.Prepared, pipeline.Prepared]:
    """The archive's and the working book's prepared conversions (``prepared`` has no errors)."""
    day = parse_day(plan.cutover.split_at)
    ledger = prepared.ledger
    split.check_day(ledger, day)
    items = None
    if plan.documents != "none":
        # the whole history's documents, allocated with QuickBooks' report, as they stood on
        # the archive's last day: the archive's documents are left open so (they are its own
        # open items) and the working book carries the same ones
        chosen = prepared.documents
        items = split.open_at(before(chosen, day)) if chosen is not None else ()
    archived = split.archive_ledger(ledger, day)
    old = _as(prepared, replace(archived, open_items=items or ()))
    new, _figures = split.working_ledger(ledger, day, items)
    return old, _as(prepared, new)


def _as(prepared: pipeline.Prepared, ledger) -> pipeline.Prepared:
    """A prepared conversion holding ``ledger`` whole (its own documents worked out anew)."""
    return pipeline.Prepared(
        prepared.parsed,
        ledger,
        None,
        {},
        (),
        prepared.documents_mode,
        prepared.sales_tax_mode,
        prepared.unit,
    )


def write(
    prepared: pipeline.Prepared,
    out_path: Path,
    archive_path: Path,
    plan: Plan,
    on_progress: pipeline.Progress | None = None,
    *,
    overwrite: bool = False,
) -> SplitOutcome:
    """Both books written, read back and proven, then put in place together."""
    if prepared.errors:
        raise ProblemsError(prepared.errors)
    if out_path.absolute() == archive_path.absolute():
        raise BookWriteError(f"the archive and the working book are one file ({out_path})")
    for path in (out_path, archive_path):
        if path.exists() and not overwrite:
            raise BookWriteError(f"{path} already exists; not overwritten")
    day = parse_day(plan.cutover.split_at)
    old, new = books(prepared, plan)
    staged = [
        p.with_name(f".{p.name}.partial-checked-{os.getpid()}") for p in (archive_path, out_path)
    ]
    try:
        a = pipeline.write_proven(old, staged[0], plan, on_progress)
        del old  # (the caller's ``prepared`` holds the history; the archive's own parts go)
        closing = figures(new.ledger, day, a.snapshot)
        a = _light(a)  # before the working book's writer forks: its child inherits the memory
        w = pipeline.write_proven(new, staged[1], plan, on_progress)
        for path, target in zip(staged, (archive_path, out_path), strict=True):
            try:
                os.replace(path, target)
            except OSError as exc:
                raise BookWriteError(f"cannot put the book in place at {target}: {exc}") from exc
    finally:
        for path in staged:
            path.unlink(missing_ok=True)
    table = split.closing_table(closing, figures(new.ledger, day, w.snapshot))
    return SplitOutcome(day, a, _carried_causes(w, a, day - dt.timedelta(days=1)), table)


def _carried_causes(
    working: pipeline.Outcome, archive: pipeline.Outcome, last: dt.date
) -> pipeline.Outcome:
    """The working book's rows that differ where the archive's balance on its last day differs
    from QuickBooks' trial balance of that day: the difference is carried in with the opening
    balances (it was blamed on the working book's history starting late)."""
    extras = archive.report.extras
    year = next((y for y in extras.compared_years if y.date == last), None) if extras else None
    if year is None or year.ok:
        return working
    off = {r.account: r.difference for r in year.differences}
    pnl = {r.account for r in archive.report.rows if (r.counted or r.family) in PNL}
    retained = role_account(working.written, Role.RETAINED_EARNINGS)
    day = last + dt.timedelta(days=1)
    if split.year_start_of(working.written, day) == day:  # a fiscal year starts: income and
        # expense closed into Retained Earnings
        closed = sum((v for a, v in off.items() if a in pnl), Decimal(0))
        off = {a: v for a, v in off.items() if a not in pnl}
        if closed and retained is not None:
            off[retained.full_name] = off.get(retained.full_name, Decimal(0)) + closed
    rows = tuple(_carried(r, off.get(r.account), last) for r in working.report.rows)
    later = working.report.extras  # (its year ends: the same accounts carry the same amounts)
    later = replace(later, carried=off) if later is not None else None
    return replace(working, report=replace(working.report, rows=rows, extras=later))


def _carried(row: Row, carried: Decimal | None, last: dt.date) -> Row:
    """A working row that differs by what the archive's closing balance carried in: said so
    (all of it), or the carried part said before the row's own cause (the rest)."""
    if row.ok or not carried:
        return row
    came = (
        f"carried from the archive: its balance on {last} differs from QuickBooks' trial "
        f"balance of that date by {money(carried)} (the archive's proof says where that "
        "difference starts)"
    )
    if row.difference == carried:
        return replace(row, cause=came, fix="")
    rest = money(row.difference - carried)
    return replace(row, cause=f"{came}; the rest, {rest}: {row.cause or 'not explained'}")


def _light(done: pipeline.Outcome) -> pipeline.Outcome:
    """The archive's outcome as the split's result keeps it: its proof and counts; not the
    ledger as written nor the documents, transactions and tax read back."""
    snap = replace(done.snapshot, transaction_list=(), documents=None, sales_tax=None)
    return replace(done, snapshot=snap, written=Ledger())


def figures(working: Ledger, day: dt.date, snap: BookSnapshot) -> dict[str, Decimal]:
    """A book read back, counted as of the archive's last day (the working book's Retained
    Earnings and fiscal year), as both sides of the carried table are."""
    retained = role_account(working, Role.RETAINED_EARNINGS)
    name = retained.full_name if retained else None
    start = split.year_start_of(working, day)
    rows = ((b.full_name, _type(b.type), b.daily) for b in snap.accounts)
    return split.book_figures(as_counted(working, rows), name, day, start)


def _type(name: str) -> AccountType | None:
    try:
        return AccountType(name)
    except ValueError:
        return None


def in_folder(
    prepared: pipeline.Prepared,
    target: Path,
    plan: Plan,
    on_progress: pipeline.Progress | None,
) -> pipeline.Outcome:
    """The wizard's import (``app.jobs.worker``): the working book at ``target``, the archive
    beside it (``audit.archive_name``) with its proof and the carried table for the audit pack;
    without a split day, what an earlier split left there is removed. The working book's
    outcome is returned with the archive's proof and the carried table as two of its checks,
    so a difference in either is a difference of the import."""
    folder = target.parent
    old = folder / audit.archive_name(target.name)
    if not plan.cutover.split_at:
        for path in (old, folder / audit.ARCHIVE_CSV, folder / audit.CARRIED_CSV):
            path.unlink(missing_ok=True)
        return pipeline.write(prepared, target, plan, on_progress, overwrite=True)
    done = write(prepared, target, old, plan, on_progress, overwrite=True)
    write_text(folder / audit.ARCHIVE_CSV, done.archive.report.to_csv())
    write_text(folder / audit.CARRIED_CSV, done.carried_csv())
    return with_split_checks(done)


def with_split_checks(done: SplitOutcome) -> pipeline.Outcome:
    """The working book's outcome, the archive's proof and the carried table as checks."""
    last = done.day - dt.timedelta(days=1)
    rows = done.archive.report.rows
    same = sum(1 for r in rows if r.ok)
    carried = len(done.carried)
    equal = sum(1 for c in done.carried if not c.difference)
    checks = (
        Check(
            f"archive book (the history to {last}): accounts as its history",
            len(rows),
            same,
            done.archive.report.ok,
            "" if done.archive.report.ok else done.archive.report.headline(),
            "" if done.archive.report.ok else check_causes.ARCHIVE,
            again=not done.archive.report.ok,
        ),
        Check(
            f"opening balances on {last} equal to the archive's closing balances: accounts",
            carried,
            equal,
            done.carried_ok,
            "" if done.carried_ok else done.carried_headline(),
            "" if done.carried_ok else check_causes.CARRIED,
            again=not done.carried_ok,
        ),
    )
    report = done.working.report
    report = replace(report, checks=(*report.checks, *checks))
    return replace(done.working, report=report)

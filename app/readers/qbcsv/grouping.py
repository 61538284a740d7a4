"""Split rows of a QuickBooks CSV report → transactions (used by app/readers/qbcsv/__init__.py).

Grouping modes:
- ``ref``: consecutive runs of one Trans # (a new run when the Trans # or a filled-in date
  changes); rows with an empty Trans # continue the run (the Journal leaves it blank after the
  first row); a Journal totals row ends the run.
- ``ledger``: General Ledger sections; rows gathered by Trans # across the whole file.
- ``balance``: no Trans # (the Find export): the running sum of the amounts returning to 0.00 ends
  a transaction, unless the next row has the same type, date and num and continues it. What
  decides there is the Split column when the file has one (``find.split_says``): on a transaction's
  first row it names the other side (or ``-SPLIT-``), on its later rows the first row's account.
  Where it cannot tell, or the file has no Split column, a next row with the same name too is
  kept in the transaction, with a warning naming the lines. The file's own Balance column is
  only cross-checked (it may be spoiled by a spreadsheet: ``#REF!``).
Dates are kept as text until the whole file is read, then the date order is decided once (a first
field over 12 proves D/M/Y, a second over 12 proves M/D/Y; both is an error) and every distinct
date text is parsed once.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Sequence
from dataclasses import replace
from decimal import Decimal, InvalidOperation
from typing import Literal

from app.account_labels import numbers_named
from app.model import (
    FileInfo,
    Layout,
    Ledger,
    NotImported,
    Problem,
    ReadOptions,
    Split,
    Transaction,
)
from app.quickbooks import non_posting_kind, non_posting_label, not_posted
from app.readers.date_orders import refuted
from app.readers.payers import named
from app.readers.private import quoted
from app.readers.qbcsv.build import Group, renamed, transaction_maker
from app.readers.qbcsv.ending import stops_early
from app.readers.qbcsv.find import group_by_balance
from app.readers.qbcsv.sections import Sections, section_problems
from app.readers.qbcsv.trial_balance import period
from app.readers.values import SHORT_AMOUNT, date_order, parse_amount, parse_date
from app.source import Source, line_list
from app.words import plural

ZERO = Decimal(0)
EXPORT_CAP = (32767, 32768)  # QuickBooks' export row cap: a file this long is probably cut
PLAIN = "0123456789.,-"
# An amount the hot loop may hand to Decimal directly: ASCII digits, commas grouping thousands
PLAIN_AMOUNT = re.compile(r"-?(?:[0-9]{1,3}(?:,[0-9]{3})+|[0-9]*)(?:\.[0-9]*)?").fullmatch
_GROUPED = re.compile(r"\d{1,3}(?:,\d{3})*(?:\.\d*)?|\.\d+").fullmatch
_NOT_DIGITS = re.compile(r"[^\d,.]").sub
_QUIET = frozenset({"Beginning Balance", "Opening Balance", "Balance Forward"})


AGAIN = (
    "this row repeats the header row: two reports pasted into one file? give each report as "
    "QuickBooks exported it (the row is not read)"
)
_HEADER_WORDS = {"amount", "debit", "credit", "paid amount", "balance"}


class Collector:
    """Receives the split rows of one file and turns them into a Ledger."""

    def __init__(self, filename: str, options: ReadOptions) -> None:
        self.filename = filename
        self.options = options
        self.slashed = True  # a date either order reads was seen (``_dates``; ISO: one order)
        self.problems: list[Problem] = []
        self.groups: list[Group] = []
        self.by_ref: dict[str, Group] = {}
        # balance mode: (line, kind, date, num, name, split, bal, Split cell)
        self.flat: list[tuple] = []
        self.has_split = False  # the file has a Split column (balance mode decides by it)
        self.labels: set[str] = set()  # every account and Account Type label (set at the end)
        self.others: dict[str, int] = {}  # ref mode: each Split cell → its first line
        self.whole = True  # the file ends with a TOTAL row (set at the end)
        self.titles: list[tuple[int, list[str]]] = []  # the rows above the header
        self.not_imported: list[NotImported] = []
        # column → (line, cell) of the rows where it is not a number and the other one is used
        self.unreadable: dict[str, list[tuple[int, str]]] = {"Amount": [], "Debit/Credit": []}
        self.mode = "ref"
        self.company = ""
        self.marks: list[str] = []
        self.header_line = 0
        self.last_line = 0
        self.rows = 0
        self.sectioned = False
        self.sections = Sections()  # a General Ledger's heading and Total rows

    def start(self, layout: str, header_line: int, has_ref: bool) -> None:
        self.header_line = header_line
        if layout == "ledger":
            self.mode = "ledger"
        elif has_ref or layout == "journal":
            self.mode = "ref"
        else:
            self.mode = "balance"

    # -- problems -------------------------------------------------------------------------
    def error(self, line: int | None, message: str) -> None:
        src = Source(self.filename, line) if line else None
        self.problems.append(Problem(src, message, "error"))

    def warn(self, line: int | None, message: str) -> None:
        src = Source(self.filename, line) if line else None
        self.problems.append(Problem(src, message, "warning"))

    # -- values ---------------------------------------------------------------------------
    def amount(self, text: str, line: int) -> Decimal | None:
        """Decimal of an amount cell; None (and an error) when it is not a number. Commas must
        group thousands: "12,34" or "1.234,56" (a decimal comma) is refused, never misread."""
        if "," in text and not _GROUPED(_NOT_DIGITS("", text)):
            self.error(
                line,
                f"expected an amount like 1,234.56 (got {quoted(text)}): commas must group "
                "thousands; the row's split is left out, so its transaction is incomplete",
            )
            return None
        if len(text) <= SHORT_AMOUNT and not text.strip(PLAIN):  # fast: digits , . - only
            try:
                return Decimal(text.replace(",", "") if "," in text else text)
            except InvalidOperation:
                pass  # "--3.00", "3.00-", "-": the full parser decides
        try:
            value = parse_amount(text)
        except ValueError as exc:
            if text.strip().casefold() in _HEADER_WORDS:  # (hunt 20: "got 'Debit'", "'Credit'")
                if self.problems[-1:] != [Problem(Source(self.filename, line), AGAIN, "error")]:
                    self.error(line, AGAIN)
                return None
            self.error(
                line, f"{exc}; the row's split is left out, so its transaction is incomplete"
            )
            return None
        return ZERO if value is None else value

    def checked(self, amount: str, debit: str, credit: str, line: int) -> Decimal | None:
        """A row of a report with Amount beside Debit and Credit whose cells do not agree as
        text: Debit/Credit is the value, Amount only a cross-check (a spreadsheet writes
        ``########`` for a number too wide for its column, in either). Amount is used only
        where Debit/Credit cannot be read; a row where both are numbers and differ is warned."""
        d, c, a = _number(debit), _number(credit), _number(amount)
        if d is not None and c is not None:
            value = d - c
            if a is None:
                self.unreadable["Amount"].append((line, amount.strip()))
            elif a != value:
                self.warn(
                    line,
                    f"Amount {quoted(amount.strip())} disagrees with Debit "
                    f"{debit.strip() or '(empty)'} / Credit {credit.strip() or '(empty)'}: "
                    f"Debit/Credit ({value:,.2f}) is "
                    "used; check the row (export the report again if a spreadsheet changed it)",
                )
            return value
        if a is not None and amount.strip():
            self.unreadable["Debit/Credit"].append((line, (debit if d is None else credit).strip()))
            return a
        return self.debit_credit(debit, credit, line)  # the error names the cell

    def debit_credit(self, debit: str, credit: str, line: int) -> Decimal | None:
        d = self.amount(debit, line) if debit else ZERO
        c = self.amount(credit, line) if credit else ZERO
        if d is None or c is None:
            return None
        return d - c

    # -- rows -----------------------------------------------------------------------------
    def add_row(  # noqa: PLR0917 - the hot path: one call per row
        self,
        line: int,
        ref: str,
        kind: str,
        date: str,
        num: str,
        name: str,
        split: Split,
        bal: str,
        other: str,
    ) -> None:
        self.rows += 1
        mode = self.mode
        if mode == "balance":
            self.flat.append((line, kind, date, num, name, split, bal, other))
            return
        if mode == "ledger":
            if not ref:
                self.error(line, "expected a Trans # on this General Ledger row (got “”)")
                return
            g = self.by_ref.get(ref)
            if g is None:
                g = self.by_ref[ref] = Group(line, ref, kind, date, num, name)
                self.groups.append(g)
            elif date and date != g.date:
                self.error(
                    line,
                    f"Trans # {ref} is dated {quoted(date)} here but {quoted(g.date)} on line "
                    f"{g.line}; one Trans # should be one transaction",
                )
            g.splits.append(split)
            if split.memo[:4].upper() == "VOID":
                g.void = True
            if name and name != g.name:
                g.own(split, name)
            return
        raise AssertionError("ref mode is grouped in qbcsv._rows")

    def totals(self, line: int, debit: str, credit: str, g: Group | None) -> None:
        """A row with Debit and Credit but no account: a Journal transaction's totals row (or
        the final TOTAL). It ends the transaction ``g``; its figures are cross-checked."""
        if g is None:
            return
        d, c = self.amount(debit, line), self.amount(credit, line)
        debits = sum((s.value for s in g.splits if s.value > 0), ZERO)
        if d is not None and c is not None and not (d == c == debits):
            self.warn(
                line,
                f"the totals row ({debit} / {credit}) does not match the debits of the "
                f"transaction of line {g.line} ({debits:,.2f})",
            )

    def bad_row(self, line: int, row: list[str], value: Decimal | None) -> None:
        """A row without an account (or with an unreadable amount, already reported)."""
        if value is None:
            return
        text = next((c.strip() for c in row if c.strip()), "")
        if not text or text.startswith("Total") or text == "TOTAL" or text in _QUIET:
            return
        if value:
            self.error(
                line, f"expected an account on a row with an amount (got {quoted(str(value))})"
            )
        else:
            self.warn(
                line, f"a row with neither account nor amount was skipped (got {quoted(text)})"
            )

    def non_posting_row(self, line: int, kind: str) -> bool:
        """Is this row (without an account, or with an amount that cannot be read) a row of
        an estimate or order? Then it is no problem (what was said about it is taken back):
        the document is counted under "not imported" and never read."""
        if not kind or not non_posting_kind(kind):
            return False
        self.problems = [p for p in self.problems if not p.source or p.source.line != line]
        return True

    def noise(self, line: int, row: list[str]) -> None:
        text = next((c.strip() for c in row if c.strip()), "")
        if text and not text.startswith("Total") and text != "TOTAL" and text not in _QUIET:
            self.warn(line, f"not a transaction row, skipped (got {quoted(text, 60)})")

    def heading(self, line: int, lead: list[str]) -> None:
        """Text in the leading columns of a report with an Account column: a Total row, or an
        account header of a report grouped by account (Transaction Detail by Account)."""
        text = next((c.strip() for c in lead if c.strip()), "")
        if text.startswith("Total ") or text == "TOTAL":
            return
        if self.mode == "ref":
            self.sectioned = True  # the same Trans # shows up under several accounts
        elif not self.sectioned:
            self.sectioned = True
            self.warn(
                line,
                f"this report is grouped by account ({quoted(text, 60)}) but has no Trans # "
                "column, so its transactions cannot be rebuilt safely: add Trans # and export "
                "again",
            )

    # -- the end --------------------------------------------------------------------------
    def ledger(self, kind: str, layout: Layout, encoding: str) -> Ledger:
        if self.mode != "ledger":  # numbers alone named as the file names them elsewhere
            cells = self.others.keys() if self.mode == "ref" else (row[7] for row in self.flat)
            if names := numbers_named(self.labels, cells):
                self.groups, self.flat = renamed(self.groups, self.flat, names)
                self.labels |= set(names.values())
        if self.mode == "balance":
            self.groups.extend(group_by_balance(self.flat, self.has_split, self.warn))
            self.flat = []
        if self.mode == "ref" and self.sectioned:
            self._merge_sections()
        order, ambiguous, dates = self._dates()
        txns = self._transactions(dates, order)
        # the title's period, its dates read in the rows' order (first day None: only the last)
        titled = period(self.titles, replace(self.options, date_order=order or "mdy"))
        # the groups are spent: let them go now, not after the cyclic collector (paused while
        # reading) has walked them once more with everything that was made
        self.groups, self.by_ref = [], {}
        if self.mode == "ledger" or self.sectioned:
            txns.sort(key=lambda t: (t.date, _ref_key(t.ref)))
        self._unreadable()
        if self.mode == "ledger":
            checked = not any(p.severity == "error" for p in self.problems)
            self.problems += section_problems(self.filename, self.sections, txns, checked=checked)
        data_lines = self.last_line - self.header_line
        early = None
        if self.rows in EXPORT_CAP or data_lines in EXPORT_CAP or self.last_line in EXPORT_CAP:
            self.problems.append(  # the fact; readers.read_one decides what it means
                Problem(
                    Source(self.filename, self.last_line),
                    f"{self.filename} has exactly {data_lines:,} data lines: probably truncated "
                    "by QuickBooks' export cap",
                    "warning",
                    topic="truncated",
                )
            )
        elif early := stops_early(
            self.filename,
            txns,
            layout,
            whole=self.whole,
            grouped_by_account=self.mode == "ledger" or self.sectioned,
            still_open=self.sections.still_open(),
            period_end=titled[1] if titled else None,
            last_line=self.last_line,
        ):
            self.problems.append(early)
        days = [t.date for t in txns]
        first, last = titled or (None, None)
        info = FileInfo(
            filename=self.filename,
            kind=kind,
            layout=layout,
            encoding=encoding,
            date_order=order if txns and self.slashed else "",  # (ISO alone proves none)
            date_order_ambiguous=ambiguous,
            counts=(
                ("Transactions", len(txns)),
                ("Splits", sum(len(t.splits) for t in txns)),
                *((("Not imported", len(self.not_imported)),) if self.not_imported else ()),
            ),
            first_date=min(days) if days else None,
            last_date=max(days) if days else None,
            marks=tuple(self.marks),
            titled=(first, last) if first and last else None,
            stops_early=("sections" if self.mode == "ledger" or self.sectioned else "end")
            if early
            else "",
        )
        return Ledger(
            transactions=tuple(txns),
            not_imported=tuple(self.not_imported),
            problems=tuple(self.problems),
            files=(info,),
            company=self.company,
        )

    def _unreadable(self) -> None:
        """One warning per column that could not be read on some rows where the other could."""
        for column, rows in self.unreadable.items():
            if rows:
                other = "Debit/Credit" if column == "Amount" else "Amount"
                n = len(rows)
                where = line_list(Source(self.filename, line) for line, _ in rows)
                self.warn(
                    rows[0][0],
                    f"the {column} column is not a number on {plural(n, 'row')} ({where}; "
                    f"got {quoted(rows[0][1])}); {other} holds the value there and is used, so "
                    "nothing is lost",
                )

    def _merge_sections(self) -> None:
        """Grouped by account: the runs of one Trans # found in several sections are one
        transaction (each split is still counted once: one row, one split)."""
        merged: dict[tuple[str, str], Group] = {}
        keep: list[Group] = []
        for g in self.groups:
            first = merged.get((g.ref, g.date)) if g.ref else None
            if first is None:
                if g.ref:
                    merged[(g.ref, g.date)] = g
                keep.append(g)
            else:
                first.splits.extend(g.splits)
                first.void = first.void or g.void
        self.groups = keep

    def _dates(self) -> tuple[Literal["mdy", "dmy"], bool, dict[str, dt.date | None]]:
        """Decide the date order once, then parse each distinct date text once."""
        first_seen: dict[str, int] = {}
        for g in self.groups:
            first_seen.setdefault(g.date, g.line)
        found = date_order(
            ((text, Source(self.filename, line)) for text, line in first_seen.items()),
            self.options.date_order,
        )
        if (wrong := refuted(found, self.options.date_order)) is not None:
            self.problems.append(wrong)
        dmy, mdy = found.dmy, found.mdy
        if found.mixed and dmy and mdy:
            self.error(
                dmy[1].line,
                f"this file mixes date orders: {quoted(dmy[0])} (line {dmy[1].line}) is "
                f"day/month/year but {quoted(mdy[0])} (line {mdy[1].line}) is month/day/year; "
                "export it again with one date format",
            )
        order, ambiguous, self.slashed = found.order, found.unsure, found.slashed
        dates: dict[str, dt.date | None] = {}
        for text in first_seen:
            try:
                dates[text] = parse_date(text, order, self.options.pivot)
            except ValueError:
                dates[text] = None
        return order, ambiguous, dates

    def _transactions(self, dates: dict[str, dt.date | None], order: str) -> list[Transaction]:
        """Groups → Transactions; a group whose date cannot be read is an error, not read. A
        non-posting document (an estimate or order, by its type or a non-posting account) is
        counted under "not imported" instead, whatever its cells hold."""
        out: list[Transaction] = []
        add = out.append
        make = transaction_maker()
        # raw Type → notes prefix, label, void, the "not imported" list of a non-posting type
        kinds: dict[str, tuple[str, str, bool, str]] = {}
        flagged = {label for label in self.labels if non_posting_label(label)}
        for g in self.groups:
            of_kind = kinds.get(g.kind)
            if of_kind is None:
                label = g.kind.strip()
                of_kind = kinds[g.kind] = (
                    f"QuickBooks {label or 'Trans'}", label, "VOID" in label.upper(),
                    non_posting_kind(label),
                )  # fmt: skip
            prefix, kind, void_kind, skipped = of_kind
            if flagged and not skipped:  # a non-posting account, whatever the type says
                skipped = _non_posting_account(g.splits, flagged)
            if skipped:
                self.sections.unread.update(s.source.line for s in g.splits)
                where = g.splits[0].source
                self.not_imported.append(
                    not_posted(skipped, where, kind=kind, num=g.num.strip(), date=g.date.strip(),
                               name=g.name.strip())
                )  # fmt: skip
                continue
            date = dates.get(g.date)
            if date is None:
                want = "D/M/YYYY" if order == "dmy" else "M/D/YYYY"
                self.error(
                    g.line,
                    f"expected a date like {want} (got {quoted(g.date)}); this transaction "
                    f"({len(g.splits)} split rows) is not read",
                )
                continue
            ref = g.ref
            if ref:
                ref = ref.strip()
                if "," in ref and ref.replace(",", "").isdigit():
                    ref = ref.replace(",", "")  # "364,134" is Trans # 364134
            notes = (f"{prefix} #{ref}" if ref else prefix) if kind or ref else ""
            splits: Sequence[Split] = g.splits
            name = g.name.strip()
            if g.names:  # lines with names of their own
                name, splits = named(name, splits, g.names)
            add(
                make(
                    date,
                    tuple(splits),
                    splits[0].source,  # the first row (one Source less per transaction)
                    g.num.strip(),
                    name,
                    notes,
                    ref,
                    kind,
                    # QuickBooks zeroes a voided transaction's amounts and starts its memo
                    # with VOID; a memo "VOID: reissued as 2076" on a live check is a memo
                    (g.void and not any(s.value for s in splits)) or void_kind,
                )
            )
        return out


def _non_posting_account(splits: list[Split], flagged: set[str]) -> str:
    """The "not imported" list of the first non-posting account (or Account Type) among the
    splits' labels, else ""."""
    for s in splits:
        for label in (s.account, s.account_type_label):
            if label in flagged:
                return non_posting_label(label)
    return ""


def _number(text: str) -> Decimal | None:
    """A cell's amount (0 when empty), None when it is not a number."""
    try:
        value = parse_amount(text)
    except ValueError:
        return None
    return ZERO if value is None else value


def _ref_key(ref: str) -> tuple[int, str]:
    digits = ref.replace(",", "")
    return (int(digits), "") if digits.isdigit() else (1 << 62, ref)

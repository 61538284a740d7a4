"""QuickBooks (and Reckon) Trial Balance report as CSV → the chart's figures on one date.

Layout (docs/FORMATS.md, "Trial Balance" and "What every QuickBooks CSV report looks like"):
optional title rows (company, "Trial Balance" / Reckon's "Open TB", "As of December 31, 2021",
"Accrual Basis"), a header row with Debit and Credit (``Dr``/``Cr``) and no Date; the account label
sits in an ``Account`` column or, in QuickBooks' own export, in the leading unnamed column(s); a
``TOTAL`` row ends the report. An optional ``Account Type``/``Type`` column gives the account's
type.

Each row becomes an ``Account`` with ``balance`` = debit − credit (credit-natured balances
negative, as QuickBooks' OBAMOUNT). Labels (``NNNN · Leaf``, ``Parent:Child``) are read with
app/resolve.py's rules: full name without numbers, the leaf's number as code; matching to a chart
of accounts happens when files are merged (``app.readers``). The TOTAL row is checked: its debits
equal its credits and the rows' sums, else the file is refused naming the line. The title's date
is ``FileInfo.exported_on`` (None when no title row gives one).
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import re
from decimal import Decimal
from pathlib import Path

from app.account_labels import canonical, split_prefix
from app.errors import ParseError
from app.model import Account, FileInfo, Ledger, ReadOptions
from app.quickbooks import ACCOUNT_TYPES, TYPE_WORDS
from app.readers.private import quoted, typed_masked
from app.readers.qbcsv.header import delimiter_of, first_rows
from app.readers.values import decode, full_year, parse_amount, parse_date, unreadable
from app.source import Source

KIND = "CSV Trial Balance"
SCAN = 15  # rows searched for the header row
ZERO = Decimal(0)

_DEBIT = frozenset({"debit", "dr", "debits"})
_CREDIT = frozenset({"credit", "cr", "credits"})
_ACCOUNT = frozenset({"account", "account name", "accounts"})
_TYPE = frozenset({"account type", "type"})
_NOT_TB = frozenset({"date", "trans #", "num", "split", "amount", "memo"})
_REPORT_NAMES = ("trial balance", "open tb", "accrual basis", "cash basis")
_MONTH = r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?"  # any month spelling
_DATES = re.compile(
    rf"(?P<mdy>{_MONTH}\s+\d{{1,2}},?\s+\d{{2,4}})"
    rf"|(?P<dmy>\d{{1,2}}\s+{_MONTH},?\s+\d{{2,4}})"
    r"|(?P<num>\d{4}-\d{1,2}-\d{1,2}|\d{1,2}[/.]\d{1,2}[/.]\d{2,4})",
    re.IGNORECASE,
)


def _norm(cell: str) -> str:
    return " ".join(cell.split()).casefold()


def _header(cells: list[str]) -> tuple[int, int, int | None, int | None] | None:
    """(debit, credit, account, type) indexes of a Trial Balance header row, else None."""
    words = [_norm(c) for c in cells]
    if _NOT_TB & set(words):
        return None
    debit = next((i for i, w in enumerate(words) if w in _DEBIT), None)
    credit = next((i for i, w in enumerate(words) if w in _CREDIT), None)
    if debit is None or credit is None:
        return None
    account = next((i for i, w in enumerate(words) if w in _ACCOUNT), None)
    kind = next((i for i, w in enumerate(words) if w in _TYPE), None)
    if account is None and min(debit, credit) == 0:
        return None  # no column left for the account labels
    return debit, credit, account, kind


def identify(path: Path, options: ReadOptions) -> bool:
    """True when one of the first rows is a Debit/Credit header without Date (not hand-mapped)."""
    return not options.columns and any(_header(cells) for _, cells in first_rows(path)[:SCAN])


def parse(path: Path, options: ReadOptions) -> Ledger:
    name = path.name
    text, encoding = decode(path.read_bytes())
    text = text.lstrip("\ufeff")
    lines = text.splitlines(keepends=True)
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter_of(lines[:SCAN]))
    try:
        rows = [(reader.line_num, row) for row in reader]
    except csv.Error as exc:
        raise ParseError(Source(name, reader.line_num), unreadable(exc)) from None
    at = next((i for i, (_, cells) in enumerate(rows[:SCAN]) if _header(cells)), None)
    if at is None:
        raise ParseError(Source(name, 1), "expected a Debit, Credit header row (got none)")
    titles = [c.strip() for _, cells in rows[:at] for c in cells if c.strip()]
    exported_on, exported_at = title_date(name, rows[: at + 1], options)
    header = _header(rows[at][1])
    assert header is not None
    accounts = _accounts(name, rows[at + 1 :], header)
    company = typed_masked(  # (typed into the title: masked as a memo is)
        next((t for t in titles[:3] if not _is_report_word(t) and not _DATES.search(t)), "")
    )
    info = FileInfo(
        filename=name,
        kind=KIND,
        layout="trial balance",
        encoding=encoding,
        counts=(("Accounts", len(accounts)),),
        exported_on=exported_on,
        exported_at=exported_at,
    )
    return Ledger(accounts=tuple(accounts), files=(info,), company=company)


def _is_report_word(text: str) -> bool:
    low = _norm(text)
    return any(w in low for w in _REPORT_NAMES) or low in {"debit", "credit", "dr", "cr"}


def title_date(
    name: str, rows: list[tuple[int, list[str]]], options: ReadOptions
) -> tuple[dt.date | None, Source | None]:
    """The as-of date of the title rows: an ``As of …`` cell first, else the first cell that is
    a date; a range (``January 1 through December 31, 2021``) gives its last date."""
    found: list[tuple[int, int, re.Match[str]]] = []  # (priority, line, the date)
    for line, cells in rows:
        for cell in cells:
            matches = list(_DATES.finditer(cell))
            if matches:
                found.append((0 if "as of" in _norm(cell) else 1, line, matches[-1]))
    if not found:
        return None, None
    _, line, m = min(found, key=lambda f: f[:2])
    return _read_date(Source(name, line), m, options), Source(name, line)


def period(
    rows: list[tuple[int, list[str]]], options: ReadOptions
) -> tuple[dt.date | None, dt.date] | None:
    """A report's period as its title rows give it (``January 1, 2019 through December 30,
    2021``: 2019-01-01, 2021-12-30; its first day None when the title gives only the last);
    None without such a range or when it is unreadable."""
    for line, cells in rows:
        for cell in cells:
            if "through" in _norm(cell) and (matches := list(_DATES.finditer(cell))):
                try:
                    last = _read_date(Source("", line), matches[-1], options)
                    first = _read_date(Source("", line), matches[0], options)
                except ParseError:
                    return None
                return (first if len(matches) > 1 and first <= last else None), last
    return None


def _read_date(where: Source, m: re.Match[str], options: ReadOptions) -> dt.date:
    """``Dec 31, 21`` / ``December 31, 2021`` / ``31 December 2021``, else a numeric date read
    like the reports' dates (M/D/Y unless the file's options say D/M/Y)."""
    try:
        if m["num"]:
            day = parse_date(m["num"], options.date_order or "mdy", options.pivot)
            assert day is not None
            return day
        words = re.sub(r"[,.]", " ", m[0]).split()
        if m["dmy"]:
            words = [words[1], words[0], words[2]]
        month, day_ = words[0][:3].title(), int(words[1])
        year = full_year(words[2], options.pivot)
        return dt.datetime.strptime(f"{month} {day_} {year}", "%b %d %Y").date()
    except ValueError:
        raise ParseError(
            where,
            f"the report's date is not a real date (got {quoted(m[0])}); give the cutover date",
        ) from None


def _accounts(
    name: str, rows: list[tuple[int, list[str]]], header: tuple[int, int, int | None, int | None]
) -> list[Account]:
    debit, credit, account_at, type_at = header
    label_end = account_at + 1 if account_at is not None else min(debit, credit)
    full_name = canonical(())  # the label's full name by resolve's rules, numbers stripped
    accounts: list[Account] = []
    sums = [ZERO, ZERO]
    for line, cells in rows:
        if not any(c.strip() for c in cells):
            continue
        label = next((c.strip() for c in cells[:label_end] if c.strip()), "")
        values = [_amount(name, line, cells, i) for i in (debit, credit)]
        if label.upper() == "TOTAL" or (not label and all(v is not None for v in values)):
            _check_total(name, line, values, sums)
            return accounts
        if not label:
            raise ParseError(
                Source(name, line), "a row with an amount but no account label: fix the report"
            )
        for i, v in enumerate(values):
            sums[i] += v or ZERO
        kind_label = cells[type_at].strip() if type_at is not None and type_at < len(cells) else ""
        code = TYPE_WORDS.get(kind_label.casefold())
        accounts.append(
            Account(
                full_name=full_name(label),
                type=ACCOUNT_TYPES[code] if code else None,
                source=Source(name, line),
                kind_label=code or kind_label,
                code=split_prefix(label.split(":")[-1])[0],
                balance=(values[0] or ZERO) - (values[1] or ZERO),
            )
        )
    end = rows[-1][0] if rows else 1
    if sums[0] != sums[1]:
        raise ParseError(
            Source(name, end),
            f"the trial balance does not balance: debits {sums[0]:,.2f}, credits "
            f"{sums[1]:,.2f} (no TOTAL row); export the report again",
        )
    return accounts


def _amount(name: str, line: int, cells: list[str], i: int) -> Decimal | None:
    try:
        return parse_amount(cells[i]) if i < len(cells) else None
    except ValueError as exc:
        raise ParseError(Source(name, line), f"column {i + 1}: {exc}") from None


def _check_total(name: str, line: int, values: list[Decimal | None], sums: list[Decimal]) -> None:
    de, cr = (v or ZERO for v in values)
    where = Source(name, line)
    if de != cr:
        raise ParseError(
            where,
            f"TOTAL debits {de:,.2f} and credits {cr:,.2f} differ by {de - cr:,.2f}: QuickBooks' "
            "trial balance always balances, so the file is damaged or edited; export it again",
        )
    if (de, cr) != tuple(sums):
        raise ParseError(
            where,
            f"TOTAL row ({de:,.2f} / {cr:,.2f}) is not the sum of the rows above it "
            f"({sums[0]:,.2f} / {sums[1]:,.2f}): a row is missing or edited; export it again",
        )

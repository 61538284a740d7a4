"""What a file no reader claims looks like, when it is plainly no QuickBooks export (a letter, a
JSON or HTML file, a PDF, a workbook) or a QuickBooks report that holds only totals (Profit &
Loss, Balance Sheet, an aging summary): named, with what to export instead, so the user is not
offered to map the columns of something that has none. ``refusal`` is None for a file that
could be a report with columns to map by hand."""

from __future__ import annotations

import csv
import io
import re
from dataclasses import dataclass
from pathlib import Path

from app.quickbooks import AS_CSV as CSV_MENU
from app.quickbooks import (
    MENU_JOURNAL,
    MENU_LISTS,
    MENU_OPEN_INVOICES,
    MENU_TRIAL_BALANCE,
    MENU_UNPAID_BILLS,
)
from app.readers.private import masked
from app.readers.qbcsv.header import delimiter_of
from app.readers.values import decode, is_binary, parse_date

HEAD = 65536
NOT_EXPORT = "this is not a QuickBooks export"  # how every such refusal starts
LISTS = f"{MENU_LISTS} (every list ticked)"
JOURNAL = f"{MENU_JOURNAL} (all dates)"
AS_CSV = f"saved as CSV with {CSV_MENU}"
EXPORTS = f"export the lists with {LISTS}, and the transactions with {JOURNAL}, {AS_CSV}"
TOTALS = (
    "it holds only a total per account, not the transactions or every account's balance a book "
    f"is made from. Export instead, each {AS_CSV}: the balances with {MENU_TRIAL_BALANCE}, the "
    f"transactions with {JOURNAL}"
)
# a report's title → (what it is, why it cannot be read and what to export instead)
SUMMARIES: tuple[tuple[re.Pattern[str], str, str], ...] = (
    (re.compile(r"profit\s*(&|and)\s*loss|income statement", re.I), "a Profit & Loss report",
     TOTALS),
    (re.compile(r"balance sheet", re.I), "a Balance Sheet report", TOTALS),
    (re.compile(r"statement of cash flows|cash flow", re.I), "a Statement of Cash Flows", TOTALS),
    (
        re.compile(r"a/?r aging summary|receivable aging summary", re.I),
        "an A/R Aging Summary",
        "it holds each customer's totals, not the open invoices. Export instead "
        f"{MENU_OPEN_INVOICES}, {AS_CSV}",
    ),
    (
        re.compile(r"a/?p aging summary|payable aging summary", re.I),
        "an A/P Aging Summary",
        "it holds each vendor's totals, not the unpaid bills. Export instead "
        f"{MENU_UNPAID_BILLS}, {AS_CSV}",
    ),
)  # fmt: skip
# a summary report exported without its title rows, by QuickBooks' own row labels in it
SUMMARY_ROWS: tuple[tuple[frozenset[str], str, str], ...] = (
    (frozenset({"ordinary income/expense", "net ordinary income", "net income"}),
     "a Profit & Loss report", TOTALS),
    (frozenset({"total assets", "total liabilities & equity"}), "a Balance Sheet report", TOTALS),
    (frozenset({"operating activities", "net cash provided by operating activities"}),
     "a Statement of Cash Flows", TOTALS),
)  # fmt: skip
MAGIC: tuple[tuple[bytes, str], ...] = (
    (b"%PDF", "a PDF document"),
    (b"PK\x03\x04", "an Excel workbook or another zipped file"),
    (b"\xd0\xcf\x11\xe0", "an Excel 97-2003 workbook or another Office document"),
    (b"\x89PNG", "a picture"),
    (b"\xff\xd8\xff", "a picture"),
)


@dataclass(frozen=True, slots=True)
class Refusal:
    kind: str  # the card's label: "Not a QuickBooks export", "Totals only"
    message: str  # what it looks like and what to export instead


def refusal(path: Path) -> Refusal | None:
    """Why ``path`` is no export to read or map, or None when it could be a report."""
    try:
        with path.open("rb") as f:
            data = f.read(HEAD)
    except OSError:
        return None
    return refusal_of(data)


def refusal_of(data: bytes) -> Refusal | None:
    if not data:
        return None
    if is_binary(data):
        default = "a binary file (compressed, or a program's own format)"
        what = next((w for magic, w in MAGIC if data.startswith(magic)), default)
        return _not_export(what, f"export a report {AS_CSV} instead, or {EXPORTS}")
    try:
        text, _ = decode(data)
    except UnicodeDecodeError:
        text = data.decode("cp1252", errors="replace")
    text = text.lstrip("\ufeff").lstrip()
    if text.startswith("!"):
        return None  # IIF: its own reader says what is wrong with it
    if text[:1] in "{[" and re.match(r"[\[{]\s*[\"{\[\]}]", text):
        return _not_export("a JSON data file (as programs and web services write them)", EXPORTS)
    if text[:1] == "<":
        html = re.match(r"<(!doctype html|html|head|body)", text, re.I)
        what = "a web page (HTML)" if html else "an XML file"
        return _not_export(what, f"export a report {AS_CSV} instead, or {EXPORTS}")
    rows = _rows(text)
    titles = " ".join(" ".join(r) for r in rows[:6])
    has_date = any(c.strip().lower() == "date" for r in rows[:30] for c in r)
    if not has_date:
        for pattern, what, why in SUMMARIES:
            if pattern.search(titles):
                return Refusal("Totals only", f"this is {what}: {why}")
        labels = {c.strip().lower() for r in rows for c in r if c.strip()}
        for marks, what, why in SUMMARY_ROWS:
            if len(marks & labels) >= 2:  # (two of its own rows: not a word in a memo)
                return Refusal("Totals only", f"this is {what}: {why}")
    return _no_table(text, rows)


def _no_table(text: str, rows: list[list[str]]) -> Refusal | None:
    """Sentences, a table too narrow for a report, or one without a date (a contact list): no
    columns to map."""
    if _prose(text, rows):
        return _not_export("a letter or other plain text (sentences, not columns)", EXPORTS)
    if narrow := _narrow(rows):
        return _not_export(
            f"{narrow}, where a report has a date, an account and an amount", EXPORTS
        )
    if not any(_dated(c) for r in rows for c in r):
        head = next((r for r in rows if len([c for c in r if c.strip()]) >= 3), [])
        names = ", ".join(masked(c.strip())[:30] for c in head if c.strip())
        return _not_export(
            f"a table without a single date{f' ({names})' if names else ''}, where a report of "
            "transactions has a "
            "date on each row; customers, vendors and accounts come from the lists export",
            EXPORTS,
        )
    return None


def _dated(cell: str) -> bool:
    """A cell a report's Date column could hold, in either day order."""
    for order in ("mdy", "dmy"):
        try:
            if parse_date(cell, order) is not None:
                return True
        except ValueError:
            continue
    return False


def _not_export(what: str, instead: str) -> Refusal:
    return Refusal(
        "Not a QuickBooks export",
        f"{NOT_EXPORT}: it looks like {what}. In QuickBooks, {instead}",
    )


def _rows(text: str) -> list[list[str]]:
    lines = text.splitlines()[:60]
    try:
        return list(csv.reader(io.StringIO("\n".join(lines)), delimiter=delimiter_of(lines)))
    except csv.Error:
        return [[line] for line in lines]


def _narrow(rows: list[list[str]]) -> str:
    """What a table too narrow for a report looks like ("a table of two columns (Name, Email)"),
    or "" when a row has the three cells a report to map needs at least (Date, Account and
    Amount; a report's title rows have one)."""
    filled = [[c.strip() for c in r if c.strip()] for r in rows]
    if not filled or any(len(cells) >= 3 for cells in filled):
        return ""
    head = next((cells for cells in filled if len(cells) == 2), None)
    if head is None:
        cells = [c for cells in filled for c in cells]
        if sum(" " in c for c in cells) * 2 >= len(cells):
            return "plain text (short lines of words, not columns)"
        return "a list of single values, one per line"
    names = ", ".join(masked(c)[:30] for c in head)
    return f"a table of two columns ({names})"


def _prose(text: str, rows: list[list[str]]) -> bool:
    """Sentences rather than a table: hardly two rows with three short cells, and lines of
    words; a short note with no such row at all and one line of words (a report to map has
    Date, Account and Amount columns at least)."""
    tabular = 0
    for r in rows:
        cells = [c.strip() for c in r if c.strip()]
        if len(cells) >= 3 and sorted(len(c) for c in cells)[len(cells) // 2] <= 30:
            tabular += 1
    wordy = sum(1 for line in text.splitlines()[:60] if len(line.split()) >= 5)
    return (tabular < 2 and wordy >= 2) or (tabular == 0 and wordy >= 1)

"""QuickBooks IIF reader: lists (ACCNT, CUST, VEND, EMP, TERMS, ...) and TRNS/SPL/ENDTRNS.

IIF is tab- (rarely comma-) separated text with CSV-style quotes: a ``!KEYWORD`` row names the
columns of the ``KEYWORD`` rows that follow, so every cell is read by header name, never by
position. This module does the file-level work (decoding, line ends, quoting, headers, ragged
rows); ``app.iif_lists`` turns list rows into accounts, terms and "not imported" entries,
``app.iif_names`` into customers (with jobs), vendors and employees, ``app.iif_trns`` TRNS/SPL
rows into transactions (and finds the date order: M/D/Y unless ``ReadOptions.date_order`` says
otherwise or a TRNS/SPL date proves D/M/Y).

Sensitive columns (employee SSNO, bank numbers, ``!QB ONLINE``) are blanked in ``Row`` as soon
as a line is split, before anything else sees them.
"""

from __future__ import annotations

import csv
import datetime as dt
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from app import iif_lists, iif_trns
from app.errors import ParseError
from app.model import (
    FileInfo,
    Ledger,
    Problem,
    ReadOptions,
    Source,
)
from app.values import clean, decode, parse_amount, parse_date

_IDENTIFY = re.compile(r'^"?![A-Za-z][A-Za-z ]*"?(\t|,|\s*$)')
# A VEND/CUST/EMP/OTHERNAME column that may hold a bank account or routing number.
_BANK_COLUMN = re.compile(r"BANK|ROUT|ACC(OU)?N?T ?(NUM|NO)|ACCOUNT ?NUMBER")
_NAME_LISTS = ("CUST", "VEND", "EMP", "OTHERNAME")
# Keywords whose unexpected extra cells are never quoted in a message (they may be sensitive).
_QUIET = ("EMP", "VEND", "CUST", "OTHERNAME", "ACCNT", "QB ONLINE", "QBP EMPLOYEE")


@dataclass(slots=True)
class Row:
    """One data row, read through the latest ``!KEYWORD`` header. Duplicate header names keep
    every cell (``all``); ``get`` returns the first."""

    keyword: str
    columns: tuple[str, ...]
    index: dict[str, int]  # column name → first position (shared by the rows of one header)
    cells: list[str]
    source: Source

    def get(self, name: str) -> str:
        i = self.index.get(name)
        return "" if i is None else self.cells[i].strip()

    def has(self, name: str) -> bool:
        return name in self.index

    def all(self, name: str) -> list[str]:
        return [clean(self.cells[i]) for i, col in enumerate(self.columns) if col == name]

    def text(self, name: str) -> str:
        """A free-text cell: the two characters ``\\n`` become a real line break."""
        return self.get(name).replace("\\n", "\n").strip()


@dataclass(slots=True)
class Reading:
    """What one pass over the file collects."""

    filename: str
    options: ReadOptions
    problems: list[Problem] = field(default_factory=list)

    def warn(self, source: Source | None, message: str) -> None:
        self.problems.append(Problem(source, message, "warning"))

    def error(self, source: Source | None, message: str) -> None:
        self.problems.append(Problem(source, message, "error"))


def identify(path: Path, options: ReadOptions) -> bool:
    """True when the first non-blank line (after a BOM) is a ``!KEYWORD`` header row."""
    try:
        with path.open("rb") as f:
            head = f.read(4096)
    except OSError:
        return False
    if b"\x00" in head and not head.startswith((b"\xff\xfe", b"\xfe\xff")):
        return False
    text, _ = decode(head)
    for line in re.split(r"\r\n|\r|\n", text):
        if line.strip():
            return bool(_IDENTIFY.match(line.lstrip("\ufeff").strip()))
    return False


def parse(path: Path, options: ReadOptions) -> Ledger:
    """Read one IIF file. Fatal file-level problems raise ``ParseError``; the rest are kept in
    ``Ledger.problems`` and reading goes on."""
    name = path.name
    text, encoding = decode(path.read_bytes())
    if "\x00" in text:
        raise ParseError(Source(name, 1), "this is a binary file, not an IIF text export")
    if not text.replace("\ufeff", "").strip():
        raise ParseError(Source(name, 1), "the file is empty")
    reading = Reading(name, options)
    rows = list(_rows(text, reading))
    order, ambiguous = iif_trns.date_order(rows, reading)
    lists = iif_lists.Lists(reading)
    transactions = iif_trns.Transactions(reading, order)
    for row in rows:
        if row.keyword in ("TRNS", "SPL", "ENDTRNS"):
            transactions.add(row)
        else:
            lists.add(row)
    transactions.finish()
    ledger_lists = lists.finish()
    txns = tuple(transactions.done)
    has_lists = any(r.keyword not in ("TRNS", "SPL", "ENDTRNS", "HDR") for r in rows)
    if txns and has_lists:
        kind = "IIF lists + transactions"
    elif txns:
        kind = "IIF transactions"
    else:
        kind = "IIF lists"
    counts = [*ledger_lists.counts()]
    if txns:
        counts.append(("Transactions", len(txns)))
        counts.append(("Splits", sum(len(t.splits) for t in txns)))
    dates = [t.date for t in txns]
    exported_on, exported_at = _export_date(rows, order, reading)
    info = FileInfo(
        filename=name,
        kind=kind,
        encoding=encoding,
        date_order=order if txns else "",
        date_order_ambiguous=ambiguous if txns else False,
        counts=tuple(counts),
        first_date=min(dates) if dates else None,
        last_date=max(dates) if dates else None,
        marks=tuple(sorted({s.mark for t in txns for s in t.splits if s.mark})),
        exported_on=exported_on,
        exported_at=exported_at,
    )
    return Ledger(
        accounts=ledger_lists.accounts,
        transactions=txns,
        customers=ledger_lists.customers,
        vendors=ledger_lists.vendors,
        employees=ledger_lists.employees,
        terms=ledger_lists.terms,
        not_imported=ledger_lists.not_imported,
        problems=tuple(sorted(reading.problems, key=_line)),
        files=(info,),
        chart=ledger_lists.chart,
    )


def _export_date(
    rows: list[Row], order: str, reading: Reading
) -> tuple[dt.date | None, Source | None]:
    """The day of the export from the ``HDR`` row: its DATE (in the file's date order), else
    its TIME (seconds since 1970, UTC). QuickBooks computes OBAMOUNT on that day."""
    hdr = next((r for r in rows if r.keyword == "HDR"), None)
    if hdr is None:
        return None, None
    try:
        day = parse_date(hdr.get("DATE"), order or "mdy")
    except ValueError:
        day = None
    if day is None and hdr.get("TIME").isdigit():
        day = dt.datetime.fromtimestamp(int(hdr.get("TIME")), dt.UTC).date()
    if day is None:
        if hdr.get("DATE"):
            reading.warn(hdr.source, f"the HDR row's export DATE {hdr.get('DATE')!r} is unreadable")
        return None, None
    return day, hdr.source


def _line(problem: Problem) -> int:
    return problem.source.line if problem.source else 0


# --- lines, quotes, headers -------------------------------------------------------------------


def _open_quote(text: str, delimiter: str) -> bool:
    """Does ``text`` end inside a quoted field (csv's own rules: a quote opens a field only at
    its start; ``""`` inside is a literal quote)?"""
    in_quote, at_start, i = False, True, 0
    while i < len(text):
        c = text[i]
        if in_quote:
            if c == '"':
                if text[i + 1 : i + 2] == '"':
                    i += 1
                else:
                    in_quote = False
        elif c == '"' and at_start:
            in_quote, at_start = True, False
        else:
            at_start = c in (delimiter, "\n")
        i += 1
    return in_quote


def _delimiter(lines: list[str]) -> str:
    """Tab, unless the first ``!`` header line has commas and no tab (comma-delimited IIF)."""
    for line in lines:
        if line.strip():
            if line.lstrip('"').startswith("!") and "\t" not in line and "," in line:
                return ","
            return "\t"
    return "\t"


def _records(text: str, name: str) -> Iterator[tuple[int, int, list[str], str]]:
    """(first line, last line, cells, delimiter) per record; CRLF, LF and bare CR all end a
    line. A quoted field may run over lines; one never closed is fatal."""
    lines = text.lstrip("\ufeff").replace("\r\n", "\n").replace("\r", "\n").split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    delimiter = _delimiter(lines)
    reader = csv.reader((line + "\n" for line in lines), delimiter=delimiter, strict=False)
    while True:
        start = reader.line_num + 1
        try:
            cells = next(reader)
        except StopIteration:
            return
        except csv.Error as exc:
            if _open_quote("\n".join(lines[start - 1 :]), delimiter):
                raise ParseError(Source(name, start), "a quoted field is never closed") from None
            raise ParseError(Source(name, start), f"cannot split this line ({exc})") from None
        end = reader.line_num
        if end == len(lines) and _open_quote("\n".join(lines[start - 1 :]), delimiter):
            raise ParseError(
                Source(name, start), 'a quoted field opened on this line is never closed (no ")'
            )
        yield start, end, cells, delimiter


def _rows(text: str, reading: Reading) -> Iterator[Row]:
    """Data rows, each read through the latest header of its keyword."""
    name = reading.filename
    headers: dict[str, _Header] = {}
    seen_header = False
    for start, end, cells, _ in _records(text, name):
        first = cells[0].strip() if cells else ""
        if not first and not any(c.strip() for c in cells):
            continue
        source = Source(name, start)
        if end > start:
            reading.warn(source, f"a quoted field runs over lines {start}-{end}")
        if first.startswith("!"):
            seen_header = True
            keyword = first[1:].strip().upper()
            headers[keyword] = _header(keyword, cells[1:])
            continue
        if not seen_header:
            shown = first if len(first) <= 40 else first[:40] + "..."
            raise ParseError(
                source, f"expected a !KEYWORD header row before the first data row (got {shown!r})"
            )
        keyword = first.upper()
        header = headers.get(keyword)
        if header is None:
            if keyword.startswith("END"):  # terminators (ENDGRP, ENDTAX, ENDTRNS...) need none
                yield Row(keyword, (), {}, [], source)
            else:
                reading.warn(
                    source, f"a {keyword} row with no !{keyword} header above it (not imported)"
                )
            continue
        yield _row(keyword, header, cells[1:], source, reading)


@dataclass(frozen=True, slots=True)
class _Header:
    columns: tuple[str, ...]
    index: dict[str, int]
    sensitive: tuple[int, ...]  # positions blanked on every row
    unnamed: tuple[int, ...]  # positions under an empty header cell


def _header(keyword: str, cells: list[str]) -> _Header:
    # A stray "!" on column names (seen in third-party files) is not part of the name.
    columns = tuple(c.strip().lstrip("!").strip().upper() for c in cells)
    index: dict[str, int] = {}
    for i, col in enumerate(columns):
        index.setdefault(col, i)
    sensitive = tuple(
        i
        for i, col in enumerate(columns)
        if (keyword == "EMP" and col.startswith("SSN"))
        or (keyword == "ACCNT" and col == "BANKNUM")
        or (keyword == "QB ONLINE" and col != "ACCNT")
        or (keyword in _NAME_LISTS and _BANK_COLUMN.search(col) is not None)
    )
    unnamed = tuple(i for i, col in enumerate(columns) if not col)
    return _Header(columns, index, sensitive, unnamed)


def _stray_message(keyword: str, stray: list[str]) -> str:
    """What was ignored in plain words, and whether any of it could have been an amount (name
    lists never show the cells: they may hold personal numbers)."""
    n = len(stray)
    what = "" if keyword in _QUIET else f" ({', '.join(repr(clean(c)) for c in stray[:3])})"
    cells = f"{n} cell{'s' * (n != 1)}"
    text = f"{cells} under no column name of the !{keyword} header ignored{what}"
    numbers = sum(1 for c in stray if _is_number(c))
    if not numbers:
        return f"{text}; none holds a number, so no amount is lost"
    which = "it holds" if n == 1 else f"{numbers} of them hold" + "s" * (numbers == 1)
    return (
        f"{text}; {which} a number that is not read: if it is an amount, the row has more "
        f"cells than the !{keyword} header names; line them up and import again"
    )


def _is_number(cell: str) -> bool:
    try:
        return parse_amount(cell) is not None
    except ValueError:
        return False


def _row(keyword: str, header: _Header, cells: list[str], source: Source, reading: Reading) -> Row:
    width = len(header.columns)
    if len(cells) < width:
        cells.extend([""] * (width - len(cells)))  # short rows are padded
    for i in header.sensitive:
        cells[i] = ""
    if len(cells) > width or header.unnamed:
        stray = [c for c in cells[width:] if c.strip()]
        stray += [cells[i] for i in header.unnamed if cells[i].strip()]
        if stray:
            reading.warn(source, _stray_message(keyword, stray))
        del cells[width:]
    return Row(keyword, header.columns, header.index, cells, source)

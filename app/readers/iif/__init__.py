"""QuickBooks IIF reader: lists (ACCNT, CUST, VEND, EMP, TERMS, ...) and TRNS/SPL/ENDTRNS.

IIF is tab- (rarely comma-) separated text with CSV-style quotes: a ``!KEYWORD`` row names the
columns of the ``KEYWORD`` rows that follow, so every cell is read by header name, never by
position. This module does the file-level work (decoding, line ends, quoting, headers, ragged
rows, with ``rows``); ``lists`` turns list rows into accounts, terms and "not imported" entries,
``names`` into customers (with jobs), vendors and employees, ``transactions`` TRNS/SPL rows into
transactions (and finds the date order: M/D/Y unless ``ReadOptions.date_order`` says
otherwise or a TRNS/SPL date proves D/M/Y).

Sensitive columns (employee SSNO, bank numbers, ``!QB ONLINE``) are blanked in ``Row``
(``app.readers.iif.rows``) as soon as a line is split, before anything else sees them.
"""

from __future__ import annotations

import csv
import datetime as dt
import re
from collections.abc import Iterator
from pathlib import Path

from app.errors import ParseError
from app.model import FileInfo, Layout, Ledger, Problem, ReadOptions
from app.read_progress import ReadProgress
from app.readers.iif.lists import Lists
from app.readers.iif.rows import Header, Reading, Row, read_header, read_row
from app.readers.iif.transactions import Transactions, file_date_order
from app.readers.private import digits_masked, quoted
from app.readers.values import csv_fault, decode, is_binary, parse_date
from app.source import Source

_IDENTIFY = re.compile(r'^"?![A-Za-z][A-Za-z ]*"?(\t|,|\s*$)')


def identify(path: Path, options: ReadOptions) -> bool:
    """True when the first non-blank line (after a BOM) is a ``!KEYWORD`` header row."""
    try:
        with path.open("rb") as f:
            head = f.read(4096)
    except OSError:
        return False
    if is_binary(head):
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
    refuse_spaced(text, name)
    reading = Reading(name, options)
    rows = list(_rows(text, reading))
    order, ambiguous, slashed = file_date_order(rows, reading)
    lists = Lists(reading)
    transactions = Transactions(reading, order)
    for row in rows:
        if row.keyword in ("TRNS", "SPL", "ENDTRNS"):
            transactions.add(row)
        else:
            lists.add(row)
    stops_early = transactions.finish(rows[-1].source if rows else None)
    ledger_lists = lists.finish()
    txns = tuple(transactions.done)
    has_lists = any(r.keyword not in ("TRNS", "SPL", "ENDTRNS", "HDR") for r in rows)
    layout: Layout
    read_txns = bool(txns or transactions.skipped)  # (estimates and orders are transactions)
    if read_txns and has_lists:
        kind, layout = "IIF lists + transactions", "iif"
    elif read_txns:
        kind, layout = "IIF transactions", "iif transactions"
    else:
        kind, layout = "IIF lists", "iif lists"
    counts = [*ledger_lists.counts()]
    if txns:
        counts.append(("Transactions", len(txns)))
        counts.append(("Splits", sum(len(t.splits) for t in txns)))
    not_imported = (*ledger_lists.not_imported, *transactions.skipped)
    if transactions.skipped:  # the lists' count, with the non-posting documents
        counts = [(k, n) for k, n in counts if k != "Not imported"]
        counts.append(("Not imported", len(not_imported)))
    dates = [t.date for t in txns]
    exported_on, exported_at, guessed = _export_date(rows, "" if ambiguous else order, reading)
    info = FileInfo(
        filename=name,
        kind=kind,
        layout=layout,
        encoding=encoding,
        date_order=order if txns and slashed else "",  # (ISO dates alone prove no order)
        date_order_ambiguous=(ambiguous and slashed) if txns else guessed,  # (HDR's order)
        counts=tuple(counts),
        first_date=min(dates) if dates else None,
        last_date=max(dates) if dates else None,
        marks=tuple(sorted({s.mark for t in txns for s in t.splits if s.mark})),
        exported_on=exported_on,
        exported_at=exported_at,
        stops_early="end" if stops_early else "",
    )
    return Ledger(
        accounts=ledger_lists.accounts,
        transactions=txns,
        customers=ledger_lists.customers,
        vendors=ledger_lists.vendors,
        employees=ledger_lists.employees,
        terms=ledger_lists.terms,
        not_imported=not_imported,
        problems=tuple(sorted(reading.problems, key=_line)),
        files=(info,),
        chart=ledger_lists.chart,
        items=ledger_lists.items,
        tax_codes=ledger_lists.tax_codes,
        budget_lines=ledger_lists.budget_lines,
        classes=ledger_lists.classes,
    )


def _export_date(
    rows: list[Row], order: str, reading: Reading
) -> tuple[dt.date | None, Source | None, bool]:
    """The day of the export from the ``HDR`` row: its DATE (in the file's date order; in a
    file of lists alone, which proves none, M/D/Y unless its TIME says D/M/Y), else its TIME
    (seconds since 1970, UTC). QuickBooks computes OBAMOUNT on that day."""
    hdr = next((r for r in rows if r.keyword == "HDR"), None)
    if hdr is None:
        return None, None, False
    stamped = (
        dt.datetime.fromtimestamp(int(hdr.get("TIME")), dt.UTC).date()
        if hdr.get("TIME").isdigit()
        else None
    )
    readings = []
    for each in [order] if order else ["mdy", "dmy"]:  # (a file of lists alone proves none)
        try:
            readings.append(parse_date(hdr.get("DATE"), each))
        except ValueError:
            readings.append(None)
    day = next((d for d in readings if d), None)  # (M/D/Y first: 25/11/2021 is D/M/Y)
    if stamped and not order and day and abs((day - stamped).days) > 1:  # (hunt 19: 5/11/2021
        day = next((d for d in readings if d and abs((d - stamped).days) <= 1), day)  # is 5 Nov)
    if day is None and stamped:
        day = stamped
    if day is None:
        if hdr.get("DATE"):
            reading.warn(
                hdr.source, f"the HDR row's export DATE {quoted(hdr.get('DATE'))} is unreadable"
            )
        return None, None, False
    # read M/D/Y by a guess: D/M/Y reads it too, and no TIME tells (an export date given that
    # reads it so is taken: ``as_of``)
    guessed = not stamped and None not in readings and len(set(readings)) == 2
    return day, hdr.source, guessed


def refuse_spaced(text: str, name: str) -> None:
    """An IIF file without a single tab (nor commas between its header's columns), whose
    ``!`` header rows hold several words: its tabs were turned into spaces, and every row
    would be one cell under no header. Refused before any row is read (its cells, SSNs among
    them, must not be echoed in a warning)."""
    if "\t" in text:
        return
    lines = text.lstrip("\ufeff").splitlines()
    if _delimiter(lines) != "\t":
        return
    for number, line in enumerate(lines, 1):
        if line.lstrip('"').startswith("!") and len(line.split()) > 2:
            raise ParseError(
                Source(name, number),
                "this IIF file has no tabs: its columns are separated by spaces (an editor or "
                "e-mail program turned the tabs into spaces), so no row can be read; export it "
                "again from QuickBooks and give that file as it is",
            )


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


_HEADER_LINE = re.compile(r'"?(![A-Z][A-Z ]*)"?$')


def _row_start(line: str, delimiter: str, keywords: set[str]) -> str:
    """The keyword (``!EMP``, ``EMP``, ``ENDTRNS``) when ``line`` starts a row of its own: a
    header, or a row of a keyword headed above; else ""."""
    first = line.split(delimiter, 1)[0].strip()
    header = _HEADER_LINE.match(first)
    if header:
        return header[1]
    return first if first in keywords else ""


def _records(
    text: str, name: str, seen: ReadProgress | None = None
) -> Iterator[tuple[int, int, list[str], str]]:
    """(first line, last line, cells, delimiter) per record; CRLF, LF and bare CR all end a
    line. A quoted field may run over lines, but not over a line that starts a row of its own
    (a header, or a row of a keyword headed above: a stray quote swallowing rows, an SSN among
    them, into one cell); that, and one never closed, are fatal."""
    lines = text.lstrip("\ufeff").replace("\r\n", "\n").replace("\r", "\n").split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    delimiter = _delimiter(lines)
    reader = csv.reader((line + "\n" for line in lines), delimiter=delimiter, strict=False)
    if seen is not None:  # asked from another thread: nothing per row here
        seen.follow(lambda: reader.line_num, lambda: reader.line_num / max(1, len(lines)))
    keywords = {"ENDTRNS"}  # the rows that start a line of their own (no header for this one)
    while True:
        start = reader.line_num + 1
        try:
            cells = next(reader)
        except StopIteration:
            return
        except csv.Error as exc:
            if _open_quote("\n".join(lines[start - 1 :]), delimiter):
                _runs_over_a_row(
                    lines, start, len(lines), delimiter=delimiter, keywords=keywords, name=name
                )
                raise ParseError(Source(name, start), "a quoted field is never closed") from None
            raise ParseError(
                Source(name, start), f"cannot split this line ({csv_fault(exc)})"
            ) from None
        end = reader.line_num
        if end > start:
            _runs_over_a_row(lines, start, end, delimiter=delimiter, keywords=keywords, name=name)
        if end == len(lines) and _open_quote("\n".join(lines[start - 1 :]), delimiter):
            raise ParseError(
                Source(name, start), 'a quoted field opened on this line is never closed (no ")'
            )
        first = cells[0].strip() if cells else ""
        if first.startswith("!") and first[1:].strip():
            keywords.add(first[1:].strip().upper())
        yield start, end, cells, delimiter


def _runs_over_a_row(
    lines: list[str], start: int, end: int, *, delimiter: str, keywords: set[str], name: str
) -> None:
    """Refuse a record of lines ``start``..``end`` whose quoted field runs over a line that
    starts a row of its own (the message names that line and its keyword, never a cell)."""
    for k in range(start + 1, end + 1):
        keyword = _row_start(lines[k - 1], delimiter, keywords)
        if keyword:
            raise ParseError(
                Source(name, start),
                f"a quoted field opened on this line runs over line {k} ({keyword}), the start "
                'of a row of its own: a stray quote (") or one never closed; remove it or close '
                "it on its line, and export or add the file again",
            )


def _rows(text: str, reading: Reading) -> Iterator[Row]:
    """Data rows, each read through the latest header of its keyword."""
    name = reading.filename
    headers: dict[str, Header] = {}
    seen_header = False
    for start, end, cells, _ in _records(text, name, reading.options.seen):
        first = cells[0].strip() if cells else ""
        if not first and not any(c.strip() for c in cells):
            continue
        source = Source(name, start)
        if end > start:
            reading.warn(source, f"a quoted field runs over lines {start}-{end}")
        if first.startswith("!"):
            seen_header = True
            keyword = first[1:].strip().upper()
            headers[keyword] = read_header(keyword, cells[1:])
            continue
        if not seen_header:
            raise ParseError(
                source,
                "expected a !KEYWORD header row before the first data row (got "
                f"{quoted(first, 40)})",
            )
        keyword = first.upper()
        header = headers.get(keyword)
        if header is None:
            if keyword.startswith("END"):  # terminators (ENDGRP, ENDTAX, ENDTRNS...) need none
                yield Row(keyword, (), {}, [], source)
            else:
                said = digits_masked(keyword)  # (a note's line broken off may hold anything)
                reading.warn(source, f"a {said} row with no !{said} header above it (not imported)")
            continue
        row = read_row(keyword, header, cells[1:], source, reading)
        if row is not None:
            yield row

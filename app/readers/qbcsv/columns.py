"""Hand-mapped CSV columns: the roles a user can give a report's columns, and a live sample of
the first rows read as the reader will read them (sensitive cells blanked: a column named like
an SSN or a bank number; anything shaped like an SSN is masked). Only CSV reports have columns
to map: ``mappable``."""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from pathlib import Path

from app.model import money
from app.readers import looks
from app.readers.private import SENSITIVE_HEADER, ssn_masked
from app.readers.qbcsv.header import delimiter_of, first_rows
from app.readers.values import decode, parse_amount, parse_date

COLUMN_ROLES = (
    ("ref", "Trans #", "groups the lines of one transaction"),
    ("kind", "Type", "Check, Invoice, ..."),
    ("date", "Date", "required"),
    ("num", "Num", "check or invoice number"),
    ("name", "Name", "customer, vendor, payee"),
    ("memo", "Memo", ""),
    ("account", "Account", "required"),
    ("mark", "Clr", "cleared mark"),
    ("amount", "Amount", "signed; or Debit and Credit"),
    ("debit", "Debit", ""),
    ("credit", "Credit", ""),
    ("class", "Class", "optional: QuickBooks' class"),
)
SAMPLE_ROWS = 8
SUFFIXES = (".csv", ".txt")


def mappable(path: Path) -> bool:
    """A CSV or text file that reads as a report (not IIF, not binary, nothing ``looks``
    refuses: a letter, JSON, a report of totals): columns to map."""
    return (
        path.suffix.lower() in SUFFIXES and bool(first_rows(path)) and looks.refusal(path) is None
    )


@dataclass(frozen=True, slots=True)
class ColumnSample:
    header_line: int
    headers: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]  # cells as found
    parsed: tuple[tuple[tuple[str, str, bool], ...], ...]  # per row: (role label, value, ok)
    complaint: str


def column_sample(path: Path, columns: dict[str, str], date_order: str = "") -> ColumnSample:
    """The first rows of a CSV with the chosen columns read as the reader will: live feedback
    while the user maps them. The header is the first row with at least three filled cells."""
    text, _ = decode(path.read_bytes()[: 256 * 1024])
    lines = text.splitlines()[:400]
    rows = list(csv.reader(io.StringIO("\n".join(lines)), delimiter=delimiter_of(lines[:20])))
    start = next((i for i, r in enumerate(rows[:30]) if sum(1 for c in r if c.strip()) >= 3), 0)
    headers = tuple(c.strip() for c in rows[start]) if rows else ()
    body = [r for r in rows[start + 1 :] if any(c.strip() for c in r)][:SAMPLE_ROWS]
    hidden = {i for i, h in enumerate(headers) if SENSITIVE_HEADER.search(h)}
    body = [[_shown(c, i in hidden) for i, c in enumerate(r)] for r in body]
    position = {h: i for i, h in reversed(list(enumerate(headers)))}
    labels = {role: label for role, label, _ in COLUMN_ROLES}
    parsed = []
    for r in body:
        cells = []
        for role, header in columns.items():
            i = position.get(header)
            raw = r[i].strip() if i is not None and i < len(r) else ""
            cells.append((labels.get(role, role), *_read(role, raw, date_order)))
        parsed.append(tuple(cells))
    missing = [labels[r] for r in ("date", "account") if r not in columns]
    if "amount" not in columns and not {"debit", "credit"} <= columns.keys():
        missing.append("Amount (or Debit and Credit)")
    complaint = ("Still to choose: " + ", ".join(missing)) if missing else ""
    return ColumnSample(start + 1, headers, tuple(tuple(r) for r in body), tuple(parsed), complaint)


def _shown(cell: str, hidden: bool) -> str:
    return "" if hidden else ssn_masked(cell)


def _read(role: str, raw: str, date_order: str) -> tuple[str, bool]:
    try:
        if role == "date":
            d = parse_date(raw, date_order or "mdy")
            return (d.isoformat() if d else "(empty)", d is not None)
        if role in ("amount", "debit", "credit"):
            v = parse_amount(raw)
            return (money(v), v is not None or role != "amount")
    except ValueError as exc:
        return (str(exc), False)
    return (raw, True)

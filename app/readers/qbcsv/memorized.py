"""QuickBooks' Memorized Transaction List (Lists › Memorized Transaction List, exported or printed
to a CSV file) → ``Memorized`` (app/extras.py).

What the export holds [the list's columns as QuickBooks Desktop shows them: Transaction Name,
Type, Source Account, Amount, Frequency, Auto, Next Date; the Memorize dialog adds How Often,
Number Remaining, Days In Advance]: per memorized transaction its name, type, source account,
amount, how often, whether QuickBooks enters it by itself, the next date and (when exported) how
many remain; groups appear as rows of type "Group" (or without type and account), their members
below them. It does not hold the transaction's other lines: ``app.schedules`` takes them from the
history. The reader is driven by the header row: a name column (Transaction Name, Name) with
Frequency or How Often, or any header row under a "Memorized Transaction" title. Amounts as the
list shows them (unsigned); dates read like the reports' (M/D/Y unless the file says D/M/Y). A
row whose amount or date cannot be read is refused at its line.
"""

from __future__ import annotations

import re
from pathlib import Path

from app.errors import ParseError
from app.extras import Memorized
from app.model import FileInfo, Ledger, ReadOptions
from app.readers.private import quoted
from app.readers.qbcsv.header import all_rows, first_rows
from app.readers.values import parse_amount, parse_date
from app.source import Source

KIND = "CSV Memorized Transaction List"
SCAN = 12
_TITLE = re.compile(r"memori[sz]ed transaction", re.IGNORECASE)
COLUMNS = {
    "transaction name": "name",
    "memorized transaction": "name",
    "memorised transaction": "name",
    "name": "name",
    "type": "kind",
    "source account": "account",
    "account": "account",
    "amount": "amount",
    "frequency": "frequency",
    "how often": "frequency",
    "auto": "auto",
    "next date": "next",
    "next": "next",
    "number remaining": "remaining",
    "remaining": "remaining",
    "payee": "payee",
    "source name": "payee",
}
AGAIN = "export the Memorized Transaction List again"


def _roles(cells: list[str]) -> dict[str, int]:
    roles: dict[str, int] = {}
    for i, cell in enumerate(cells):
        role = COLUMNS.get(" ".join(cell.split()).casefold())
        if role and role not in roles:
            roles[role] = i
    return roles


def _header(rows: list[tuple[int, list[str]]]) -> int | None:
    """The index of the header row, or None."""
    titled = False
    for i, (_, cells) in enumerate(rows[:SCAN]):
        roles = _roles(cells)
        if "name" in roles and ("frequency" in roles or (titled and len(roles) >= 3)):
            return i
        titled = titled or any(_TITLE.search(c) for c in cells)
    return None


def identify(path: Path, options: ReadOptions) -> bool:
    return not options.columns and _header(first_rows(path)) is not None


def parse(path: Path, options: ReadOptions) -> Ledger:
    name = path.name
    rows, encoding = all_rows(path, SCAN)
    at = _header(rows)
    if at is None:
        raise ParseError(Source(name, 1), f"expected a header row with a Transaction Name; {AGAIN}")
    roles = _roles(rows[at][1])
    out: list[Memorized] = []
    for line, cells in rows[at + 1 :]:

        def cell(role: str, cells: list[str] = cells) -> str:
            i = roles.get(role)
            return cells[i].strip() if i is not None and i < len(cells) else ""

        label = cell("name") or next((c.strip() for c in cells[: roles["name"]] if c.strip()), "")
        if not label or label.upper() == "TOTAL":
            continue
        where = Source(name, line)
        try:
            amount = parse_amount(cell("amount"))
        except ValueError as exc:
            raise ParseError(where, f"{quoted(label)}: the amount: {exc}; {AGAIN}") from None
        try:
            due = parse_date(cell("next"), options.date_order or "mdy", options.pivot)
        except ValueError:
            raise ParseError(
                where,
                f"{quoted(label)}: the next date {quoted(cell('next'))} is not a date; {AGAIN}",
            ) from None
        remaining = cell("remaining")
        out.append(
            Memorized(
                label,
                where,
                kind=cell("kind"),
                account=cell("account"),
                amount=abs(amount) if amount is not None else None,
                frequency=cell("frequency"),
                next_date=due,
                remaining=int(remaining) if remaining.isdigit() else None,
                payee=cell("payee"),
            )
        )
    info = FileInfo(
        filename=name,
        kind=KIND,
        layout="memorized",
        encoding=encoding,
        counts=(("Memorized transactions", len(out)),),
    )
    return Ledger(files=(info,), memorized=tuple(out))

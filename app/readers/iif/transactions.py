"""IIF TRNS/SPL/ENDTRNS rows → transactions, and the file's date order.

The TRNS row is the first split and each SPL another; AMOUNT is signed (debit +); CLEAR Y →
reconciled; CLASS is the line's class (``Split.klass``).
A repeated ENDTRNS is ignored; a missing one is closed by the next TRNS (warning).
Balance is not checked here: validation does it for every reader. A non-posting document (an
estimate or order: its TRNSTYPE, or a non-posting account such as Estimates) is counted under
"not imported" (``skipped``), never read, and its cells never complain. The description is the
TRNS NAME, else the SPL rows' names (``app.readers.payers``: a deposit's payers).
"""

from __future__ import annotations

from decimal import Decimal
from typing import Literal

from app.classes import class_name
from app.items import ItemLine
from app.model import NotImported, Problem, Reconcile, Split, Transaction
from app.quickbooks import non_posting, non_posting_kind, not_posted
from app.readers.iif.rows import Reading, Row
from app.readers.payers import named
from app.readers.private import quoted
from app.readers.values import date_order, is_order, parse_amount, parse_bool, parse_date
from app.source import Source

# --- dates ------------------------------------------------------------------------------------


def file_date_order(rows: list[Row], reading: Reading) -> tuple[Literal["mdy", "dmy"], bool, bool]:
    """M/D/Y unless options say otherwise or a transaction date proves D/M/Y (first field over
    12). Returns (order, ambiguous: no date proved it, slashed: a date either order reads was
    there: ISO dates alone leave nothing to be unsure of)."""
    given = reading.options.date_order
    if is_order(given):
        return given, False, True
    found = date_order(
        (row.get("DATE"), row.source) for row in rows if row.keyword in ("TRNS", "SPL")
    )
    if found.mixed and found.dmy and found.mdy:
        (dmy, where), (mdy, other) = found.dmy, found.mdy
        reading.error(
            where,
            f"dates in two orders: {quoted(dmy)} is D/M/Y but line {other.line} has "
            f"{quoted(mdy)} (M/D/Y); set the date order",
        )
    return found.order, found.ambiguous, found.slashed


# --- transactions -----------------------------------------------------------------------------

_RECONCILED = ("Y", "YES", "R", "X", "✓", "√")
_CLEARED = ("C", "*")


class Transactions:
    """TRNS + SPL... + ENDTRNS. Repeated ENDTRNS is ignored; a missing one is closed by the next
    TRNS (warning). Balance is not checked here: validation does it for every reader."""

    def __init__(self, reading: Reading, order: str) -> None:
        self.reading = reading
        self.order = order
        self.head: Row | None = None
        self.splits: list[Split] = []
        self.done: list[Transaction] = []
        self.skipped: list[NotImported] = []
        self.names: list[tuple[Split, str]] = []  # SPL rows naming someone other than TRNS
        self.skipping = ""  # the open TRNS is a non-posting document ("not imported" list)
        self.last: Source | None = None  # the last TRNS or SPL row's

    def add(self, row: Row) -> None:
        if row.keyword != "ENDTRNS":
            self.last = row.source
        if row.keyword == "TRNS":
            if self.head is not None:
                self.reading.warn(
                    row.source,
                    f"TRNS without ENDTRNS before it: the transaction of line "
                    f"{self.head.source.line} ends here",
                )
                self._close()
            self.head, self.splits, self.names = row, [], []
            self.skipping = non_posting_kind(row.get("TRNSTYPE"))
            self._split(row)
        elif row.keyword == "SPL":
            if self.head is None:
                self.reading.error(row.source, "expected a TRNS row before this SPL row (got SPL)")
                return
            self._split(row)
        else:  # ENDTRNS: a repeated one closes nothing
            self._close()

    def finish(self, last_row: Source | None) -> bool:
        """Close the last transaction; True when the file stops inside it (no ENDTRNS after
        it, which QuickBooks writes after every transaction, and its rows the file's last: a
        file cut short, said as such, ``readers.cut``, hunt 20). ``last_row``: the file's."""
        head, last = self.head, self.last
        if head is None:
            return False
        self._close()
        if last != last_row:  # (list rows follow it: the file goes on, hunt 21)
            self.reading.warn(
                head.source, "transaction not closed by ENDTRNS before the end of the file"
            )
            return False
        t = self.done[-1] if self.done and self.done[-1].source == head.source else None
        kind, day = head.get("TRNSTYPE").title() or "transaction", head.get("DATE")
        what = f"{t.kind_label or kind} of {t.date.isoformat()}" if t else f"{kind} of {day}"
        said = (
            f"{self.reading.filename} stops early: its last transaction ({what}, line "
            f"{head.source.line}) is not closed by ENDTRNS, which QuickBooks writes after every "
            "transaction" + (", and its lines do not balance" if t and t.total else "")
        )
        self.reading.problems.append(Problem(last, said, "warning", topic="truncated"))
        return True

    def _split(self, row: Row) -> None:
        if self.skipping:  # only its accounts matter: nothing of it is read
            self.splits.append(Split(row.get("ACCNT"), Decimal(0), row.source))
            return
        raw = row.get("AMOUNT")
        try:
            value = parse_amount(raw)
        except ValueError as exc:
            self.reading.error(row.source, f"AMOUNT: {exc}")
            return
        if value is None:
            self.reading.warn(row.source, "AMOUNT is empty: read as 0.00")
            value = Decimal(0)
        mark = row.get("CLEAR")
        up = mark.upper()
        if up in _RECONCILED:
            reconcile = Reconcile.RECONCILED
        elif up in _CLEARED:
            reconcile = Reconcile.CLEARED
        else:
            reconcile = Reconcile.NEW
            if up not in ("", "N", "NO"):
                self.reading.warn(
                    row.source, f"expected CLEAR Y or N (got {quoted(mark)}): read as N"
                )
        split = Split(
            account=row.get("ACCNT"),
            value=value,
            source=row.source,
            memo=row.text("MEMO"),
            reconcile=reconcile,
            mark=mark,
            item=self._item(row),
            klass=class_name(row.get("CLASS")),
        )
        self.splits.append(split)
        name = row.get("NAME")
        if name and self.head is not None and name != self.head.get("NAME"):
            self.names.append((split, name))

    def _item(self, row: Row) -> ItemLine | None:
        """The line's INVITEM, QNTY, PRICE (a rate: ``10%``), TAXABLE, EXTRA (AUTOSTAX: the sales
        tax line) and, in VAT/GST editions, TAXCODE and TAXAMOUNT; None when it has none."""
        if not row.has("INVITEM") and not row.has("EXTRA") and not row.has("TAXCODE"):
            return None
        numbers = {}
        for col in ("QNTY", "PRICE", "TAXAMOUNT"):
            try:
                numbers[col] = parse_amount(row.get(col))
            except ValueError as exc:
                self.reading.warn(row.source, f"{col}: {exc}; not read")
                numbers[col] = None
        percent = row.get("PRICE").endswith("%")
        try:
            taxable = parse_bool(row.get("TAXABLE"))
        except ValueError as exc:
            self.reading.warn(row.source, f"TAXABLE: {exc}; read as not said")
            taxable = None
        line = ItemLine(
            item=row.get("INVITEM"),
            quantity=numbers["QNTY"],
            price=None if percent else numbers["PRICE"],
            percent=numbers["PRICE"] if percent else None,
            taxable=taxable,
            tax_code=row.get("TAXCODE"),
            tax_amount=numbers["TAXAMOUNT"],
            auto_tax=row.get("EXTRA").upper() == "AUTOSTAX",
        )
        return line or None

    def _close(self) -> None:
        head, splits, names = self.head, self.splits, self.names
        self.head, self.splits, self.names = None, [], []
        if head is None:
            return
        kind = head.get("TRNSTYPE")
        skipped = non_posting(kind, (s.account for s in splits))
        if skipped:
            self.skipped.append(
                not_posted(skipped, head.source, kind=kind, num=head.get("DOCNUM"),
                           date=head.get("DATE"), name=head.get("NAME"))
            )  # fmt: skip
            return
        try:
            date = parse_date(head.get("DATE"), self.order, self.reading.options.pivot)
        except ValueError as exc:
            self.reading.error(head.source, f"{exc}; transaction not read")
            return
        if date is None:
            self.reading.error(head.source, "the TRNS row has no DATE; transaction not read")
            return
        ref = head.get("TRNSID")
        due = None
        if head.get("DUEDATE"):
            try:
                due = parse_date(head.get("DUEDATE"), self.order, self.reading.options.pivot)
            except ValueError as exc:
                self.reading.warn(head.source, f"DUEDATE: {exc}; the terms decide the due date")
        description, lines = named(head.get("NAME"), splits, names)  # a deposit's payers
        self.done.append(
            Transaction(
                date=date,
                splits=lines,
                source=head.source,
                num=head.get("DOCNUM"),
                description=description,
                notes=" ".join(p for p in ("QuickBooks", kind, ref) if p),
                ref=ref,
                kind_label=kind,
                due=due,
                terms=head.get("TERMS"),
            )
        )

"""The opening transaction: what the cutover makes (``app.cutover``: full history, balances
only) and what an archive's working book starts from (``app.archive``), one rule for each."""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from collections.abc import Sequence
from decimal import Decimal

from app.business import REPORT_SIDES
from app.model import Account, AccountType, Ledger, Problem, Split, Transaction, money
from app.quickbooks import MENU_OPEN_INVOICES, MENU_UNPAID_BILLS
from app.source import Source

OPENING_KIND = "Opening balances"  # Transaction.kind_label of the transaction made here
ZERO = Decimal(0)


def opening(day: dt.date, lines: list[Split], source: Source, notes: str) -> Transaction:
    return Transaction(
        date=day,
        splits=tuple(lines),
        source=source,
        description="Opening balances",
        notes=notes,
        kind_label=OPENING_KIND,
    )


def opened(ledger: Ledger) -> tuple[dt.date | None, dict[str, Decimal]]:
    """The opening transaction made here (not voided): its day, and each account's line."""
    day: dt.date | None = None
    lines: defaultdict[str, Decimal] = defaultdict(lambda: ZERO)
    for t in ledger.transactions:
        if t.kind_label == OPENING_KIND and not t.voided:
            day = t.date
            for s in t.splits:
                lines[s.account] += s.value
    return day, dict(lines)


def trial_balance_opening(
    lines: list[Split], day: dt.date, source: Source, notes: str
) -> tuple[tuple[Transaction, ...], Decimal]:
    """A trial balance (a line per account) as the one opening transaction on ``day`` (none
    when every line is zero), and what it is off by: nothing is made unless it sums to zero
    (balances-only mode; the working book of ``app.archive``)."""
    off = sum((s.value for s in lines), ZERO)
    if off:
        return (), off
    lines = [s for s in lines if s.value]
    return ((opening(day, lines, source, notes),) if lines else ()), ZERO


_OPEN_ITEMS = (  # the side, its account type, its report and QuickBooks' menu for it
    ("customer", AccountType.RECEIVABLE, "Open Invoices", MENU_OPEN_INVOICES, "invoices"),
    ("vendor", AccountType.PAYABLE, "Unpaid Bills Detail", MENU_UNPAID_BILLS, "bills"),
)


def unbacked(ledger: Ledger, figured: Sequence[Account], day: dt.date) -> list[Problem]:
    """A warning per side whose A/R or A/P balance opens as one amount, no open-items report
    given to put the customers' invoices or vendors' bills behind it: GnuCash's aging shows
    nothing there, and the first payment has nothing to be applied to."""
    out = []
    for kind, type_, report, menu, docs in _OPEN_ITEMS:
        owed = [a for a in figured if a.type == type_ and a.balance]
        if not owed or any(o.owner_kind == kind for o in ledger.open_items):
            continue
        total = sum((a.balance or ZERO for a in owed), ZERO)
        names = ", ".join(a.full_name for a in owed)
        given = any(REPORT_SIDES.get(f.layout) == kind for f in ledger.files)
        why = f"the {report} report given lists none" if given else f"no {report} report was given"
        todo = "Export QuickBooks'" if given else "Add QuickBooks'"
        out.append(
            Problem(
                owed[0].source,
                f"{names} ({money(abs(total))}) opens as one amount on {day}: {why}, "
                f"so no {kind}'s open {docs} stand behind it in GnuCash (its "
                f"aging shows none, and the next payment has no {docs[:-1]} to be applied to). "
                f"{todo} {report} report as of {day} ({menu}, exported as CSV)"
                + (" again, and give it" if given else " to the files")
                + " to bring them as documents",
                "warning",
            )
        )
    return out

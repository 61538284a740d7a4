"""Accounts QuickBooks creates by itself, the first time a transaction needs them.

A lists export may lack them (Intuit's own IIF examples post to Accounts Receivable and
Undeposited Funds without declaring them), yet their type is fixed by QuickBooks, so nothing is
guessed: a transaction naming one of them, with no such account in the chart, gets it created
with QuickBooks' type and role, and a warning says so. Without a chart, the same table types an
account by its name when the report row does not.
"""

from __future__ import annotations

from app.iif_lists import ACCOUNT_TYPES
from app.model import Account, Problem, Role, Source

# name (as QuickBooks spells it) → (QuickBooks type code, role)
BUILTIN: dict[str, tuple[str, Role]] = {
    "Accounts Receivable": ("AR", Role.NONE),
    "Accounts Payable": ("AP", Role.NONE),
    "Undeposited Funds": ("OCASSET", Role.UNDEPOSITED),
    "Sales Tax Payable": ("OCLIAB", Role.SALES_TAX),
    "Opening Balance Equity": ("EQUITY", Role.OPENING_BALANCE),
    "Retained Earnings": ("EQUITY", Role.RETAINED_EARNINGS),
}
_FOLDED = {name.casefold(): name for name in BUILTIN}


def builtin_name(full_name: str) -> str:
    """QuickBooks' spelling of a built-in account's name (numbers already stripped), else ""."""
    return _FOLDED.get(full_name.strip().casefold(), "")


def builtin_account(full_name: str, code: str, source: Source) -> Account | None:
    """The account QuickBooks would have made for ``full_name``, or None if it is not built in."""
    name = builtin_name(full_name)
    if not name:
        return None
    kind, role = BUILTIN[name]
    return Account(
        full_name=name,
        type=ACCOUNT_TYPES[kind],
        source=source,
        kind_label=kind,
        code=code,
        role=role,
    )


def created_warning(account: Account, label: str, where: str) -> Problem:
    """The warning that says a built-in account was added to the chart."""
    kind = account.type.value if account.type else ""
    as_ = "" if label.strip() == account.full_name else f" as {account.full_name!r}"
    return Problem(
        account.source,
        f"account {label!r} ({where}) is not in the chart of accounts: QuickBooks creates it "
        f"by itself, so it is created{as_} with type {kind}",
        "warning",
    )

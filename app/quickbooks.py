"""QuickBooks' vocabulary that travels past the readers: type codes, roles, type words, standard
parents, and the accounts QuickBooks creates by itself.

The built-in accounts are created the first time a transaction needs them.

A lists export may lack them (Intuit's own IIF examples post to Accounts Receivable and
Undeposited Funds without declaring them), yet their type is fixed by QuickBooks, so nothing is
guessed: a transaction naming one of them, with no such account in the chart, gets it created
with QuickBooks' type and role, and a warning says so. Without a chart, the same table types an
account by its name when the report row does not.
"""

from __future__ import annotations

from types import MappingProxyType

from app.model import Account, AccountType, Problem, Role, Source

# QuickBooks type code → GnuCash type
ACCOUNT_TYPES = MappingProxyType(
    {
        "BANK": AccountType.BANK,
        "AR": AccountType.RECEIVABLE,
        "CCARD": AccountType.CREDIT,
        "AP": AccountType.PAYABLE,
        "OCASSET": AccountType.ASSET,
        "FIXASSET": AccountType.ASSET,
        "OASSET": AccountType.ASSET,
        "OCLIAB": AccountType.LIABILITY,
        "LTLIAB": AccountType.LIABILITY,
        "EQUITY": AccountType.EQUITY,
        "INC": AccountType.INCOME,
        "EXINC": AccountType.INCOME,
        "COGS": AccountType.EXPENSE,
        "EXP": AccountType.EXPENSE,
        "EXEXP": AccountType.EXPENSE,
    }
)
ROLES = MappingProxyType(
    {
        "OPENBAL": Role.OPENING_BALANCE,
        "RETEARNINGS": Role.RETAINED_EARNINGS,
        "SALESTAX": Role.SALES_TAX,
        "UNDEPOSIT": Role.UNDEPOSITED,
    }
)
# The report's "Account Type" words → QuickBooks type code (the IIF codes stand for themselves);
# the code's GnuCash type is ACCOUNT_TYPES.
TYPE_WORDS: dict[str, str] = {
    "bank": "BANK",
    "accounts receivable": "AR",
    "a/r": "AR",
    "other current asset": "OCASSET",
    "fixed asset": "FIXASSET",
    "other asset": "OASSET",
    "accounts payable": "AP",
    "a/p": "AP",
    "credit card": "CCARD",
    "other current liability": "OCLIAB",
    "long term liability": "LTLIAB",
    "long-term liability": "LTLIAB",
    "equity": "EQUITY",
    "income": "INC",
    "other income": "EXINC",
    "cost of goods sold": "COGS",
    "expense": "EXP",
    "other expense": "EXEXP",
} | {code.lower(): code for code in ACCOUNT_TYPES}


def account_type(word: str) -> AccountType | None:
    """A GnuCash type (``BANK``, ``expense``) or a QuickBooks type word or code (``Other Current
    Asset``, ``OCASSET``) as a GnuCash type; None for anything else."""
    folded = word.strip().casefold()
    code = TYPE_WORDS.get(folded)
    if code:
        return ACCOUNT_TYPES[code]
    return next((t for t in AccountType if t.value.casefold() == folded), None)


# QuickBooks type code → its standard parent (its GnuCash type: ACCOUNT_TYPES).
STANDARD_PARENTS: dict[str, str] = {
    "BANK": "Assets:Current Assets",
    "OCASSET": "Assets:Current Assets",
    "AR": "Assets",
    "FIXASSET": "Assets:Fixed Assets",
    "OASSET": "Assets:Other Assets",
    "AP": "Liabilities",
    "CCARD": "Liabilities:Credit Cards",
    "OCLIAB": "Liabilities:Current Liabilities",
    "LTLIAB": "Liabilities:Long-Term Liabilities",
    "EQUITY": "Equity",
    "INC": "Income",
    "EXINC": "Income:Other Income",
    "COGS": "Expenses:Cost of Goods Sold",
    "EXP": "Expenses",
    "EXEXP": "Expenses:Other Expenses",
}

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

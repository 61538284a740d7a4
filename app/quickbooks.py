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

import re
from collections.abc import Iterable
from types import MappingProxyType

from app.model import Account, AccountType, NotImported, Problem, Role
from app.source import Source
from app.words import quoted

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
# QuickBooks type code → the name QuickBooks shows for it (its Chart of Accounts' Type column)
TYPE_NAMES = MappingProxyType(
    {
        "BANK": "Bank",
        "AR": "Accounts Receivable",
        "OCASSET": "Other Current Asset",
        "FIXASSET": "Fixed Asset",
        "OASSET": "Other Asset",
        "AP": "Accounts Payable",
        "CCARD": "Credit Card",
        "OCLIAB": "Other Current Liability",
        "LTLIAB": "Long Term Liability",
        "EQUITY": "Equity",
        "INC": "Income",
        "COGS": "Cost of Goods Sold",
        "EXP": "Expense",
        "EXINC": "Other Income",
        "EXEXP": "Other Expense",
    }
)


def type_name(word: str) -> str:
    """A QuickBooks type as QuickBooks names it: ``OCASSET`` (an IIF code) or ``other current
    asset`` (a report's words) → "Other Current Asset"; anything else as given."""
    code = TYPE_WORDS.get(word.strip().casefold(), "")
    return TYPE_NAMES.get(code, word)


# IIF's TRNSTYPE codes that QuickBooks' reports name otherwise
TRANSACTION_KINDS = MappingProxyType(
    {"BILL PMT": "Bill Pmt -Check", "CCARD": "Credit Card Charge", "CREDIT MEMO": "Credit Memo"}
)


def kind_name(label: str) -> str:
    """A transaction's kind as QuickBooks' reports name it: an IIF code (``GENERAL JOURNAL``,
    ``DEPOSIT``) → "General Journal", "Deposit"; a report's own words as given."""
    if not label.isupper():
        return label
    return TRANSACTION_KINDS.get(label, label.title())


def account_type(word: str) -> AccountType | None:
    """A GnuCash type (``BANK``, ``expense``) or a QuickBooks type word or code (``Other Current
    Asset``, ``OCASSET``) as a GnuCash type; None for anything else."""
    folded = word.strip().casefold()
    code = TYPE_WORDS.get(folded)
    if code:
        return ACCOUNT_TYPES[code]
    return next((t for t in AccountType if t.value.casefold() == folded), None)


# Non-posting documents: QuickBooks keeps estimates and orders out of the books (their report rows
# and IIF TRNS rows post to the non-posting accounts below). Type (TRNSTYPE), spaces removed and
# upper-cased → the "not imported" list they are counted under.
NON_POSTING_KINDS = MappingProxyType(
    {
        "ESTIMATE": "Estimates",
        "ESTIMATES": "Estimates",
        "PURCHASEORDER": "Purchase orders",
        "PURCHORDER": "Purchase orders",
        "PURCHORD": "Purchase orders",
        "SALESORDER": "Sales orders",
    }
)
# The non-posting accounts QuickBooks makes for them (name, spaces removed, upper-cased) → list.
NON_POSTING_ACCOUNTS = MappingProxyType(
    {"ESTIMATES": "Estimates", "PURCHASEORDERS": "Purchase orders", "SALESORDERS": "Sales orders"}
)
NON_POSTING_TYPE = "NONPOSTING"  # the type code (IIF) and, spaces and dash removed, the word
NON_POSTING_REASON = "a non-posting document: QuickBooks keeps it out of the books"
_NUMBER_PREFIX = re.compile(r"\s*\d[\w.]*\s*(?:[·—–]|\s-)\s*")


def _folded(text: str) -> str:
    return "".join(text.split()).replace("-", "").upper()


def non_posting_kind(kind: str) -> str:
    """The "not imported" list of a non-posting document's type (``Estimate``, ``Purchase
    Order``, ``PURCHORDER``...), else ""."""
    return NON_POSTING_KINDS.get(_folded(kind), "")


def non_posting_label(label: str) -> str:
    """The "not imported" list of a non-posting account label (``Estimates``, ``2 · Purchase
    Orders``) or of the Account Type word ``Non-Posting``, else ""."""
    folded = _folded(_NUMBER_PREFIX.sub("", label, count=1))
    if folded == NON_POSTING_TYPE:
        return "Non-posting documents"
    return NON_POSTING_ACCOUNTS.get(folded, "")


def non_posting(kind: str, labels: Iterable[str]) -> str:
    """The "not imported" list of a transaction that is a non-posting document, by its type or
    else by a non-posting account (or Account Type) among ``labels``; "" for any other."""
    return non_posting_kind(kind) or next(
        (what for what in map(non_posting_label, labels) if what), ""
    )


def not_posted(
    what: str, source: Source, *, kind: str, num: str, date: str, name: str
) -> NotImported:
    """The "not imported" entry of a skipped non-posting document: ``Estimate #1001 2/3/2024
    Ann Smith``."""
    words = " ".join(p for p in (kind, f"#{num}" if num else "", date, name) if p)
    return NotImported(what, words, NON_POSTING_REASON, source)


# QuickBooks type code → its standard parent (its GnuCash type: ACCOUNT_TYPES).
STANDARD_PARENTS: dict[str, str] = {
    "BANK": "Assets:Current Assets",
    "OCASSET": "Assets:Current Assets",
    "AR": "Assets:Current Assets",
    "FIXASSET": "Assets:Fixed Assets",
    "OASSET": "Assets:Other Assets",
    "AP": "Liabilities:Current Liabilities",
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
    as_ = "" if label.strip() == account.full_name else f" as {quoted(account.full_name)}"
    return Problem(
        account.source,
        f"account {quoted(label)} ({where}) is not in the chart of accounts: QuickBooks creates it "
        f"by itself, so it is created{as_} with type {kind}",
        "warning",
    )


# QuickBooks' menus for the exports qb2gnucash reads (the Files step's checklist and the refusal
# of a file that is no export say them the same way)
AS_CSV = "Excel › Create New Worksheet › CSV file"
MENU_LISTS = "File › Utilities › Export › Lists to IIF Files"
MENU_JOURNAL = "Reports › Accountant & Taxes › Journal"
MENU_TRIAL_BALANCE = "Reports › Accountant & Taxes › Trial Balance"
MENU_OPEN_INVOICES = "Reports › Customers & Receivables › Open Invoices"
MENU_UNPAID_BILLS = "Reports › Vendors & Payables › Unpaid Bills Detail"
MENU_RECONCILIATION = "Reports › Banking › Previous Reconciliation"

# The exports the wizard asks for: (key, what it gives, where in QuickBooks, needed, the layouts
# of a file that provides it). The Files step's checklist ticks each one as a file of such a
# layout arrives (app.pages.files.checklist).
EXPORTS: tuple[tuple[str, str, str, bool, frozenset[str]], ...] = (
    ("lists", "Your lists: the chart of accounts, customers, vendors, employees, terms",
     f"{MENU_LISTS} (tick every list)", True, frozenset({"iif lists", "iif"})),
    ("history", "Your transactions", f"{MENU_JOURNAL}, Dates: All, then {AS_CSV}", True,
     frozenset({"iif", "iif transactions", "find", "journal", "detail", "ledger", "hand"})),
    ("open_invoices", "Which invoices are still open", f"{MENU_OPEN_INVOICES}, then {AS_CSV}",
     False, frozenset({"open invoices"})),
    ("unpaid_bills", "Which bills are still unpaid", f"{MENU_UNPAID_BILLS}, then {AS_CSV}",
     False, frozenset({"unpaid bills"})),
    ("reconciliation", "Your last bank and card reconciliations",
     f"{MENU_RECONCILIATION} (Summary), then {AS_CSV}", False, frozenset({"reconciliation"})),
    ("trial_balance", "The Trial Balance at each fiscal year end (each year proven)",
     f"{MENU_TRIAL_BALANCE}, Dates: the year's last day, then {AS_CSV}", False,
     frozenset({"trial balance", "year end"})),
)  # fmt: skip


# QuickBooks / Reckon type words (CSV Type, IIF TRNSTYPE) that name a document, upper-cased
INVOICE_WORDS = frozenset({"INVOICE", "TAX INVOICE", "STATEMENT CHARGE", "STMT CHG"})
CUSTOMER_CREDIT_WORDS = frozenset({"CREDIT MEMO", "ADJUSTMENT NOTE"})
BILL_WORDS = frozenset({"BILL"})
VENDOR_CREDIT_WORDS = frozenset({"CREDIT", "BILL CREDIT", "BILL REFUND", "ITEM RECEIPT CREDIT"})
DOCUMENT_WORDS = INVOICE_WORDS | CUSTOMER_CREDIT_WORDS | BILL_WORDS | VENDOR_CREDIT_WORDS


def is_document_word(kind_label: str) -> bool:
    """Whether a type word (a report's Type, a transaction's kind label) names a document:
    an invoice, bill or credit note, not a payment or journal entry."""
    return " ".join(kind_label.split()).upper() in DOCUMENT_WORDS

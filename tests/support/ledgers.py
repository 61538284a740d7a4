"""A small hand-made company for the cutover, as-of and proof tests: its chart (``chart``,
``without`` a role), its history (``HISTORY``), its trial balance (``TB``) and the ledger the lists
and history make (``ledger``)."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

from app.model import Account, AccountType, FileInfo, Ledger, Role, Split, Transaction
from app.source import Source

T = AccountType
D = Decimal

LISTS = "lists.iif"


def acct(name: str, type_: AccountType, balance: str | None, role: Role = Role.NONE, line=1):
    return Account(
        name,
        type_,
        Source(LISTS, line),
        role=role,
        balance=None if balance is None else D(balance),
        origin=(name,),
    )


def txn(day: str, *lines: tuple[str, str], voided: bool = False, line: int = 1) -> Transaction:
    src = Source("trns.iif", line)
    return Transaction(
        dt.date.fromisoformat(day),
        tuple(Split(a, D(v), src) for a, v in lines),
        src,
        voided=voided,
    )


def chart(**balances: str | None) -> tuple[Account, ...]:
    """A small chart; keyword = balance (None = no QuickBooks figure)."""
    spec = [
        ("Checking", T.BANK, Role.NONE),
        ("Accounts Payable", T.PAYABLE, Role.NONE),
        ("Opening Balance Equity", T.EQUITY, Role.OPENING_BALANCE),
        ("Owner's Equity", T.EQUITY, Role.NONE),
        ("Retained Earnings", T.EQUITY, Role.RETAINED_EARNINGS),
        ("Sales", T.INCOME, Role.NONE),
        ("Rent", T.EXPENSE, Role.NONE),
    ]
    keys = {
        "Checking": "checking",
        "Accounts Payable": "ap",
        "Opening Balance Equity": "obe",
        "Owner's Equity": "owner",
        "Retained Earnings": "re",
        "Sales": "sales",
        "Rent": "rent",
    }
    return tuple(
        acct(name, type_, balances.get(keys[name], "0.00"), role, i + 1)
        for i, (name, type_, role) in enumerate(spec)
    )


# A company started 2021: capital 10,000; 2021 sales 5,000 and rent 1,200 (paid);
# 2022 sales 3,000, rent 600, a 400 bill unpaid. Export as of 2022-06-30, fiscal year = calendar.
HISTORY = (
    txn("2021-01-05", ("Checking", "10000.00"), ("Owner's Equity", "-10000.00"), line=1),
    txn("2021-03-01", ("Checking", "5000.00"), ("Sales", "-5000.00"), line=5),
    txn("2021-09-01", ("Rent", "1200.00"), ("Checking", "-1200.00"), line=9),
    txn("2022-02-01", ("Checking", "3000.00"), ("Sales", "-3000.00"), line=13),
    txn("2022-03-01", ("Rent", "600.00"), ("Checking", "-600.00"), line=17),
    txn("2022-06-30", ("Rent", "400.00"), ("Accounts Payable", "-400.00"), line=21),
)


TB = {
    "checking": "16200.00",
    "ap": "-400.00",
    "owner": "-10000.00",
    "re": "-3800.00",  # 2021's net income (5,000 - 1,200), credit-natured
    "sales": "-3000.00",
    "rent": "1000.00",
}


EXPORTED = dt.date(2022, 6, 30)  # the lists' HDR date


def ledger(transactions=HISTORY, exported=EXPORTED, **balances: str | None) -> Ledger:
    info = FileInfo(
        LISTS, "IIF lists", "iif lists", exported_on=exported, exported_at=Source(LISTS, 2)
    )
    return Ledger(
        accounts=chart(**{**TB, **balances}),
        transactions=tuple(transactions),
        chart=True,
        files=(info,),
    )


def without(role: Role, **balances: str | None) -> tuple[Account, ...]:
    return tuple(a for a in chart(**{**TB, **balances}) if a.role != role)

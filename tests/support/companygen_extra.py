"""Opt-in variations for ``tests.support.companygen`` that real QuickBooks files have and the
ordinary generator leaves out, each from its own random source (so a company made without them
is exactly what it was):

- ``twins`` (``make_company(..., twins=rate)``): neighbouring transactions with the same type,
  date, num and name, which a Find export can only tell apart by its Split column: two interest
  deposits on one day, two checks without a number to one payee (2 or 3 lines), two voided ones
  (zero amounts), transfers both ways, two journal entries with one number.
- ``payers`` (``make_company(..., payers=True)``): each deposit of undeposited funds names its
  payer on each deposit line, none on the bank line (``Txn.names``), as QuickBooks does.
"""

from __future__ import annotations

import random
from decimal import Decimal
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tests.support.companygen import Txn

ZERO = Decimal(0)
BANK_NAME = "Great Statewide Bank"
_TWIN_EXPENSES = ("Utilities:Gas", "Utilities:Electric", "Telephone", "Rent", "Repairs")


def _money(rng: random.Random, low: int, high: int) -> Decimal:
    return Decimal(rng.randint(low * 100, high * 100)).scaleb(-2)


def _twin_pair(rng: random.Random, vendors: list[str]) -> list[tuple[str, str, str, str, list]]:
    """Two (type, num, name, memo, splits) with one type, num and name."""
    pattern = rng.randrange(6)
    vendor = rng.choice(vendors)
    if pattern == 0:  # interest deposits
        out = []
        for _ in range(2):
            v = _money(rng, 1, 60)
            splits = [("Checking", v, "Interest", "✓"), ("Interest Income", -v, "Interest", "")]
            out.append(("Deposit", "", BANK_NAME, "Interest", splits))
        return out
    if pattern == 1:  # checks without a number, 2 or 3 lines
        out = []
        for _ in range(2):
            accounts = rng.sample(_TWIN_EXPENSES, rng.randint(1, 2))
            amounts = [_money(rng, 20, 400) for _ in accounts]
            total = sum(amounts, ZERO)
            splits = [("Checking", -total, "", "")]
            splits += [(a, v, "", "") for a, v in zip(accounts, amounts, strict=True)]
            out.append(("Check", "", vendor, "", splits))
        return out
    if pattern == 2:  # two voided checks without a number on one expense account
        expense = rng.choice(_TWIN_EXPENSES)
        memo = "VOID: duplicate"
        splits = [("Checking", ZERO, memo, ""), (expense, ZERO, "", "")]
        return [("Check", "", vendor, memo, list(splits)), ("Check", "", vendor, memo, splits)]
    if pattern == 3:  # transfers both ways
        a, b = _money(rng, 100, 2000), _money(rng, 100, 2000)
        memo = "Funds transfer"
        return [
            ("Transfer", "", "", memo, [("Savings", a, memo, ""), ("Checking", -a, memo, "")]),
            ("Transfer", "", "", memo, [("Checking", b, memo, ""), ("Savings", -b, memo, "")]),
        ]
    if pattern == 4:  # two journal entries with one number, each two self-balancing pairs
        num = f"ADJ-{rng.randint(1, 99)}"
        out = []
        for _ in range(2):
            a, b = _money(rng, 100, 900), _money(rng, 10, 200)
            memo = "Depreciation and reclass"
            splits = [
                ("Depreciation Expense", a, memo, ""),
                ("Truck:Accumulated Depreciation", -a, memo, ""),
                ("Office Supplies", b, "Reclass", ""),
                ("Repairs", -b, "Reclass", ""),
            ]
            out.append(("General Journal", num, "", memo, splits))
        return out
    out = []  # deposits of undeposited funds, 2 and 3 lines
    for parts in ([_money(rng, 50, 900)], [_money(rng, 50, 900), _money(rng, 50, 900)]):
        splits = [("Checking", sum(parts, ZERO), "Deposit", "")]
        splits += [("Undeposited Funds", -p, "", "") for p in parts]
        out.append(("Deposit", "", "", "Deposit", splits))
    rng.shuffle(out)
    return out


def add_twins(txns: list[Txn], seed: int, rate: float, vendors: list[str]) -> int:
    """Turn about ``rate`` of the transactions (after the opening ones) into same-key pairs,
    in place: transaction i and i+1 get one type, num and name and i's date (so the order
    stays); their numbers (Trans #) stay. Returns the number of pairs made."""
    rng = random.Random(seed * 104729 + 5)
    pairs = 0
    i = 2
    while i + 1 < len(txns):
        if rng.random() < rate:
            for t, (kind, num, name, memo, splits) in zip(
                txns[i : i + 2], _twin_pair(rng, vendors), strict=True
            ):
                t.type, t.num, t.name, t.memo, t.splits = kind, num, name, memo, splits
                t.date = txns[i].date
            pairs += 1
            i += 2
        else:
            i += 1
    return pairs


def add_payers(txns: list[Txn], seed: int, customers: list[str]) -> int:
    """Name each deposit line of undeposited funds after a customer (sometimes one customer for
    all the lines), the bank line after no one; returns the number of deposits named."""
    rng = random.Random(seed * 7331 + 9)
    named = 0
    for t in txns:
        if t.type != "Deposit" or not any(s[0] == "Undeposited Funds" for s in t.splits):
            continue
        one = rng.choice(customers) if rng.random() < 0.3 else ""
        t.name = ""
        t.names = tuple(
            one or rng.choice(customers) if account == "Undeposited Funds" else ""
            for account, *_ in t.splits
        )
        named += 1
    return named

"""What an update knows of a book's QuickBooks part, on hand-made books (pure: app/update.py):
the run record keeps every name of QuickBooks' lists, and the accounts QuickBooks never had are
told apart. For the proof (docs/UPDATE.md, "The proof")."""

from __future__ import annotations

import datetime as dt
from dataclasses import replace
from decimal import Decimal

from app import update
from app.business import Customer
from app.model import Account, AccountType, Ledger
from app.openings import OPENING_KIND
from app.plan import Plan
from app.source import Source

D = Decimal
SRC = Source("journal.csv", 7)
DAY = dt.date(2024, 3, 1)
CHART = tuple(
    Account(n, t, Source("lists.iif", 1))
    for n, t in (("Checking", AccountType.BANK), ("Rent", AccountType.EXPENSE))
)


def _known(**lists: tuple[str, ...]) -> update.Record:
    every = {n: lists.get(n, ()) for n in update.LISTS}
    return update.Record("Acme", DAY, DAY, Plan().to_json(), {"Checking": D(1)}, lists=every)


def test_the_record_keeps_every_name_quickbooks_had() -> None:
    march = Ledger(company="Acme", customers=(Customer("Acme", SRC), Customer("Old Co", SRC)))
    first = update.record_of(march, Plan().to_json())
    june = replace(march, customers=(Customer("Acme", SRC), Customer("New Co", SRC)))
    second = update.record_of(june, Plan().to_json(), 2, first)
    assert second.lists["customers"] == ("Acme", "New Co", "Old Co")
    assert update.Record.from_text(second.to_text()) == second
    older = second.to_text().replace('"lists"', '"unknown"')  # a record written before
    assert update.Record.from_text(older).lists == {}


def test_the_accounts_quickbooks_never_had() -> None:
    """No account slot, neither in the exports nor in the last run's figures: GnuCash's alone
    (the user's, and GnuCash's own Imbalance-USD, which the proof keeps compared)."""
    state = update.BookState(
        replace(_known(), figures={"Checking": D(1), "Gone": D(5)}),
        (),
        frozenset({"Checking", "Rent", "Gone", "Petty Cash", "Imbalance-USD", "Old"}),
        frozenset(),
        frozenset(),
        keyed=frozenset({"Checking", "Old"}),
    )
    work = update.decide(state, Ledger(company="Acme", accounts=CHART), OPENING_KIND)
    assert work.accounts_here == ("Imbalance-USD", "Petty Cash")

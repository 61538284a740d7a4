"""What an update knows of a book's QuickBooks part, on hand-made books (pure: app/update.py,
app/update_proof.py): the run record keeps every name of QuickBooks' lists, the accounts
QuickBooks never had are told apart, and the transactions made in GnuCash alone are out of the
proof's counts and dates, and the book's reconcile marks on QuickBooks' lines are the ones
expected of it, counted (docs/UPDATE.md, "The proof")."""

from __future__ import annotations

import datetime as dt
from dataclasses import replace
from decimal import Decimal

from app import keys, update, update_proof
from app.book import BookAccount, BookSnapshot
from app.business import Customer
from app.model import Account, AccountType, Ledger, Reconcile, Split, Transaction
from app.openings import OPENING_KIND
from app.plan import Plan
from app.source import Source

D = Decimal
SRC = Source("journal.csv", 7)
DAY = dt.date(2024, 3, 1)
LATER = dt.date(2024, 7, 2)


def _snapshot(**kw) -> BookSnapshot:
    """A book of three QuickBooks transactions (two on March 1, one on March 5) and one entered
    in GnuCash alone on July 2, into Petty Cash."""
    daily = {
        "Checking": ((DAY, D(-30)), (dt.date(2024, 3, 5), D(-5)), (LATER, D(-40))),
        "Rent": ((DAY, D(30)), (dt.date(2024, 3, 5), D(5))),
        "Petty Cash": ((LATER, D(40)),),
    }
    accounts = tuple(
        BookAccount(
            name, "BANK", balance=sum((v for _, v in days), D(0)), splits=len(days), daily=days
        )
        for name, days in daily.items()
    )
    base = BookSnapshot(
        "USD",
        accounts,
        transactions=4,
        splits=8,
        reconcile=(("n", 6), ("y", 2)),
        first_date=DAY,
        last_date=LATER,
        days=((DAY, 2), (dt.date(2024, 3, 5), 1), (LATER, 1)),
    )
    return replace(base, **kw)


def _entry(day: dt.date, lines, marks: str) -> update.BookEntry:
    return update.BookEntry(1, day, "", "By hand", None, "", tuple(lines), marks=marks)


HAND = _entry(LATER, (("Checking", D(-40)), ("Petty Cash", D(40))), "nn")


def test_what_gnucash_alone_holds_is_out_of_the_counts_and_the_dates() -> None:
    mine = update_proof.less(_snapshot(), [HAND])
    assert (mine.transactions, mine.splits, mine.reconcile) == (3, 6, (("n", 4), ("y", 2)))
    assert (mine.first_date, mine.last_date) == (DAY, dt.date(2024, 3, 5))
    assert mine.account("Petty Cash").balance == 0 and mine.account("Checking").balance == -35
    # one of two transactions of a day taken out: the day still holds QuickBooks' other
    early = _entry(DAY, (("Checking", D(-10)), ("Rent", D(10))), "nn")
    assert update_proof.less(_snapshot(), [early]).first_date == DAY
    # a QuickBooks version put back dated later moves the last date with it
    put = [(dt.date(2024, 8, 1), (("Checking", D(-1)), ("Rent", D(1))), "nn")]
    assert update_proof.less(mine, [], put).last_date == dt.date(2024, 8, 1)
    # a book read without its days keeps its dates as read (GnuCash's too: never hidden)
    assert update_proof.less(_snapshot(days=()), [HAND]).last_date == LATER


CHART = tuple(
    Account(n, t, Source("lists.iif", 1))
    for n, t in (("Checking", AccountType.BANK), ("Rent", AccountType.EXPENSE))
)


def _known(**lists: tuple[str, ...]) -> update.Record:
    every = {n: lists.get(n, ()) for n in update.LISTS}
    return update.Record("Acme", DAY, DAY, Plan().to_json(), {"Checking": D(1)}, lists=every)


def _txn(ref: str, value: str = "10.00", day: dt.date = DAY) -> Transaction:
    splits = (Split("Checking", -D(value), SRC), Split("Rent", D(value), SRC))
    return Transaction(day, splits, SRC, num=ref, description="Landlord", ref=ref)


def _booked(t: Transaction, key: str, marks: str, lines=None) -> update.BookEntry:
    lines = tuple(lines or ((s.account, s.value) for s in t.splits))
    stamp = keys.parse(keys.stamp(key, t))
    sums = keys.sums(t.date, t.voided, lines)
    return update.BookEntry(1, t.date, t.num, t.description, stamp, sums, lines, marks=marks)


def _work(present: dict[int, update.BookEntry], **kw) -> update.Work:
    nothing: dict = dict.fromkeys(
        ("held", "edited_here", "added_here", "new_accounts", "new_owners", "new_terms"), ()
    )
    return update.Work((), (), present, **{**nothing, **kw})


def test_the_book_keeps_its_reconcile_marks_and_says_how_many_differ() -> None:
    """Lines reconciled in GnuCash (or in QuickBooks since): the proof takes the book's marks
    and counts them; a transaction edited in GnuCash keeps QuickBooks' (it differs anyway)."""
    plain, edited = _txn("1"), _txn("2")
    ledger = Ledger(transactions=(plain, edited), accounts=CHART)
    book = {
        0: _booked(plain, "ref:1", "yn"),  # the Checking line reconciled in GnuCash
        1: _booked(edited, "ref:2", "yy", (("Checking", D(-12)), ("Rent", D(12)))),
    }
    work = _work(book)
    assert update_proof.marked_otherwise(work, ledger) == 1
    written = update_proof.as_booked(ledger, work, ledger)
    marks = [[s.reconcile for s in t.splits] for t in written.transactions]
    assert marks == [[Reconcile.RECONCILED, Reconcile.NEW], [Reconcile.NEW, Reconcile.NEW]]
    # a held change (QuickBooks edited it since) keeps QuickBooks' version, marks and all
    held = replace(work, held=(update.Held(book[0], 0, "edited in QuickBooks"),))
    assert update_proof.marked_otherwise(held, ledger) == 0
    # a payment the book holds in pieces: each piece's mark
    cut = _booked(
        plain, "ref:1", "ncy", (("Checking", D(-4)), ("Checking", D(-6)), ("Rent", D(10)))
    )
    assert update_proof.marked_otherwise(_work({0: cut}), ledger) == 2


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

"""An update's proof on hand-made books (pure: app/update_proof.py, app/made_here.py): what the
user made in GnuCash alone (transactions, accounts, list names, reconcile marks) is left out of
the counts and dates and said; what QuickBooks' exports have, or had at an earlier run, stays
compared. The engine's side is in tests/test_update.py, tests/test_cli_update.py and
tests/test_check_causes.py."""

from __future__ import annotations

import datetime as dt
from dataclasses import replace
from decimal import Decimal

from app import keys, made_here, update, update_proof, update_record
from app.book import BookAccount, BookOwner, BookSnapshot, BookTerm
from app.business import BillTerm, Customer, Vendor
from app.lists import LISTS
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


def _entry(day: dt.date, lines, marks: str, stamp: keys.Stamp | None = None) -> update.BookEntry:
    return update.BookEntry(1, day, "", "By hand", stamp, "", tuple(lines), marks=marks)


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


def _owners(*names: str) -> tuple[BookOwner, ...]:
    return tuple(BookOwner(str(i), n) for i, n in enumerate(names))


def _known(**lists: tuple[str, ...]) -> update_record.Record:
    every = {n: lists.get(n, ()) for n in LISTS}
    return update_record.Record("Acme", DAY, DAY, Plan().to_json(), {"Checking": D(1)}, lists=every)


def test_what_was_made_in_gnucash_alone_is_set_apart_and_said() -> None:
    """Petty Cash and Walk-in were made in GnuCash; Old Co was in QuickBooks' earlier exports
    (the record says so) and is gone from these: it stays compared, as does GnuCash's own
    Imbalance-USD; so do the exports' Acme and Net 30."""
    snap = _snapshot(
        accounts=(
            *_snapshot().accounts,
            BookAccount("Imbalance-USD", "BANK"),
            BookAccount("Old Account", "BANK"),
        ),
        customers=(*_owners("Acme", "Old Co"), replace(_owners("Walk-in")[0], jobs=("Deck",))),
        vendors=_owners("Corner Hardware"),
        terms=(BookTerm("Net 30", "days"), BookTerm("Net 7", "days")),
    )
    ledger = Ledger(
        accounts=CHART,
        customers=(Customer("Acme", SRC),),
        vendors=(Vendor("Landscaper", SRC),),
        terms=(BillTerm("Net 30", SRC),),
    )
    work = _work(
        {},
        added_here=(HAND,),
        accounts_here=("Imbalance-USD", "Petty Cash"),
        last=_known(customers=("Acme", "Old Co")),
    )
    apart = made_here.found(snap, ledger, work, marks=3)
    assert apart.accounts == ("Petty Cash",)
    assert apart.lists is not None and apart.lists["customers"] == ("Walk-in",)
    counted = apart.counted(snap)
    assert [b.full_name for b in counted.accounts] == [
        "Checking",
        "Rent",
        "Imbalance-USD",
        "Old Account",
    ]
    assert [o.name for o in counted.customers] == ["Acme", "Old Co"]
    assert [t.name for t in counted.terms] == ["Net 30"] and counted.vendors == ()
    assert apart.said() == [
        "Made in GnuCash, not compared: 1 transaction (last 2024-07-02), account Petty Cash, "
        "customer Walk-in, job Walk-in:Deck, vendor Corner Hardware, billing term Net 7.",
        "Reconcile marks not compared: the book marks 3 lines of QuickBooks' transactions "
        "otherwise than its exports do (cleared or reconciled in GnuCash, or in QuickBooks, since "
        "the last run; marks change no balance).",
    ]
    # a book whose record does not list QuickBooks' names (written before it did): every name
    # compared, those the exports lack said
    unsure = made_here.found(snap, ledger, replace(work, last=replace(work.last, lists={})))
    assert unsure.lists is None and unsure.counted(snap).customers == snap.customers
    assert unsure.said()[-1].startswith(
        "Compared, though perhaps made in GnuCash: Corner Hardware, Net 7, Old Co, Walk-in, "
    )
    assert made_here.MadeHere().said() == []


def test_the_record_keeps_every_name_quickbooks_had() -> None:
    march = Ledger(company="Acme", customers=(Customer("Acme", SRC), Customer("Old Co", SRC)))
    first = update_record.record_of(march, Plan().to_json())
    june = replace(march, customers=(Customer("Acme", SRC), Customer("New Co", SRC)))
    second = update_record.record_of(june, Plan().to_json(), 2, first)
    assert second.lists["customers"] == ("Acme", "New Co", "Old Co")
    assert update_record.Record.from_text(second.to_text()) == second
    older = second.to_text().replace('"lists"', '"unknown"')  # a record written before
    assert update_record.Record.from_text(older).lists == {}


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


def test_a_tax_rate_changed_in_quickbooks_is_said_against_the_book_s_table() -> None:
    """QuickBooks' State rate raised from 6% to 6.5% since the book was written: the update's
    proof says so, with where to change the book's table; it said only "GnuCash computed another
    tax than planned", invoice by invoice (hunt 10). A group whose total rate is the book's, and
    a table the book does not have, say nothing."""
    from app.book import BookSalesTax, BookTaxTable
    from app.documents.taxes import SalesTax, TableEntry, TaxTable

    def table(name: str, *rates: str) -> TaxTable:
        entries = tuple(
            TableEntry(f"{name} {i}", D(r), "Sales Tax Payable") for i, r in enumerate(rates)
        )
        return TaxTable(name, entries, SRC)

    st = SalesTax(
        "tables", tables=(table("State", "6.5"), table("Bay", "6.5", "1.25"), table("New", "2"))
    )
    book = BookSalesTax(
        tables=(
            BookTaxTable("State", (("Sales Tax Payable", D("6.0")),)),
            BookTaxTable(
                "Bay", (("Sales Tax Payable", D("6.5")), ("Sales Tax Payable", D("1.25")))
            ),
        ),
        invoices=(),
        customers={},
        agencies={},
        agency_items={},
    )
    assert update_proof.rates_changed(st, book) == [
        "QuickBooks' rate of State is 6.5% now, the book's tax table State 6.0%: invoices taxed "
        "at it since keep QuickBooks' tax as plain lines; to go on with the table, change its "
        "rate in GnuCash (Business › Sales Tax Table)"
    ]
    assert update_proof.rates_changed(None, book) == []

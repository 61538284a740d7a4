"""The GnuCash writer and reader against the real engine: every book written here is reopened
with ``read_book`` (a fresh read-only session) and checked field by field."""

from __future__ import annotations

import datetime as dt
import gzip
import random
import re
from collections import Counter, defaultdict
from dataclasses import replace
from decimal import Decimal
from pathlib import Path

import pytest

from app import gnc
from app.book import BookSnapshot
from app.business import Address, BillTerm, Customer, Employee, Job, Vendor
from app.errors import BookWriteError
from app.gnc import bindings
from app.gnc.detacher import SplitListDetacher, account_layout
from app.gnc.engine import Engine, engine_version
from app.model import Account, AccountType, Ledger, Reconcile, Role, Split, Transaction
from app.source import Source
from tests.support.gnucash_reports import trial_balance

S = Source("lists.iif", 1)
D = Decimal
# GnuCash 4.x-5.6 keep split lists in GLists of a mirrored layout: the detacher runs there
DETACHES = account_layout(engine_version()) is not None


def _src(line: int) -> Source:
    return Source("trans.csv", line)


def _ledger() -> Ledger:
    a = AccountType
    accounts = (
        Account("Checking", a.BANK, S, code="1000", description="Main account"),
        Account("Accounts Receivable", a.RECEIVABLE, S, code="1200"),
        Account("Equity", a.EQUITY, S, placeholder=True),
        Account("Equity:Opening Balances", a.EQUITY, S, role=Role.OPENING_BALANCE),
        Account("Expenses", a.EXPENSE, S, placeholder=True, notes="top\nlevel"),
        Account("Expenses:Utilities", a.EXPENSE, S),
        Account("Expenses:Utilities:Gas", a.EXPENSE, S, hidden=True, code="6110"),
        Account("Income", a.INCOME, S, code="4000"),
        Account("Café Sales", a.INCOME, S),
    )

    def sp(acct: str, value: str, line: int, **kw: object) -> Split:
        return Split(acct, D(value), _src(line), **kw)  # type: ignore[arg-type]

    txns = (
        Transaction(
            dt.date(2024, 1, 1),
            (
                sp("Checking", "1000.00", 2, reconcile=Reconcile.RECONCILED, mark="X"),
                sp("Equity:Opening Balances", "-1000.00", 3),
            ),
            _src(2),
            num="1",
            description="Opening balance",
            notes="General Journal; Trans # 1",
        ),
        Transaction(
            dt.date(2024, 1, 5),
            (
                sp("Expenses:Utilities:Gas", "45.67", 4, memo="January gas"),
                sp("Checking", "-45.67", 5, reconcile=Reconcile.CLEARED, memo="chk"),
            ),
            _src(4),
            num="1001",
            description='PG&E <gas> "co"',
            notes="Check; Trans # 2",
        ),
        Transaction(
            dt.date(2024, 2, 1),
            (
                sp("Accounts Receivable", "300.00", 6),
                sp("Income", "-300.00", 7),
                sp("Café Sales", "0.00", 8, memo="zero line kept"),
            ),
            _src(6),
            num="INV-7",
            description="Acme",
        ),
        Transaction(
            dt.date(2024, 2, 2),
            (sp("Checking", "-50.00", 9), sp("Expenses:Utilities:Gas", "50.00", 10)),
            _src(9),
            num="1002",
            description="voided check",
            voided=True,
        ),
    )
    net30 = BillTerm("Net 30", S, due_days=30, discount_days=10, discount=D("1.5"))
    prox = BillTerm("10th next month", S, kind="proximo", due_days=10, cutoff=25)
    customers = (
        Customer(
            "Acme",
            S,
            billing=Address("Acme Inc", ("1 Main St", "Suite 2", "Town", "ST", "12345"), "555-1"),
            shipping=Address("Acme Dock", ("9 Pier",)),
            notes="good payer",
            terms="Net 30",
            credit_limit=D("5000.00"),
            taxable=True,
            jobs=(Job("Roof", S, description="roof job"), Job("Porch", S, active=False)),
        ),
        Customer("Zed", S, active=False),
    )
    vendors = (
        Vendor(
            "Gas Co",
            S,
            address=Address("Gas Company Print Name", ("PO Box 1",), email="a@b.c"),
            notes="call first",
            terms="10th next month",
            tax_id="12-3456789",
            eligible_1099=True,
        ),
        Vendor("Plain", S),
    )
    employees = (
        Employee("Jane Doe", S, address=Address("", ("5 Elm",), phone="555-9")),
        Employee("Old Timer", S, active=False, notes="left in 2019"),
    )
    return Ledger(
        accounts=accounts,
        transactions=txns,
        customers=customers,
        vendors=vendors,
        employees=employees,
        terms=(net30, prox),
    )


def _sums(ledger: Ledger) -> tuple[Counter[str], dict[str, Decimal]]:
    count: Counter[str] = Counter()
    balance: dict[str, Decimal] = defaultdict(Decimal)
    for t in ledger.transactions:
        for s in t.splits:
            count[s.account] += 1
            balance[s.account] += Decimal(0) if t.voided else s.value
    return count, balance


def _files(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir())


@pytest.mark.parametrize("fmt", ["xml", "sqlite"])
def test_round_trip(tmp_path: Path, fmt: str) -> None:
    ledger = _ledger()
    out = tmp_path / f"Café books #1 [{fmt}].gnucash"  # spaces, accents, URI characters
    stats = gnc.write_book(ledger, out, fmt=fmt)
    assert _files(tmp_path) == [out.name]  # no lock, journal, backup or temporary file
    assert (stats.accounts, stats.transactions, stats.splits) == (9, 4, 9)
    assert (stats.customers, stats.jobs, stats.vendors, stats.employees, stats.terms) == (
        2,
        2,
        2,
        2,
        2,
    )
    assert stats.not_written == ("employee Old Timer: notes (no such field)",)

    book = gnc.read_book(out, transactions=True)
    assert _files(tmp_path) == [out.name]  # the read-only session released everything
    assert book.currency == "USD"
    names = [a.full_name for a in book.accounts]
    assert sorted(names) == sorted(a.full_name for a in ledger.accounts)
    assert not [n for n in names if n.startswith(("Imbalance", "Orphan"))]
    by = {a.full_name: a for a in book.accounts}
    for acc in ledger.accounts:
        got = by[acc.full_name]
        assert got.type == acc.type.value  # type: ignore[union-attr]
        assert (got.code, got.description, got.notes) == (acc.code, acc.description, acc.notes)
        assert (got.hidden, got.placeholder) == (acc.hidden, acc.placeholder)
        assert got.opening_balance == (acc.role is Role.OPENING_BALANCE)
        assert got.commodity == "USD"
    count, balance = _sums(ledger)
    for name, acc in by.items():
        assert (acc.splits, acc.balance) == (count[name], balance[name]), name
    assert by["Checking"].daily == (
        (dt.date(2024, 1, 1), D("1000.00")),
        (dt.date(2024, 1, 5), D("-45.67")),
        (dt.date(2024, 2, 2), D("0.00")),  # the voided check: zeroed by GnuCash's Void
    )
    assert by["Checking"].balance_between(dt.date(2024, 1, 2), None) == D("-45.67")

    assert (book.transactions, book.splits) == (4, 9)
    assert (book.first_date, book.last_date) == (dt.date(2024, 1, 1), dt.date(2024, 2, 2))
    # the voided transaction's splits become "v"; every other state as given
    assert dict(book.reconcile) == {"n": 5, "c": 1, "y": 1, "v": 2}

    txns = book.transaction_list
    assert [t.num for t in txns] == ["1", "1001", "INV-7", "1002"]
    opening, gas, invoice, void = txns
    assert opening.description == "Opening balance"
    assert opening.notes == "General Journal; Trans # 1"  # SQLite too (read by begin + load)
    assert gas.description == 'PG&E <gas> "co"'
    assert {(s.account, s.value, s.memo, s.reconcile) for s in gas.splits} == {
        ("Expenses:Utilities:Gas", D("45.67"), "January gas", "n"),
        ("Checking", D("-45.67"), "chk", "c"),
    }
    assert ("Café Sales", D("0.00"), "zero line kept", "n") in {
        (s.account, s.value, s.memo, s.reconcile) for s in invoice.splits
    }
    assert void.voided and not gas.voided
    assert [s.value for s in void.splits] == [D("0.00"), D("0.00")]

    terms = {t.name: t for t in book.terms}
    assert (terms["Net 30"].kind, terms["Net 30"].due_days, terms["Net 30"].discount_days) == (
        "days",
        30,
        10,
    )
    assert terms["Net 30"].discount == D("1.5")
    assert (terms["10th next month"].kind, terms["10th next month"].cutoff) == ("proximo", 25)

    acme, zed = book.customers
    assert (acme.id, acme.name, zed.id, zed.name) == ("000001", "Acme", "000002", "Zed")
    assert acme.address == (
        "Acme Inc",
        "1 Main St",
        "Suite 2",
        "Town",
        "ST, 12345",  # GnuCash has four lines: the rest joins the last
        "555-1",
        "",
        "",
    )
    assert acme.ship_address[:2] == ("Acme Dock", "9 Pier")
    assert acme.notes == "good payer\nTaxable: yes"
    assert (acme.terms, acme.credit_limit, acme.active) == ("Net 30", D("5000.00"), True)
    assert acme.jobs == ("Porch", "Roof") and zed.jobs == () and not zed.active

    gas_co, plain = book.vendors
    assert gas_co.name == "Gas Co" and gas_co.address[0] == "Gas Company Print Name"
    assert gas_co.notes == "call first\nTax ID: 12-3456789\nEligible for 1099: yes"
    assert gas_co.terms == "10th next month" and plain.notes == "" and plain.terms == ""

    jane, old = book.employees
    assert jane.name == "Jane Doe" and jane.address[:2] == ("Jane Doe", "5 Elm")
    assert jane.address[5] == "555-9" and jane.active and not old.active


def test_xml_text_holds_what_was_written_and_nothing_else(tmp_path: Path) -> None:
    out = tmp_path / "book.gnucash"
    gnc.write_book(_ledger(), out)
    text = gzip.decompress(out.read_bytes()).decode("utf-8")
    assert "Tax ID: 12-3456789" in text and "Gas Company Print Name" in text
    assert "left in 2019" not in text  # employee notes: GnuCash has no field, reported instead
    assert not re.search(r"\b\d{3}-\d{2}-\d{4}\b", text)  # nothing shaped like an SSN


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"currency": "XYZ"}, "unknown currency “XYZ”"),
        ({"fmt": "sqlite", "currency": "XYZ"}, "unknown currency “XYZ”"),
        ({"ledger": "fine"}, "finer than the currency's smallest unit"),
        ({"ledger": "untyped"}, "has no type"),
        ({"ledger": "orphan"}, "parent “Expenses:Utilities” of"),
        ({"ledger": "unbalanced"}, "does not balance"),
        ({"ledger": "unknown account"}, "is not in the chart"),
        ({"fmt": "qbw"}, "unknown book format"),
    ],
)
def test_a_failed_write_leaves_no_file(tmp_path: Path, change: dict, message: str) -> None:
    ledger = _ledger()
    kind = change.pop("ledger", "")
    first = ledger.transactions[1]
    if kind == "fine":
        gas, chk = first.splits
        splits = (replace(gas, value=D("45.675")), replace(chk, value=D("-45.675")))
        ledger = replace(ledger, transactions=(replace(first, splits=splits),))
    elif kind == "untyped":
        ledger = replace(ledger, accounts=(*ledger.accounts, Account("Odd", None, S)))
    elif kind == "orphan":
        kept = tuple(a for a in ledger.accounts if a.full_name != "Expenses:Utilities")
        ledger = replace(ledger, accounts=kept)
    elif kind == "unbalanced":
        splits = (first.splits[0], replace(first.splits[1], value=D("-45.00")))
        ledger = replace(ledger, transactions=(replace(first, splits=splits),))
    elif kind == "unknown account":
        splits = (first.splits[0], replace(first.splits[1], account="Nowhere"))
        ledger = replace(ledger, transactions=(replace(first, splits=splits),))
    with pytest.raises(BookWriteError, match=re.escape(message)):
        gnc.write_book(ledger, tmp_path / "book.gnucash", **change)
    assert _files(tmp_path) == []


def test_existing_file_is_not_overwritten(tmp_path: Path) -> None:
    out = tmp_path / "book.gnucash"
    out.write_text("mine")
    with pytest.raises(BookWriteError, match="already exists"):
        gnc.write_book(_ledger(), out)
    assert out.read_text() == "mine" and _files(tmp_path) == ["book.gnucash"]
    gnc.write_book(_ledger(), out, overwrite=True)
    assert gnc.read_book(out).transactions == 4
    assert _files(tmp_path) == ["book.gnucash"]


def test_the_projects_currency_list_is_gnucashs() -> None:
    """app.currency lists exactly what the engine's table knows (the web process never loads
    GnuCash to check a code): nothing it accepts is refused by the writer, nothing GnuCash
    takes is refused by it."""
    from app import currency
    from app.gnc import bindings

    bindings.engine()
    session = bindings.Session()  # in memory
    try:
        table = session.book.get_table().get_commodities("CURRENCY")
        engine = {c.get_mnemonic() for c in table}
    finally:
        session.end()
    assert engine == currency.KNOWN  # 227 codes in 4.13, 5.6 and 5.10 alike
    assert not currency.is_known("XYZ") and not currency.is_known("usd")


def test_currency_table() -> None:
    assert gnc.is_known_currency("EUR")
    assert not gnc.is_known_currency("XYZ")
    assert not gnc.is_known_currency("usd")  # the table is case-sensitive


def test_jpy_book_uses_whole_units(tmp_path: Path) -> None:
    ledger = _ledger()
    whole = tuple(
        replace(t, splits=tuple(replace(s, value=s.value.to_integral_value()) for s in t.splits))
        for t in ledger.transactions
        if t.num != "1001"
    )
    out = tmp_path / "yen.gnucash"
    gnc.write_book(replace(ledger, transactions=whole), out, currency="JPY")
    book = gnc.read_book(out)
    assert book.currency == "JPY" and book.account("Checking").balance == D("1000")  # type: ignore[union-attr]
    with pytest.raises(BookWriteError, match="finer than"):
        gnc.write_book(ledger, tmp_path / "yen2.gnucash", currency="JPY")


def test_gnucash_trial_balance_report_shows_the_figures(tmp_path: Path) -> None:
    """GnuCash's own Trial Balance report on the book: each account's figure (the voided check
    counts zero, the zero line shows blank) and totals that balance."""
    out = tmp_path / "book.gnucash"
    gnc.write_book(_ledger(), out)
    tb = trial_balance(out, tmp_path / "home")
    assert tb.nonzero() == {
        "Checking": D("954.33"),
        "Accounts Receivable": D("300.00"),
        "Equity:Opening Balances": D("-1000.00"),
        "Expenses:Utilities:Gas": D("45.67"),
        "Income": D("-300.00"),
    }
    assert set(tb.balances) == {a.full_name for a in _ledger().accounts}
    assert (tb.total_debit, tb.total_credit) == (D("1300.00"), D("1300.00"))
    assert gnc.read_book(out).splits == 9


def _big_ledger(n: int) -> Ledger:
    """n random three-split transactions over a small chart (seeded)."""
    rng = random.Random(7)
    ledger = _ledger()
    leaves = ["Expenses:Utilities:Gas", "Income", "Café Sales", "Accounts Receivable"]
    txns = []
    for i in range(n):
        a, b = rng.sample(leaves, 2)
        x, y = D(rng.randint(-99999, 99999)) / 100, D(rng.randint(0, 99999)) / 100
        splits = (
            Split(a, x, _src(i), reconcile=rng.choice(list(Reconcile))),
            Split(b, y, _src(i), memo=f"m{i}"),
            Split("Checking", -x - y, _src(i)),
        )
        day = dt.date(2015, 1, 1) + dt.timedelta(days=rng.randint(0, 3650))
        txns.append(Transaction(day, splits, _src(i), num=str(i), voided=i % 997 == 0))
    return replace(ledger, transactions=tuple(txns))


@pytest.mark.parametrize("fmt", ["xml", "sqlite"])
def test_detacher_and_plain_path_write_the_same_book(tmp_path: Path, fmt: str) -> None:
    ledger = _big_ledger(2500)
    seen: list[tuple[str, int, int]] = []
    fast = gnc.write_book(
        ledger, tmp_path / "fast.gnucash", fmt=fmt, on_progress=lambda *p: seen.append(p)
    )
    plain = gnc.write_book(ledger, tmp_path / "plain.gnucash", fmt=fmt, detach=False)
    if DETACHES:
        assert fast.detached and not fast.fallback
    else:  # 5.10 keeps split lists in vectors: the version check refuses, plain is linear
        assert not fast.detached and fast.fallback
    assert not plain.detached and plain.fallback == "plain path requested"

    phases = [p for p, _, _ in seen]
    assert phases[0] == "accounts" and phases[-1] == "saving"
    trans = [(done, total) for p, done, total in seen if p == "transactions"]
    assert [d for d, _ in trans] == sorted({d for d, _ in trans}) and trans[-1] == (2500, 2500)
    assert seen[-1] == ("saving", 1, 1)

    loading: list[tuple[str, int, int]] = []
    a = gnc.read_book(
        tmp_path / "fast.gnucash", transactions=True, on_progress=lambda *p: loading.append(p)
    )
    if fmt == "xml":  # the XML loader reports each transaction; SQLite only the accounts
        assert [p for p in loading if p[0] == "loading"] == [
            ("loading", n, 2500) for n in (500, 1000, 1500, 2000, 2500)
        ]
    assert loading[-1][0] == "reading" and loading[-1][1] == loading[-1][2]
    b = gnc.read_book(tmp_path / "plain.gnucash", transactions=True, detach=False)
    assert a.detached_load == DETACHES and not b.detached_load
    assert replace(a, detached_load=False) == b  # same book, and the same reading of it
    count, balance = _sums(ledger)
    for acc in a.accounts:
        assert (acc.splits, acc.balance) == (count[acc.full_name], balance[acc.full_name])
    assert (a.transactions, a.splits) == (2500, 7500)
    # the per-day sums, flags and dates are the input's, summed here without the reader
    day_sums: dict[tuple[str, dt.date], Decimal] = defaultdict(Decimal)
    flags: Counter[str] = Counter()
    for t in ledger.transactions:
        for s in t.splits:
            day_sums[s.account, t.date] += Decimal(0) if t.voided else s.value
            flags["v" if t.voided else s.reconcile.value] += 1
    got = {(acc.full_name, d): v for acc in a.accounts for d, v in acc.daily}
    assert {k: v for k, v in got.items() if v} == {k: v for k, v in day_sums.items() if v}
    assert set(got) == set(day_sums) and dict(a.reconcile) == flags
    assert {v.as_tuple().exponent for v in got.values()} == {-2}  # cents kept, even on 0.00
    dates = sorted(t.date for t in ledger.transactions)
    assert (a.first_date, a.last_date) == (dates[0], dates[-1])
    assert [t.date for t in a.transaction_list] == dates


def test_read_book_needs_the_split_getters(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "book.gnucash"
    gnc.write_book(_ledger(), out)
    engine = bindings.engine()
    monkeypatch.setattr(engine, "missing", (*engine.missing, "xaccSplitGetValue"))
    with pytest.raises(BookWriteError, match="cannot read the book's splits"):
        gnc.read_book(out)


def test_read_book_refuses_what_is_not_a_book(tmp_path: Path) -> None:
    junk = tmp_path / "junk.gnucash"
    junk.write_bytes(b"\x00\x01 not a book")
    with pytest.raises(BookWriteError, match=re.escape("could not open junk.gnucash")):
        gnc.read_book(junk)
    with pytest.raises(BookWriteError, match="no book at"):
        gnc.read_book(tmp_path / "missing.gnucash")
    assert _files(tmp_path) == ["junk.gnucash"]


def test_read_progress_counts_accounts(tmp_path: Path) -> None:
    out = tmp_path / "book.gnucash"
    gnc.write_book(_ledger(), out)
    seen: list[tuple[str, int, int]] = []
    gnc.read_book(out, on_progress=lambda *p: seen.append(p))
    assert seen == [("reading", i, 9) for i in range(1, 10)]


@pytest.mark.skipif(not DETACHES, reason="the detacher only runs on GnuCash 4.x-5.6")
def test_self_check_refuses_a_book_that_lost_splits(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Our own guard, not the engine, is disabled: detached chunks are never re-joined, so the
    # engine's accounts miss 2,000 transactions' splits. The count/balance check must refuse.
    monkeypatch.setattr(SplitListDetacher, "reattach", lambda self: None)
    with pytest.raises(BookWriteError, match="self-check failed"):
        gnc.write_book(_big_ledger(2500), tmp_path / "book.gnucash")
    assert _files(tmp_path) == []


def _snapshot_without_flags(path: Path) -> BookSnapshot:
    return replace(gnc.read_book(path, transactions=True), detached_load=False)


@pytest.mark.parametrize("fmt", ["xml", "sqlite"])
def test_an_engine_without_the_tricks_writes_the_same_book(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fmt: str
) -> None:
    # What a GnuCash 5.x (or a build lacking optional exports) does here: our version check
    # and symbol table say "no", the writer and reader take the public-API paths, and the
    # book is the same. The engine is the real one; only what it reports is changed.
    ledger = _big_ledger(1500)
    normal = gnc.write_book(ledger, tmp_path / "normal.gnucash", fmt=fmt)
    engine = bindings.engine()
    monkeypatch.setattr(engine, "version", (5, 10))
    optional = ("qof_book_increment_and_format_counter", "gncBillTermGetTerms", "qof_event_suspend")
    monkeypatch.setattr(engine, "missing", (*engine.missing, *optional))
    seen: list[tuple[str, int, int]] = []
    other = gnc.write_book(ledger, tmp_path / "other.gnucash", fmt=fmt)
    assert not other.detached and other.fallback.startswith("GnuCash 5.10:")
    assert replace(
        other, seconds=(), detached=normal.detached, fallback=normal.fallback
    ) == replace(normal, seconds=())
    book = gnc.read_book(
        tmp_path / "other.gnucash", transactions=True, on_progress=lambda *p: seen.append(p)
    )
    assert not book.detached_load
    if fmt == "xml":  # progress still comes from the loader, without the detacher
        assert [p for p in seen if p[0] == "loading"][-1] == ("loading", 1500, 1500)
    monkeypatch.undo()
    assert replace(book, detached_load=False) == _snapshot_without_flags(
        tmp_path / "normal.gnucash"
    )
    # ids numbered by the writer equal the book counter's on a fresh book; terms in use are
    # found through their customers and vendors
    assert [e.id for e in book.employees] == ["000001", "000002"]
    assert {t.name for t in book.terms} == {"Net 30", "10th next month"}


@pytest.mark.skipif(not DETACHES, reason="the detacher only runs on GnuCash 4.x-5.6")
def test_the_other_version_ranges_layout_is_refused_before_writing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The real engine claims the other GList version range (4.13 claims 5.6, 5.0-5.6 claim
    # 4.13), so the detacher mirrors a layout that is not this engine's: splits at 248 instead
    # of 200, or the reverse. The run-time check must see it and refuse before moving anything;
    # the plain path writes and reads back the same book.
    ledger = _big_ledger(2500)
    normal = gnc.write_book(ledger, tmp_path / "normal.gnucash")
    engine = bindings.engine()
    other = (5, 6) if engine.version[0] == 4 else (4, 13)
    assert account_layout(other) is not account_layout(engine.version)
    monkeypatch.setattr(engine, "version", other)
    stats = gnc.write_book(ledger, tmp_path / "other.gnucash")
    assert normal.detached and not stats.detached
    assert f"split list is not where GnuCash {other[0]}.{other[1]} keeps it" in stats.fallback
    book = gnc.read_book(tmp_path / "other.gnucash", transactions=True)
    assert not book.detached_load
    monkeypatch.undo()
    assert book == _snapshot_without_flags(tmp_path / "normal.gnucash")
    count, balance = _sums(ledger)
    for acc in book.accounts:
        assert (acc.splits, acc.balance) == (count[acc.full_name], balance[acc.full_name])


def test_version_ranges_of_the_detacher() -> None:
    # GList split lists of a known layout up to 5.6; 5.10 has vectors, 5.7-5.9 unexamined
    for version, detaches in [((4, 13), True), ((5, 0), True), ((5, 6), True), ((5, 7), False)]:
        assert (account_layout(version) is not None) is detaches, version
    assert account_layout((5, 10)) is None and account_layout((0, 0)) is None


@pytest.mark.skipif(not DETACHES, reason="the detacher only runs on GnuCash 4.x-5.6")
@pytest.mark.parametrize(
    ("field", "message"), [("_splits_at", "split list"), ("_dirty_at", "sort flag")]
)
def test_layout_check_refuses_a_shifted_field_before_writing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, field: str, message: str
) -> None:
    # A newer layout puts another field where 4.x keeps `splits` or `sort_dirty` (5.x has a
    # hash set right after the splits): simulated by shifting our own mirror by 8 bytes. The
    # check must refuse before anything is written, and the plain path writes the book.
    init = SplitListDetacher.__init__

    def shifted(self: SplitListDetacher, engine: Engine, accounts: list[int]) -> None:
        init(self, engine, accounts)
        setattr(self, field, [at + 8 for at in getattr(self, field)])

    monkeypatch.setattr(SplitListDetacher, "__init__", shifted)
    ledger = _big_ledger(2500)
    stats = gnc.write_book(ledger, tmp_path / "book.gnucash")
    assert not stats.detached and message in stats.fallback
    monkeypatch.undo()
    book = gnc.read_book(tmp_path / "book.gnucash")
    count, balance = _sums(ledger)
    for acc in book.accounts:
        assert (acc.splits, acc.balance) == (count[acc.full_name], balance[acc.full_name])


def test_engine_errors_are_said_in_plain_words(tmp_path):
    """A file that is not a book: GnuCash's own refusal, without its ERR_ codes."""
    text = tmp_path / "notes.gnucash"
    text.write_text("not a book\n", encoding="utf-8")
    for path in (text,):
        with pytest.raises(BookWriteError) as caught:
            gnc.read_book(path)
        message = caught.value.message
        assert path.name in message and "ERR_" not in message, message
        assert "it is not a GnuCash book (XML or SQLite)" in message, message

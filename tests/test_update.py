"""Bringing a book up to date (issue 25): the generator's company exported twice
(``tests/support/companygen_later.py``) converted at the first export, a transaction added by hand
in GnuCash, then updated with the second; every book reopened through the engine and compared
with the second export's truth. The keys and decisions on hand-made ledgers first."""

from __future__ import annotations

import copy
import datetime as dt
import sqlite3
import tempfile
from dataclasses import replace
from decimal import Decimal
from pathlib import Path

import pytest

from app import gnc, keys, pipeline, update, update_record, update_run
from app.gnc.bindings import C, GncNumeric, Session, SessionOpenMode
from app.model import Account, AccountType, FileInfo, Ledger, Split, Transaction
from app.openings import OPENING_KIND
from app.plan import Plan
from app.source import Source
from tests.support.companygen import Company
from tests.support.companygen_later import RENAMED, Later, later_company
from tests.support.end_to_end import assert_known_answers
from tests.support.gnucash_edits import move_cents

D = Decimal
HAND = "Bought by hand in GnuCash"


def _txn(ref: str = "", num: str = "1", value: str = "10.00", **kw) -> Transaction:
    src = Source("x.csv", 3)
    splits = (
        Split("Checking", -D(value), src, memo="m"),
        Split("Rent", D(value), src),
    )
    return Transaction(
        dt.date(2024, 3, 1), splits, src, num=num, description="Landlord", ref=ref, **kw
    )


# ---------------------------------------------------------------- keys and decisions, pure


def test_keys_by_trans_number_fingerprint_and_repeats() -> None:
    found = keys.keys([_txn("1,234"), _txn(), _txn(), _txn(num="2")], OPENING_KIND)
    assert found[0] == "ref:1234"
    assert found[1].startswith("fp:") and found[2] == found[1] + "#2"
    assert found[3] != found[1]
    opening = replace(_txn(), kind_label=OPENING_KIND)
    assert keys.keys([opening], OPENING_KIND) == ["opening"]


def test_content_sees_an_edit_and_a_void_but_not_a_reconcile_mark() -> None:
    t = _txn("7")
    assert keys.content(t) == keys.content(replace(t, splits=t.splits[::-1]))
    assert keys.content(t) != keys.content(_txn("7", value="10.01"))
    assert keys.content(t) != keys.content(replace(t, voided=True))
    from app.model import Reconcile

    cleared = replace(t, splits=tuple(replace(s, reconcile=Reconcile.CLEARED) for s in t.splits))
    assert keys.content(t) == keys.content(cleared)
    # a payment's line cut in two pieces holds the same sums
    a, b = t.splits
    pieces = (replace(a, value=D("-4")), replace(a, value=D("-6.00")), b)
    assert keys.ledger_sums(t) == keys.ledger_sums(replace(t, splits=pieces))
    stamp = keys.parse(keys.stamp("ref:7", t))
    assert stamp is not None and stamp.key == "ref:7" and keys.parse("not ours") is None


CHART = tuple(
    Account(n, t, Source("lists.iif", 1))
    for n, t in (("Checking", AccountType.BANK), ("Rent", AccountType.EXPENSE))
)


def _state(entries: tuple[update.BookEntry, ...], record: update_record.Record | None):
    return update.BookState(
        record, entries, frozenset({"Checking", "Rent"}), frozenset(), frozenset()
    )


def _entry(t: Transaction, key: str, handle: int = 1) -> update.BookEntry:
    lines = tuple((s.account, s.value) for s in t.splits)
    return update.BookEntry(
        handle,
        t.date,
        t.num,
        t.description,
        keys.parse(keys.stamp(key, t)),
        keys.ledger_sums(t),
        lines,
    )


RECORD = update_record.Record(
    "Acme", dt.date(2024, 3, 31), dt.date(2024, 3, 1), Plan().to_json(), {"Checking": D(1)}
)


def test_decide_adds_the_new_holds_the_edited_and_keeps_the_hand_made() -> None:
    old, edited_before = _txn("1"), _txn("2", value="20.00")
    hand = replace(_entry(_txn(num="99"), "x", 3), stamp=None)
    state = _state((_entry(old, "ref:1", 1), _entry(edited_before, "ref:2", 2), hand), RECORD)
    ledger = Ledger(
        transactions=(old, _txn("2", value="25.00"), _txn("3")),
        company="Acme",
        accounts=CHART,
    )
    work = update.decide(state, ledger, OPENING_KIND)
    assert work.add == (2,)
    assert set(work.present) == {0, 1}
    assert [(h.index, h.why) for h in work.held] == [(1, "edited in QuickBooks")]
    assert work.added_here == (hand,)
    again = update.decide(
        state, replace(ledger, transactions=(old, _txn("2", value="25.00"))), OPENING_KIND
    )
    assert again.nothing_new


def test_decide_refuses_a_foreign_book_another_company_and_older_exports() -> None:
    ledger = Ledger(transactions=(_txn("1"),), company="Acme", accounts=CHART)
    with pytest.raises(update.UpdateRefused, match="not written by qb2gnucash"):
        update.decide(_state((), None), ledger, OPENING_KIND, "b.gnucash")
    with pytest.raises(update.UpdateRefused, match="of “Other Co”"):
        update.decide(_state((), RECORD), replace(ledger, company="Other Co"), OPENING_KIND)
    from app.model import AsOf

    old = AsOf(dt.date(2024, 1, 31), "given", dt.date(2024, 1, 1))
    with pytest.raises(update.UpdateRefused, match="older than"):
        update.decide(_state((), RECORD), replace(ledger, as_of=old), OPENING_KIND)


def test_record_round_trip() -> None:
    assert update_record.Record.from_text(RECORD.to_text()) == RECORD
    assert update_record.Record.from_text("{") is None


# ---------------------------------------------------------------- end to end


@pytest.fixture(scope="module")
def later() -> Later:
    return later_company(400, seed=5)


def _exports(company: Company, folder: Path, layout: str) -> list[Path]:
    folder.mkdir(parents=True)
    history = {
        "journal": company.write_journal_csv,
        "find": company.write_find_csv,
        "transactions_iif": company.write_transactions_iif,
        "transaction_detail": company.write_transaction_detail_csv,
        "general_ledger": company.write_general_ledger_csv,
    }[layout]
    name = "transactions.iif" if layout.endswith("iif") else f"{layout}.csv"
    return [
        company.write_lists_iif(folder / "lists.iif"),
        history(folder / name),
        company.write_open_invoices_csv(folder / "open_invoices.csv"),
        company.write_unpaid_bills_csv(folder / "unpaid_bills.csv"),
    ]


def same_book(a: bytes, b: bytes) -> bool:
    """Two books hold the same: the same bytes (XML), the same rows but for GnuCash's lock
    table (SQLite: a session that opens the book writes its lock there and removes it)."""
    if not a.startswith(b"SQLite"):
        return a == b
    return _rows(a) == _rows(b)


def _rows(data: bytes) -> list[str]:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "book.sqlite"
        path.write_bytes(data)
        db = sqlite3.connect(path)
        try:
            return [line for line in db.iterdump() if "gnclock" not in line]
        finally:
            db.close()


def _uri(path: Path, fmt: str) -> str:
    return ("sqlite3://" if fmt == "sqlite" else "xml://") + str(path)


def add_by_hand(path: Path, fmt: str, day: dt.date, cents: int) -> None:
    """A transaction entered in GnuCash itself (Checking to Owner's Draw), saved."""
    session = Session(_uri(path, fmt), SessionOpenMode.SESSION_NORMAL_OPEN)
    try:
        book = session.book
        root = book.get_root_account()
        checking = root.lookup_by_full_name("Checking")
        draw = root.lookup_by_full_name("Owner's Equity:Owner's Draw")
        t = C.xaccMallocTransaction(book.get_instance())
        C.xaccTransBeginEdit(t)
        C.xaccTransSetCurrency(t, checking.GetCommodity().get_instance())
        C.xaccTransSetDate(t, day.day, day.month, day.year)
        C.xaccTransSetDescription(t, HAND)
        for acc, v in ((checking, -cents), (draw, cents)):
            s = C.xaccMallocSplit(book.get_instance())
            C.xaccSplitSetParent(s, t)
            C.xaccSplitSetAccount(s, acc.get_instance())
            n = GncNumeric(v, 100)
            C.xaccSplitSetValue(s, n.instance)
            C.xaccSplitSetAmount(s, n.instance)
        C.xaccTransCommitEdit(t)
        session.save()
    finally:
        session.end()


def _first_book(
    later: Later, tmp: Path, layout: str, fmt: str, plan: Plan | None = None
) -> tuple[Path, list[Path], int]:
    """The first export converted (``fmt``, with ``plan``); the second's files; the book's
    transaction count."""
    plan = replace(plan or Plan(), format=fmt)  # type: ignore[arg-type]
    first = _exports(later.first, tmp / "march", layout)
    prepared = pipeline.prepare(pipeline.read(first, plan), plan)
    assert not prepared.errors, prepared.errors
    book = tmp / "book.gnucash"
    assert pipeline.write(prepared, book, plan).report.ok
    return book, _exports(later.second, tmp / "june", layout), prepared.transaction_count


def _keys(path: Path) -> list[str]:
    from app.gnc import bindings, existing

    session = Session()
    session.begin(
        _uri(path, "sqlite" if path.read_bytes()[:6] == b"SQLite" else "xml"),
        SessionOpenMode.SESSION_READ_ONLY,
    )
    try:
        session.load()
        state = existing.read_state(bindings.engine(), session.book)
    finally:
        session.end()
    return [e.stamp.key for e in state.entries if e.stamp is not None]


@pytest.mark.parametrize(
    ("layout", "fmt"),
    [
        ("journal", "xml"),
        ("journal", "sqlite"),
        ("find", "xml"),
        ("transactions_iif", "sqlite"),
        ("transaction_detail", "xml"),
        ("general_ledger", "xml"),
    ],
)
def test_march_book_brought_up_to_date_with_june(later: Later, tmp_path: Path, layout, fmt) -> None:
    book, june, had = _first_book(later, tmp_path, layout, fmt)
    march_bytes = book.read_bytes()
    add_by_hand(book, fmt, later.cut + dt.timedelta(days=3), 12345)
    by_hand = book.read_bytes()
    assert not same_book(by_hand, march_bytes)

    outcome = update_run.bring_up_to_date(june, book)
    work = outcome.work
    # (the Find export has no Trans #: look-alike neighbours there read as one transaction)
    exported = len(outcome.ledger.transactions)
    assert exported == len(later.second.transactions) or layout == "find"
    assert outcome.written and len(work.add) == exported - (had - 1)
    assert len(work.add) == len(later.added) or layout == "find"
    assert work.new_accounts == (later.new_account,)
    assert ("customer", later.new_customer) in work.new_owners
    assert ("employee", later.new_employee) in work.new_owners  # hired since: written
    assert ("customer", later.new_job) in work.new_owners  # a new job of an old customer
    # the account QuickBooks renamed: held, the book's name kept (no new account)
    assert [(r.book, r.quickbooks, r.choice) for r in outcome.renames] == [(*RENAMED, "")]
    assert any(line.startswith("Held [account:6800]") for line in outcome.lines())
    # the edited and the deleted check: listed, not applied
    held = {(h.entry.num, h.index is None) for h in work.held}
    assert held == {(later.edited[0].num, False), (later.deleted.num, True)}
    # the hand-made transaction: kept, left out of the proof, said
    assert [e.description for e in work.added_here] == [HAND]
    day = later.cut + dt.timedelta(days=3)
    assert f"Made in GnuCash, not compared: 1 transaction (last {day})." in outcome.report.notes
    # the previous book kept as it was
    assert outcome.backup is not None and same_book(outcome.backup.read_bytes(), by_hand)

    snap = gnc.read_book(book, transactions=True, documents=True)
    names = [e.name for e in snap.employees]  # the employee hired since: in the book, once
    assert names.count(later.new_employee) == 1 and len(names) == len(later.second.employees)
    assert "900-45-6789" not in book.read_bytes().decode("latin-1")  # no SSN in the book
    hand = [t for t in snap.transaction_list if t.description == HAND]
    assert len(hand) == 1 and sorted(s.value for s in hand[0].splits) == [D("-123.45"), D("123.45")]
    # every QuickBooks transaction once: the second export's, and the book's deleted one kept
    found = _keys(book)
    assert len(found) == len(set(found)) == exported + 1
    if layout != "find":
        expected = {f"ref:{t.trans_no}" for t in later.second.transactions}
        assert set(found) == expected | {f"ref:{later.deleted.trans_no}"}
    # March's open invoices and bills that June pays show paid in GnuCash
    assert snap.documents is not None
    docs = {(d.id, d.owner): d for d in snap.documents.documents}
    paid = [t for t in later.first.transactions if t.trans_no in later.paid_later]
    for t in paid:
        assert docs[t.num, t.name].paid, (t.num, t.name)
    # the new job's invoice: the job's own, open
    job_invoice = next(t for t in later.added if t.name == later.new_job)
    assert not docs[job_invoice.num, later.new_job].paid
    assert outcome.report.documents is not None and outcome.report.documents.ok

    # the proof: QuickBooks' June figures to the cent, but for exactly the held changes
    assert outcome.explained and outcome.as_taken is not None
    assert_known_answers(outcome.as_taken, later.second.trial_balance())
    touched = {a for t in (later.edited[1], later.deleted) for a, *_ in t.splits}
    assert {r.account for r in outcome.report.differences} <= touched | {"Retained Earnings"}
    assert outcome.report.differences
    # the delta table: what this run added is QuickBooks' movement but where a held change is
    off = {d.account for d in outcome.deltas if not d.ok}
    assert off <= touched | {"Retained Earnings"}

    # idempotent: the same exports again add nothing and leave the file as it is
    updated = book.read_bytes()
    again = update_run.bring_up_to_date(june, book)
    assert not again.written and again.work.add == () and same_book(book.read_bytes(), updated)
    assert any("0 transactions added" in line for line in again.lines())


def test_another_company_whose_numbers_run_alike_is_refused(later: Later, tmp_path) -> None:
    """Another company with the same chart and Trans # running alike (the generator's other
    seed): most transactions the book shares with its exports differ, so the update is refused
    and the book left as it was (it once held all 300 shared ones as changes in QuickBooks)."""
    book, _june, _had = _first_book(later, tmp_path, "journal", "xml")
    before = book.read_bytes()
    other = later_company(400, seed=11).second
    assert {t.trans_no for t in other.transactions} & {t.trans_no for t in later.first.transactions}
    with pytest.raises(update.UpdateRefused, match=r"of the \d+ transactions book.gnucash and"):
        update_run.bring_up_to_date(_exports(other, tmp_path / "other", "journal"), book)
    assert book.read_bytes() == before
    assert not list(tmp_path.glob("book*.gnucash.*"))  # no backup or new file beside it


def test_decide_refuses_mostly_changed_exports_but_not_a_few_edits() -> None:
    book = tuple(_txn(str(n)) for n in range(1, 31))
    state = _state(tuple(_entry(t, f"ref:{t.ref}", n) for n, t in enumerate(book)), RECORD)
    edits = [replace(t, splits=_txn(t.ref, value="99.00").splits) for t in book]
    some = Ledger(transactions=(*edits[:15], *book[15:]), company="Acme", accounts=CHART)
    assert len(update.decide(state, some, OPENING_KIND).held) == 15  # half: edits, held
    most = replace(some, transactions=(*edits[:16], *book[16:]))
    with pytest.raises(update.UpdateRefused, match="16 of the 30 transactions the book and"):
        update.decide(state, most, OPENING_KIND)


def test_decide_refuses_new_transactions_in_a_closed_period() -> None:
    state = replace(_state((), RECORD), read_only_before=dt.date(2024, 4, 1))
    ledger = Ledger(transactions=(_txn("5"),), company="Acme", accounts=CHART)
    with pytest.raises(update.UpdateRefused, match=r"x.csv:3: 1 new transaction would go"):
        update.decide(state, ledger, OPENING_KIND)
    later = replace(_txn("5"), date=dt.date(2024, 4, 2))
    assert update.decide(state, replace(ledger, transactions=(later,)), OPENING_KIND).add == (0,)


def test_a_transaction_keyed_by_its_fingerprint_edited_is_paired_back() -> None:
    before = _txn()
    state = _state((_entry(before, keys.keys([before], OPENING_KIND)[0]),), RECORD)
    files = (
        FileInfo("find.csv", "CSV Find", "find", first_date=before.date, last_date=before.date),
    )
    edited = _txn(value="11.00")
    work = update.decide(
        state,
        Ledger(transactions=(edited,), company="Acme", accounts=CHART, files=files),
        OPENING_KIND,
    )
    assert work.add == () and [(h.index, h.why) for h in work.held] == [(0, "edited in QuickBooks")]


def test_the_plan_stored_in_the_book_is_applied_to_the_later_exports(later: Later, tmp_path):
    """A rename made for the first conversion: June's new transactions land in the renamed
    account, which is no new account."""
    from app.plan import Rule

    plan = Plan().with_rule(Rule("rename", "Checking", "Operating Checking"))
    book, june, _had = _first_book(later, tmp_path, "journal", "xml", plan)
    outcome = update_run.bring_up_to_date(june, book)
    assert outcome.plan.rules == plan.rules
    assert outcome.work.new_accounts == (later.new_account,)
    snap = gnc.read_book(book)
    assert snap.account("Checking") is None
    checking = snap.account("Operating Checking")
    assert checking is not None
    truth = later.second.trial_balance()
    taken = {r.account: r for r in outcome.as_taken.rows}
    assert taken["Operating Checking"].gnucash_balance == truth["Checking"]
    assert outcome.explained


def test_held_changes_decided_by_the_plan(later: Later, tmp_path):
    """The edited check taken from QuickBooks (the book's version replaced), the deleted one
    kept: the book then equals QuickBooks but for the kept one, and says so."""
    book, june, _had = _first_book(later, tmp_path, "journal", "xml")
    first = update_run.bring_up_to_date(june, book)
    keys_of = {h.index is None: h.key for h in first.work.held}
    edited, deleted = keys_of[False], keys_of[True]
    choose = lambda plan: replace(plan, held={edited: "quickbooks", deleted: "book"})  # noqa: E731
    decided = update_run.bring_up_to_date(june, book, choose)
    assert decided.written and [h.key for h in decided.work.taken] == [edited]
    assert [(h.key, h.kept) for h in decided.work.held] == [(deleted, True)]
    assert decided.explained
    differing = {r.account for r in decided.report.differences}
    edited_only = {a for a, *_ in later.edited[1].splits} - {a for a, *_ in later.deleted.splits}
    assert not differing & edited_only  # the edit is in the book now
    snap = gnc.read_book(book, transactions=True)
    checks = [t for t in snap.transaction_list if t.num == later.edited[1].num]
    assert len(checks) == 1
    assert min(s.value for s in checks[0].splits) == later.edited[1].splits[0][1]
    # the delta table counts the edit taken as what it changed (the new version less the
    # book's), not as the new version's whole lines: the edit is dated before the last run, so
    # an expense account's row differs by exactly it, and says so
    change: dict[str, D] = {}
    for sign, version in ((-1, later.edited[0]), (1, later.edited[1])):
        for a, amount, *_ in version.splits:
            change[a] = change.get(a, D(0)) + sign * amount
    rows = {d.account: d for d in decided.deltas}
    for account in edited_only:
        row, moved = rows.get(account), change.get(account, D(0))
        if moved and row is not None and row.basis == "history":
            assert row.added - row.quickbooks == moved, (account, row)
            assert "of this run's is dated on or before" in row.why, row.why
    assert sum(1 for a in edited_only if change.get(a) and rows[a].basis == "history") == 1
    # the decisions are stored with the book: the next run asks nothing again
    again = update_run.bring_up_to_date(june, book)
    assert not again.written and again.work.taken == ()
    assert [(h.key, h.kept) for h in again.work.held] == [(deleted, True)]


def _reconcile_in_gnucash(path: Path, num: str, account: str) -> None:
    """The user reconciles ``account``'s line of transaction ``num`` in GnuCash, saved."""
    session = Session(_uri(path, "xml"), SessionOpenMode.SESSION_NORMAL_OPEN)
    try:
        acc = session.book.get_root_account().lookup_by_full_name(account)
        hits = [s for s in acc.GetSplitList() if s.GetParent().GetNum() == num]
        assert len(hits) == 1
        C.xaccSplitSetReconcile(hits[0].get_instance(), "y")
        session.save()
    finally:
        session.end()


@pytest.mark.parametrize("amount_edited", [False, True])
def test_a_change_taken_keeps_the_book_s_reconciled_line(later: Later, tmp_path, amount_edited):
    """A Journal export has no Clr column: taking QuickBooks' version of a check edited there
    kept none of the marks the book had. The check's bank line, reconciled in GnuCash, stays
    reconciled when the edit left it as it was (a memo on the other line), and takes
    QuickBooks' mark when its amount changed (the book's reconciliation no longer holds it)."""
    book, _june, _had = _first_book(later, tmp_path, "journal", "xml")
    first, edited = later.edited
    bank = first.splits[0][0]
    _reconcile_in_gnucash(book, first.num, bank)
    second = copy.deepcopy(later.second)
    if not amount_edited:  # only the memo of the other line changed in QuickBooks
        t = next(t for t in second.transactions if t.trans_no == edited.trans_no)
        a, v, _memo, c = first.splits[1]
        t.splits = [first.splits[0], (a, v, "Corrected in QuickBooks", c), *first.splits[2:]]
    june = _exports(second, tmp_path / "june-marks", "journal")
    key = f"ref:{edited.trans_no}"
    take = lambda plan: replace(plan, held={key: "quickbooks"})  # noqa: E731
    done = update_run.bring_up_to_date(june, book, take)
    assert done.written and [h.key for h in done.work.taken] == [key]
    snap = gnc.read_book(book, transactions=True)
    (check,) = [t for t in snap.transaction_list if t.num == first.num]
    marks = {s.account: s.reconcile for s in check.splits}
    assert marks[bank] == ("n" if amount_edited else "y"), marks
    assert done.report is not None and done.explained  # the proof expects exactly that


def test_an_account_renamed_in_quickbooks_is_held_then_taken(later: Later, tmp_path):
    """QuickBooks renamed an account (same number) and names its whole history by the new
    name: held, the book keeps its name and holds QuickBooks' figure in it, no transaction of
    it held; taken, the book's account is renamed; the runs after it hold nothing of it."""
    old, new = RENAMED
    truth = later.second.trial_balance()
    book, june, _had = _first_book(later, tmp_path, "journal", "sqlite")
    held = update_run.bring_up_to_date(june, book)
    assert held.written and held.explained
    assert [(r.book, r.quickbooks, r.key) for r in held.renames] == [(old, new, "account:6800")]
    assert {h.key for h in held.work.held} == {
        h.key for h in held.work.held if h.entry.num in (later.edited[0].num, later.deleted.num)
    } and len(held.work.held) == 2  # not one of the renamed account's transactions
    assert held.work.new_accounts == (later.new_account,)
    snap = gnc.read_book(book)
    assert snap.account(new) is None and snap.account(old) is not None
    assert held.as_taken is not None  # (the held checks may be of that account too)
    row = next(r for r in held.as_taken.rows if r.account == old)
    assert row.ok and row.quickbooks_balance == truth[new]  # QuickBooks' figure, the book's name

    take = lambda plan: replace(plan, held={**plan.held, "account:6800": "quickbooks"})  # noqa: E731
    taken = update_run.bring_up_to_date(june, book, take)
    assert taken.written and taken.explained
    assert [r.said() for r in taken.renames] == [
        f"Taken from QuickBooks (the plan): the book's account “{old}” renamed “{new}”"
    ]
    snap = gnc.read_book(book)
    assert snap.account(old) is None and snap.account(new) is not None
    assert taken.as_taken is not None
    row = next(r for r in taken.as_taken.rows if r.account == new)
    assert row.ok and row.quickbooks_balance == truth[new]

    again = update_run.bring_up_to_date(june, book)
    assert not again.written and again.renames == () and len(again.work.held) == 2
    assert again.work.edited_here == ()


@pytest.mark.parametrize(("qb_type", "family"), [("EXP", "Expense"), ("OCASSET", "Asset")])
def test_an_account_retyped_in_quickbooks_is_a_difference(later: Later, tmp_path, qb_type, family):
    """QuickBooks changed Prepaid Insurance (an asset, unused) to an Expense account after the
    first conversion, and a 300.00 check posts to it: the update said "52 of 52 accounts
    match" and the book up to date (a 300.00 asset all time equals a 300.00 expense this year)
    while GnuCash's Income Statement and Balance Sheet were 300.00 off QuickBooks' (hunt 22).
    The proof compares each account's type: the account differs, the cause names both types.
    Unchanged, the same check raises nothing."""
    from tests.support.companygen_later import retyped

    tmp_path /= qb_type
    book, _june, _had = _first_book(later, tmp_path, "journal", "xml")
    second = retyped(later.second, "Prepaid Insurance", qb_type, D("300.00"))
    june = _exports(second, tmp_path / "june2", "journal")
    held = update_run.bring_up_to_date(june, book)
    assert held.as_taken is not None and held.written
    row = next(r for r in held.as_taken.rows if r.account == "Prepaid Insurance")
    if qb_type == "OCASSET":  # (its own type: nothing to say)
        assert row.ok and row.types is None, row
        return
    assert not row.ok and row.types == ("EXPENSE", "ASSET"), row
    assert row.cause.startswith(
        f"the type is {family} in QuickBooks, Asset in GnuCash: QuickBooks changed it after"
    )
    said = [line for line in held.as_taken.difference_lines() if "Prepaid Insurance" in line]
    assert said and said[0].startswith(
        "Prepaid Insurance: 300.00 in both (year to date) — the type is Expense in QuickBooks"
    ), said
    snap = gnc.read_book(book)
    assert snap.account("Prepaid Insurance").type == "ASSET"  # (the book's, as it was)


@pytest.mark.parametrize("kind", ["CASH", "STOCK", "TRADING"])
def test_a_type_the_user_chose_in_gnucash_within_its_group_is_the_user_s(
    later: Later, tmp_path, kind
) -> None:
    """Checking made a Cash (or Stock) account in GnuCash's Edit Account, within its group:
    the update said "the type is Bank in QuickBooks, Cash in GnuCash: QuickBooks changed it",
    and a Stock one crashed it with a KeyError (hunt 25). GnuCash's reports file it under the
    same heading: nothing to say; the book keeps the user's type."""
    from tests.support.gnucash_edits import editing, retype

    book, june, _had = _first_book(later, tmp_path, "journal", "xml")
    with editing(book) as gnc_book:
        retype(gnc_book, "Checking", kind)
    held = update_run.bring_up_to_date(june, book)
    assert held.as_taken is not None and held.written
    row = next(r for r in held.as_taken.rows if r.account == "Checking")
    if kind == "TRADING":  # (reported under no heading of QuickBooks': a difference, hunt 26)
        assert row.types == ("BANK", "TRADING") and not row.ok, row
        assert row.cause.startswith("the type is Bank in QuickBooks, Trading in GnuCash")
    else:
        assert row.types is None and row.ok, row
    assert gnc.read_book(book).account("Checking").type == kind


def rearrange_in_gnucash(path: Path, fmt: str, moves: dict[str, tuple[str, str]]) -> None:
    """Accounts renamed or moved in GnuCash itself: full name → (new parent, "" the top, or
    a new top-level account made for it; new name), saved."""
    session = Session(_uri(path, fmt), SessionOpenMode.SESSION_NORMAL_OPEN)
    try:
        root = session.book.get_root_account()
        for name, (parent, leaf) in moves.items():
            a = root.lookup_by_full_name(name)
            under = root.lookup_by_full_name(parent) if parent else root
            if under is None:  # an account QuickBooks does not have
                from app.gnc.bindings import C, GncAccount

                under = GncAccount(session.book)
                under.BeginEdit()
                under.SetName(parent)
                under.SetType(C.ACCT_TYPE_EXPENSE)
                under.SetCommodity(a.GetCommodity())
                root.append_child(under)
                under.CommitEdit()
            a.BeginEdit()
            a.SetName(leaf)
            if a.get_parent().get_full_name() != under.get_full_name():
                under.append_child(a)
            a.CommitEdit()
        session.save()
    finally:
        session.end()


@pytest.mark.parametrize("fmt", ["xml", "sqlite"])
def test_accounts_renamed_and_moved_in_gnucash_are_followed(later: Later, tmp_path, fmt):
    """Between runs the user renames one account in GnuCash, moves one under another of
    QuickBooks' accounts, one under an account of GnuCash alone, and the one QuickBooks then
    renames too: the update puts QuickBooks' transactions of them where the book has them
    (nothing new, nothing held but QuickBooks' two changes, nothing "edited in GnuCash"),
    proves the book under its own names, takes QuickBooks' name where told to, and the next run
    adds nothing. A GnuCash account made with a renamed one's old name is refused."""
    book, june, _had = _first_book(later, tmp_path, "journal", fmt)
    moves = {
        "Rent": ("", "Office Rent"),
        "Utilities:Gas": ("Automobile", "Gas"),
        "Repairs": ("Premises", "Repairs"),  # (an account of GnuCash alone)
        RENAMED[0]: ("Utilities", RENAMED[0]),
    }
    rearrange_in_gnucash(book, fmt, moves)
    outcome = update_run.bring_up_to_date(june, book)
    work = outcome.work
    assert outcome.written and outcome.explained, outcome.lines()
    assert len(work.held) == 2 and work.edited_here == ()
    assert work.new_accounts == (later.new_account,)
    phone = f"Utilities:{RENAMED[0]}"
    assert [(r.book, r.in_book) for r in outcome.renames] == [(RENAMED[0], phone)]
    assert outcome.as_taken is not None
    rows = {r.account: r for r in outcome.as_taken.rows}
    truth = later.second.trial_balance()
    for now, was in (
        ("Office Rent", "Rent"),
        ("Automobile:Gas", "Utilities:Gas"),
        ("Premises:Repairs", "Repairs"),
        (phone, RENAMED[1]),
    ):
        assert rows[now].ok and rows[now].quickbooks_balance == truth[was], rows[now]
    snap = gnc.read_book(book)
    assert {"Rent", "Utilities:Gas", "Repairs", RENAMED[0]}.isdisjoint(
        a.full_name for a in snap.accounts
    )
    again = update_run.bring_up_to_date(june, book)
    assert not again.written and again.work.add == () and again.work.edited_here == ()
    assert len(again.work.held) == 2

    # QuickBooks' name taken for the account the user moved: renamed where the book has it
    take = lambda plan: replace(plan, held={**plan.held, "account:6800": "quickbooks"})  # noqa: E731
    taken = update_run.bring_up_to_date(june, book, take)
    assert taken.written and taken.explained and taken.as_taken is not None
    row = next(r for r in taken.as_taken.rows if r.account == f"Utilities:{RENAMED[1]}")
    assert row.ok and row.quickbooks_balance == truth[RENAMED[1]]
    later_run = update_run.bring_up_to_date(june, book)
    assert not later_run.written and later_run.renames == () and later_run.work.add == ()
    assert later_run.work.edited_here == () and len(later_run.work.held) == 2

    # a GnuCash account made with a renamed one's old name: refused, the book as it was
    rearrange_in_gnucash(book, fmt, {"Office Rent": ("Rent", "Office Rent")})
    before = book.read_bytes()
    with pytest.raises(update.UpdateRefused, match="two accounts of the book go by “Rent”"):
        update_run.bring_up_to_date(june, book)
    assert same_book(book.read_bytes(), before)


@pytest.mark.parametrize("how", ["plan rename", "standard tree"])
def test_an_account_the_plan_named_renamed_again_in_gnucash(later: Later, tmp_path, how):
    """The first conversion's plan named the account (a rename, or the standard tree's parents)
    and the user renames it again in GnuCash: followed, nothing held but QuickBooks' two."""
    from app.plan import Rule

    if how == "plan rename":
        plan = Plan().with_rule(Rule("rename", "Checking", "Operating Checking"))
    else:
        plan = Plan(reparent=True)
    book, june, _had = _first_book(later, tmp_path, "journal", "xml", plan)
    name = next(a.full_name for a in gnc.read_book(book).accounts if "Checking" in a.full_name)
    rearrange_in_gnucash(book, "xml", {name: (name.rpartition(":")[0], "Main Checking")})
    outcome = update_run.bring_up_to_date(june, book)
    assert outcome.explained and len(outcome.work.held) == 2 and outcome.work.edited_here == ()
    assert outcome.as_taken is not None
    row = next(r for r in outcome.as_taken.rows if r.account.endswith("Main Checking"))
    assert row.ok and row.quickbooks_balance == later.second.trial_balance()["Checking"]


def edit_in_gnucash(path: Path, num: str, cents: int) -> None:
    """One of QuickBooks' transactions (by its number) edited in GnuCash: ``cents`` moved
    between its first two splits, saved."""
    session = Session(_uri(path, "xml"), SessionOpenMode.SESSION_NORMAL_OPEN)
    try:
        checking = session.book.get_root_account().lookup_by_full_name("Checking")
        txn = next(s.GetParent() for s in checking.GetSplitList() if s.GetParent().GetNum() == num)
        first, second = txn.GetSplitList()[:2]
        move_cents(txn, first, second, cents)
        session.save()
    finally:
        session.end()


def test_an_edit_made_in_gnucash_is_kept_and_named(later: Later, tmp_path: Path) -> None:
    book, june, _had = _first_book(later, tmp_path, "journal", "xml")
    plain = next(
        t
        for t in later.first.transactions
        if t.type == "Check"
        and t.num
        and t.splits[0][1]
        and t.trans_no != later.deleted.trans_no
        and t.trans_no != later.edited[0].trans_no
    )
    edit_in_gnucash(book, plain.num, 500)
    outcome = update_run.bring_up_to_date(june, book)
    assert [e.num for e in outcome.work.edited_here] == [plain.num]
    assert any(plain.num in line and "edited in GnuCash" in line for line in outcome.lines())
    assert outcome.explained  # exactly the held changes and the edit
    snap = gnc.read_book(book, transactions=True)
    kept = [t for t in snap.transaction_list if t.num == plain.num and t.date == plain.date]
    assert len(kept) == 1
    book_sums: dict[str, D] = {}
    for s in kept[0].splits:
        book_sums[s.account] = book_sums.get(s.account, D(0)) + s.value
    qb_sums: dict[str, D] = {}
    for a, v, *_ in plain.splits:
        qb_sums[a] = qb_sums.get(a, D(0)) + v
    moved = sorted(abs(book_sums[a] - qb_sums[a]) for a in qb_sums)
    assert moved[-2:] == [D("5.00"), D("5.00")] and sum(moved) == D("10.00")  # as edited


@pytest.mark.parametrize("mode", ["accounts", "memo"])
def test_a_company_with_classes_brought_up_to_date(tmp_path: Path, mode: str) -> None:
    """Classes as sub-accounts (or memos and slots): June's new lines land in their class's
    sub-account; the book is QuickBooks' June books but for the held changes."""
    later = later_company(300, seed=5, classes=True)
    plan = replace(Plan(), classes=mode)  # type: ignore[arg-type]
    book, june, _had = _first_book(later, tmp_path, "journal", "xml", plan)
    outcome = update_run.bring_up_to_date(june, book)
    assert outcome.plan.classes == mode
    assert outcome.written and len(outcome.work.add) == len(later.added)
    assert outcome.explained
    if mode == "accounts":
        classed = {
            a for t in later.added for (a, *_), c in zip(t.splits, t.classes, strict=False) if c
        }
        assert classed  # some new lines have a class
        made = set(outcome.work.new_accounts)
        names = {a.full_name for a in gnc.read_book(book).accounts}
        assert made <= names


def redate_in_gnucash(path: Path, num: str, day: dt.date) -> None:
    """One of QuickBooks' transactions (by its number) given another date in GnuCash, saved."""
    session = Session(_uri(path, "xml"), SessionOpenMode.SESSION_NORMAL_OPEN)
    try:
        checking = session.book.get_root_account().lookup_by_full_name("Checking")
        txn = next(s.GetParent() for s in checking.GetSplitList() if s.GetParent().GetNum() == num)
        txn.BeginEdit()
        txn.SetDate(day.day, day.month, day.year)
        txn.CommitEdit()
        session.save()
    finally:
        session.end()


def test_a_date_changed_in_gnucash_still_differs(later: Later, tmp_path: Path) -> None:
    """One of QuickBooks' checks given a date after QuickBooks' last transaction in GnuCash, and
    a transaction of GnuCash alone later still: the dates compared are those of the book's
    QuickBooks transactions, so the last date differs at the moved check's (not at the one made
    in GnuCash, left out and said), named as edited in GnuCash; with QuickBooks' version of it,
    the book would match."""
    book, june, _had = _first_book(later, tmp_path, "journal", "xml")
    plain = next(
        t
        for t in later.first.transactions
        if t.type == "Check"
        and t.num
        and t.trans_no not in (later.deleted.trans_no, later.edited[0].trans_no)
    )
    last = max(t.date for t in later.second.transactions)
    moved, hand = last + dt.timedelta(days=10), last + dt.timedelta(days=40)
    redate_in_gnucash(book, plain.num, moved)
    add_by_hand(book, "xml", hand, 2500)
    outcome = update_run.bring_up_to_date(june, book)
    assert [(e.num, e.date) for e in outcome.work.edited_here] == [(plain.num, moved)]
    report = outcome.report
    assert report is not None and not report.ok
    check = next(c for c in report.checks if c.name == "last transaction date")
    assert (check.input, check.book, check.ok) == (last, moved, False)
    assert check.cause.startswith("a change since the last run: held from QuickBooks, or made")
    assert f"Made in GnuCash, not compared: 1 transaction (last {hand})." in report.notes
    assert outcome.explained and outcome.as_taken is not None
    taken = next(c for c in outcome.as_taken.checks if c.name == "last transaction date")
    assert taken.ok and taken.book == last


def test_a_document_that_is_another_kind_in_the_later_export_is_held(later: Later, tmp_path):
    """QuickBooks' later export gives a bill's Trans # to an invoice and the invoice's to the
    bill (as exports of two different companies, or a file renumbered, would): both are held
    changes, the book keeps its bill and invoice, and the update says so and proves the rest.
    It stopped with 'expected one Accounts Payable split, found 0' (a 500 in the wizard): the
    documents pass looked for a bill's A/P line in the book's invoice."""
    book, _june, _had = _first_book(later, tmp_path, "journal", "xml")
    first = {t.trans_no for t in later.first.transactions}
    txns = list(later.second.transactions)
    bill = next(i for i, t in enumerate(txns) if t.type == "Bill" and t.trans_no in first)
    invoice = next(i for i, t in enumerate(txns) if t.type == "Invoice" and t.trans_no in first)
    a, b = txns[bill], txns[invoice]
    txns[bill], txns[invoice] = replace(a, trans_no=b.trans_no), replace(b, trans_no=a.trans_no)
    swapped = replace(later.second, transactions=txns)
    june = _exports(swapped, tmp_path / "june-swapped", "journal")
    outcome = update_run.bring_up_to_date(june, book)
    held = {h.key: h for h in outcome.work.held}
    assert {f"ref:{a.trans_no}", f"ref:{b.trans_no}"} <= set(held)
    said = "\n".join(outcome.lines())
    assert f"Held [ref:{a.trans_no}]" in said and "the book keeps its version" in said
    snap = gnc.read_book(book, transactions=True)
    kept = {(t.date, t.num) for t in snap.transaction_list}
    assert (a.date, a.num) in kept and (b.date, b.num) in kept  # the book's own two, as they were


def test_a_fiscal_year_closed_between_runs_explains_retained_earnings(tmp_path) -> None:
    """The first export in 2019, the second in 2020: QuickBooks closed fiscal 2019 into
    Retained Earnings, which the book keeps in the income and expense accounts. The delta
    table's Retained Earnings row said only the part in changes held ("-4,314.88 of it"), not
    the year closed; now it says the year, its whole figure (the generator's truth), and
    nothing is left unexplained."""
    from tests.support.cli import convert
    from tests.support.companygen import BALANCE_SHEET
    from tests.support.companygen_later import exports

    later = later_company(300, seed=4, share=0.4)
    first, second = later.first, later.second
    assert first.exported.year == 2019 and second.export_date.year == 2020
    book = tmp_path / "first.gnucash"
    done = convert(*exports(first, tmp_path / "first"), "-o", book)
    assert done.returncode == 0, done.stdout + done.stderr
    outcome = update_run.bring_up_to_date(exports(second, tmp_path / "second"), book)
    row = next(d for d in outcome.deltas if d.account == "Retained Earnings")
    moved = second.trial_balance()["Retained Earnings"] - first.trial_balance()["Retained Earnings"]
    year = sum(
        (
            amount
            for t in second.transactions
            if t.date.year == 2019
            for account, amount, *_ in t.splits
            if second.account_type(account) not in BALANCE_SHEET
        ),
        Decimal(0),
    )
    assert row.quickbooks == moved == year and row.added == 0
    assert row.why.startswith(
        "QuickBooks closed the fiscal year 2019-01-01 to 2019-12-31 into it since the last run: "
        f"their income and expense, {year:,.2f}"
    ), row.why
    assert "not explained" not in row.why


def test_the_exports_days_run_from_their_titles_first_day() -> None:
    """Hunt 27: QuickBooks deleted the company's 12 earliest transactions and the Journal was
    exported again for all dates: its first transaction is later than the book's, but its
    title names the whole period; the update was refused as exports "that begin later", with
    no way forward. The days run from the title's first day (the 12 are deletions, held);
    without a title, the refusal names Condense Data and a new book."""
    import datetime as dt

    from app.coverage import history_span
    from app.model import FileInfo
    from app.update_refused import starts_later

    day = dt.date
    journal = FileInfo(
        "journal.csv",
        "CSV Journal",
        "journal",
        first_date=day(2019, 2, 1),
        last_date=day(2020, 12, 26),
    )
    titled = replace(journal, titled=(day(2019, 1, 1), day(2020, 12, 31)))
    assert history_span([titled]) == (day(2019, 1, 1), day(2020, 12, 31))
    assert history_span([journal]) == (day(2019, 2, 1), day(2020, 12, 26))
    book = [(day(2019, 1, 1) + dt.timedelta(days=i), f"ref:{i}") for i in range(40)]
    assert starts_later(book, [titled], "book.gnucash") is None
    said = starts_later(book, [journal], "book.gnucash")
    assert said is not None and "begin on 2019-02-01" in said and "31 of QuickBooks'" in said
    assert "Condense Data" in said and "convert the exports into a new book" in said
    assert starts_later(book[25:], [journal], "book.gnucash") is None  # a few: deletions
    assert starts_later([(day(2018, 12, 31), "opening"), *book[31:]], [journal], "b") is None

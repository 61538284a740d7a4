"""QuickBooks' transactions deleted in GnuCash since the last run (``app/update_deleted.py``):
the update keeps them out of the book and says so with their key, the proof says the book
differs by exactly them, a later run does not put them back either, and ``--take-quickbooks``
puts one back. A check QuickBooks got since with an earlier date, in the same month, is still
added: the run record's per-month digest tells the two apart. Before, the deleted check was
put back without a word and the book called matching. Through ``run.py convert --update``;
every book reopened with the bindings."""

from __future__ import annotations

import ctypes
import datetime as dt
from dataclasses import replace
from decimal import Decimal
from pathlib import Path

import pytest

from tests.support.cli import convert
from tests.support.companygen import Txn
from tests.support.companygen_later import exports, later_company
from tests.support.gnucash_edits import delete, editing

LATE = "9500"  # the check QuickBooks got since, dated in the deleted one's month


@pytest.fixture(scope="module")
def setup(tmp_path_factory):
    later = later_company(300, seed=8)
    tmp = tmp_path_factory.mktemp("deleted")
    book = tmp / "march.gnucash"
    done = convert(*exports(later.first, tmp / "march"), "-o", book)
    assert done.returncode == 0, done.stderr
    changed = {later.deleted.trans_no, later.edited[0].trans_no}
    gone = next(
        t
        for t in later.first.transactions[40:]
        if t.type == "Check" and t.trans_no not in changed and t.splits[0][1] and t.num.isdigit()
    )
    with editing(book) as b:
        assert delete(b, "Checking", gone.num) == 1
    no = max(t.trans_no for t in later.second.transactions) + 1
    amount = Decimal("123.45")
    late = Txn(no, "Check", gone.date, LATE, gone.name, "", [
        ("Checking", -amount, "", ""), ("Rent", amount, "", ""),
    ])  # fmt: skip
    second = replace(later.second, transactions=[*later.second.transactions, late])
    second.transactions.sort(key=lambda t: (t.date, t.trans_no))
    june = exports(second, tmp / "june")
    return book, june, gone, f"ref:{gone.trans_no}"


def _count(book: Path, num: str) -> int:
    with editing(book) as b:  # (saved unchanged)
        acc = b.get_root_account().lookup_by_full_name("Checking")
        return len({s.GetParent().GetGUID().to_string() for s in acc.GetSplitList()
                    if s.GetParent().GetNum() == num})  # fmt: skip


def _update(book: Path, june, *decision: str) -> str:
    done = convert("--update", book, *june, *decision)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Traceback" not in done.stderr
    return done.stdout


def test_a_check_deleted_in_gnucash_stays_deleted_and_is_said(setup, tmp_path) -> None:
    march, june, gone, key = setup
    book = tmp_path / "book.gnucash"
    book.write_bytes(march.read_bytes())
    out = _update(book, june)
    assert "Kept 1 transaction of QuickBooks deleted in GnuCash since the last run" in out
    assert f"{gone.date} {gone.num}" in out and f"[{key}]" in out
    assert "to put one back: --take-quickbooks KEY" in out
    assert (
        "it differs from QuickBooks by exactly the 2 changes held and the 1 transaction deleted "
        "in GnuCash"
    ) in out
    assert _count(book, gone.num) == 0
    assert _count(book, LATE) == 1  # QuickBooks' own later entry of that month: added
    # the next run does not put it back either (the record remembers it)
    again = _update(book, june)
    assert "Kept 1 transaction of QuickBooks deleted in GnuCash" in again
    assert _count(book, gone.num) == 0
    # nothing written: the last line still says how the book differs from QuickBooks
    assert again.rstrip().endswith(
        "is up to date: nothing added; it still differs from QuickBooks by the 2 changes held "
        "above and the 1 transaction deleted in GnuCash; 1 name QuickBooks changed is held above "
        "too (decide each held change, then update again)"
    )  # (the account QuickBooks renamed: said, though it changes no figure)


def test_taking_quickbooks_version_puts_it_back(setup, tmp_path) -> None:
    march, june, gone, key = setup
    book = tmp_path / "book.gnucash"
    book.write_bytes(march.read_bytes())
    out = _update(book, june, "--take-quickbooks", key)
    assert f"Put back (the plan): {key}" in out
    assert "deleted in GnuCash" not in out.split("Verification:")[1]
    assert "it differs from QuickBooks by exactly the 2 changes held" in out
    assert _count(book, gone.num) == 1
    # deleted in GnuCash again later: a new deletion, said again; the old decision to put it
    # back is not applied to it (a review found it put back without a word)
    with editing(book) as b:
        assert delete(b, "Checking", gone.num) == 1
    again = _update(book, june, "--take-quickbooks", key)
    assert "Kept 1 transaction of QuickBooks deleted in GnuCash since the last run" in again
    assert _count(book, gone.num) == 0


def test_a_book_without_the_digest_puts_it_back_as_before(setup, tmp_path) -> None:
    """A book whose record has no per-month digest (written before it was kept): nothing can
    tell a deletion from a late entry, so the transaction is added, as it always was."""
    from app.gnc import bindings
    from app.gnc.existing import record
    from app.gnc.slots import slots
    from app.update_record import RECORD_SLOT

    march, june, gone, _key = setup
    book = tmp_path / "book.gnucash"
    book.write_bytes(march.read_bytes())
    with editing(book) as b:
        engine = bindings.engine()
        rec = record(engine, b)
        assert rec is not None and rec.written
        slots(engine).put_long(
            int(b.get_instance()), RECORD_SLOT, replace(rec, written={}).to_text()
        )
        dirty = engine.lib.qof_book_mark_session_dirty  # (a slot alone does not mark it)
        dirty.argtypes = [ctypes.c_void_p]
        dirty(int(b.get_instance()))
    out = _update(book, june)
    assert "deleted in GnuCash since" not in out
    assert _count(book, gone.num) == 1


def test_the_wizard_asks_to_put_it_back_or_keep_it_deleted(setup, client) -> None:
    from tests.support.web import post_update, soup, token

    march, june, gone, key = setup
    r = post_update(client, march, june)
    page = soup(client.get(r.location))
    row = page.select_one(f'#held-changes li.held[data-key="{key}"]')
    assert row is not None and "deleted in GnuCash since the last run" in row.text
    assert f"{gone.date} {gone.num}" in row.text
    assert [b.text for b in row.select("button")] == ["Put it back", "Keep it deleted"]
    assert "and the 1 transaction deleted in GnuCash" in page.select_one("#update-held").text
    form = {"csrf_token": token(client), "key": key, "choice": "book"}
    after = soup(client.get(client.post(f"{r.location}/decide", data=form).location))
    assert after.select_one(f'#held-changes li.held[data-key="{key}"]') is None  # decided


def test_two_deleted_in_a_busy_month_are_still_found(tmp_path) -> None:
    """Two checks of the last run's month deleted in GnuCash, while QuickBooks got 250 more in
    that month after the last run's last day: only the transactions the book could have held
    (dated up to its last run's last day) are searched, so the two are found (with every new
    one a candidate, the search gave up and put them back without a word)."""
    import copy
    from collections import Counter

    later = later_company(300, seed=8)
    cut = later.cut
    nums = Counter(t.num for t in later.first.transactions)
    month = [
        t
        for t in later.first.transactions
        if (t.date.year, t.date.month) == (cut.year, cut.month)
        and t.type == "Check"
        and t.num.isdigit()
        and t.splits[0][1]  # (not voided: GnuCash keeps a voided one read-only)
        and nums[t.num] == 1  # (deleted by its number in the register)
        and t.trans_no not in {later.deleted.trans_no, later.edited[0].trans_no}
    ][:2]
    assert len(month) == 2
    book = tmp_path / "book.gnucash"
    assert convert(*exports(later.first, tmp_path / "march"), "-o", book).returncode == 0
    with editing(book) as b:
        for t in month:
            assert delete(b, "Checking", t.num) == 1
    txns = copy.deepcopy(later.second.transactions)
    no = max(t.trans_no for t in txns)
    after = cut + dt.timedelta(days=1)
    assert after.month == cut.month
    for n in range(250):  # QuickBooks' own, after the last run's last day, in its month
        amount = Decimal(10 + n)
        txns.append(Txn(no + 1 + n, "Check", after, str(90000 + n), "Vendor", "", [
            ("Checking", -amount, "", ""), ("Rent", amount, "", ""),
        ]))  # fmt: skip
    txns.sort(key=lambda t: (t.date, t.trans_no))
    june = exports(replace(later.second, transactions=txns), tmp_path / "june")
    out = _update(book, june)
    assert "Kept 2 transactions of QuickBooks deleted in GnuCash since the last run" in out
    assert all(_count(book, t.num) == 0 for t in month)
    assert _count(book, "90000") == 1

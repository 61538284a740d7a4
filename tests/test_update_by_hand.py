"""A change QuickBooks made since the last run that the user made in GnuCash too (a check's
amount): the update sees the book already holds QuickBooks' version and holds nothing; it
had held it for ever, listed both as "edited in QuickBooks" and "edited in GnuCash", and
the proof kept saying the book differs. The key slot is restamped, so the next run is clean.
Through ``run.py convert --update``; books reopened with the bindings."""

from __future__ import annotations

import pytest
from gnucash import GncNumeric

from tests.support.cli import convert
from tests.support.companygen_later import EDIT, exports, later_company
from tests.support.gnucash_edits import editing


def _make_the_edit(book, num: str, head: str, line: str) -> None:
    """QuickBooks' edit made by hand: ``EDIT`` less on the check's ``head`` line, more on its
    ``line`` (the first after it)."""
    acc = book.get_root_account().lookup_by_full_name(head)
    (txn,) = {s.GetParent().GetGUID().to_string(): s.GetParent() for s in acc.GetSplitList()
              if s.GetParent().GetNum() == num}.values()  # fmt: skip
    txn.BeginEdit()
    cents = int(EDIT * 100)
    for s in txn.GetSplitList():
        name = s.GetAccount().get_full_name()
        if name not in (head, line):
            continue
        v = s.GetValue()
        delta = -cents if name == head else cents
        new = GncNumeric(v.num() * 100 // v.denom() + delta, 100)
        s.SetValue(new)
        s.SetAmount(new)
    txn.CommitEdit()


@pytest.mark.parametrize("history", ["journal", "find"])  # keyed by Trans #, by fingerprint
def test_a_change_made_in_both_is_not_held(tmp_path, history: str) -> None:
    later = later_company(300, seed=8)
    book = tmp_path / "book.gnucash"
    march = exports(later.first, tmp_path / "march", history)
    assert convert(*march, "-o", book).returncode == 0
    before, _after = later.edited
    with editing(book) as b:
        _make_the_edit(b, before.num, before.splits[0][0], before.splits[1][0])
    june = exports(later.second, tmp_path / "june", history)
    key = f"ref:{before.trans_no}"
    done = convert("--update", book, *june)
    assert done.returncode == 0, done.stdout + done.stderr
    out = done.stdout
    assert f"[{key}]" not in out  # not held (by Trans #, nor by fingerprint):
    shown = f"{before.date} {before.num}"
    assert not [x for x in out.splitlines() if x.startswith("Held [") and shown in x]
    assert "Made in GnuCash too: 1 change QuickBooks made since the last run" in out
    assert f"{before.date} {before.num}" in out.split("Made in GnuCash too:")[1].splitlines()[0]
    assert "edited in GnuCash since" not in out
    assert "it differs from QuickBooks by exactly the 1 change held" in out  # (the deleted one)
    again = convert("--update", book, *june)
    assert again.returncode == 0 and "Made in GnuCash too" not in again.stdout
    assert f"[{key}]" not in again.stdout


def test_an_invoice_redated_in_quickbooks_is_decided_by_making_it_in_gnucash(
    tmp_path, client
) -> None:
    """QuickBooks redates an invoice: taking its version in the wizard is refused beside the
    change (GnuCash holds the invoice: it is changed there), with the book as it was; once the
    user redates it in GnuCash (unposted and posted again: a new transaction without the key),
    the next update knows it as QuickBooks' entered again and keys it: not held, not deleted,
    not a copy (a review found all three)."""
    import copy
    import datetime as dt
    from dataclasses import replace

    from tests.support.web import decide_held, post_update, soup

    later = later_company(300, seed=8)
    book = tmp_path / "book.gnucash"
    assert convert(*exports(later.first, tmp_path / "march"), "-o", book).returncode == 0
    invoice = next(t for t in later.first.transactions[20:] if t.type == "Invoice")
    txns = copy.deepcopy(later.second.transactions)
    moved = next(t for t in txns if t.trans_no == invoice.trans_no)
    moved.date = invoice.date + dt.timedelta(days=1)
    june = exports(replace(later.second, transactions=txns), tmp_path / "june")
    key = f"ref:{invoice.trans_no}"
    r = post_update(client, book, june)
    page = soup(client.get(r.location))
    assert page.select_one(f'li.held[data-key="{key}"]') is not None
    after = decide_held(client, r.location, key, "quickbooks")
    said = after.select_one("#decision-refused").get_text(" ")
    assert "That decision was not applied (the book is as it was)" in said
    assert "which this update cannot replace: make QuickBooks' change there (unpost it" in said
    assert after.select_one(f'li.held[data-key="{key}"]') is not None  # still to decide
    # made in GnuCash as GnuCash lets it be made: the invoice unposted, posted again on the
    # new day (a new transaction, without the key the book's had)
    from gnucash import gnucash_core_c as C
    from gnucash.gnucash_business import Invoice

    with editing(book) as b:
        acc = b.get_root_account().lookup_by_full_name("Accounts Receivable")
        (txn,) = {s.GetParent().GetGUID().to_string(): s.GetParent() for s in acc.GetSplitList()
                  if s.GetParent().GetNum() == invoice.num}.values()  # fmt: skip
        inv = Invoice(instance=C.gncInvoiceGetInvoiceFromTxn(txn.instance))
        posted_to = inv.GetPostedAcc()
        inv.Unpost(True)
        when = dt.datetime(moved.date.year, moved.date.month, moved.date.day, 10, 59)
        inv.PostToAccount(posted_to, when, when, "", True, False)
    done = convert("--update", book, *june)
    assert done.returncode == 0, done.stdout + done.stderr
    out = done.stdout
    assert f"[{key}]" not in out and "[twice:" not in out and "deleted in GnuCash" not in out
    assert "Entered again in GnuCash: 1 transaction of QuickBooks deleted there" in out
    assert "it differs from QuickBooks by exactly the 2 changes held" in out  # (the others)
    again = convert("--update", book, *june)  # keyed as QuickBooks' now: nothing more said
    assert again.returncode == 0 and "Entered again" not in again.stdout
    assert f"[{key}]" not in again.stdout

"""An earlier payment's unapplied rest that QuickBooks applies to an invoice made since the last
run (the customer's credit used on the new invoice): the update links the rest to the new
invoice, as GnuCash itself links a payment applied later, so the invoice is as open as
QuickBooks says and the owner's items age as QuickBooks' do. Before, the rest stayed in the
payment's lot and the invoice fully open: the same balance, aged differently. Through
``run.py convert --update``; the book reopened with the bindings."""

from __future__ import annotations

from dataclasses import replace
from decimal import Decimal

from app import gnc
from tests.support.cli import convert
from tests.support.companygen import Txn
from tests.support.companygen_later import exports, later_company

AMOUNT = Decimal("2000.00")
NUM = "9100"


def test_a_payments_rest_applied_to_a_new_invoice_is_linked(tmp_path) -> None:
    later = later_company(300, seed=8)
    was = later.first.open_amounts
    payment = next(  # a payment that the first export leaves partly unapplied, and the second
        t
        for t in later.first.transactions
        if t.type == "Payment" and was.get(t.trans_no, 0) > 0
        and later.second.open_amounts.get(t.trans_no) == was[t.trans_no]
    )  # fmt: skip
    rest = was[payment.trans_no]
    no = max(t.trans_no for t in later.second.transactions) + 1
    day = later.second.transactions[-1].date
    invoice = Txn(no, "Invoice", day, NUM, payment.name, "", [
        ("Accounts Receivable", AMOUNT, "", ""), ("Design Income", -AMOUNT, "Line 1", ""),
    ])  # fmt: skip
    opened = {**later.second.open_amounts, payment.trans_no: Decimal(0), no: AMOUNT - rest}
    second = replace(
        later.second, transactions=[*later.second.transactions, invoice], open_amounts=opened
    )
    book = tmp_path / "book.gnucash"
    assert convert(*exports(later.first, tmp_path / "march"), "-o", book).returncode == 0
    done = convert("--update", book, *exports(second, tmp_path / "june"))
    assert done.returncode == 0, done.stdout + done.stderr
    out = done.stdout
    assert "age differently" not in out
    assert "invoices and bills, open balances of" in out and "match QuickBooks" in out
    docs = gnc.read_book(book, documents=True).documents
    assert docs is not None
    new = next(d for d in docs.documents if d.id == NUM)
    assert (new.total, new.open) == (AMOUNT, AMOUNT - rest)  # the rest applied to it
    # nothing left open in the payment's own lot (its date, no due date: not a document's)
    mine = [x for x in docs.open_lots if x.owner == payment.name and x.due is None]
    assert not [x for x in mine if x.date == payment.date and x.open == -rest], mine


def test_a_new_credit_is_linked_to_what_the_book_still_has_open(tmp_path) -> None:
    """June's exports hold a new bill credit that QuickBooks applied to a vendor's bill, the
    allocation (worked out on the whole history) to another bill of that vendor, which March's
    book had paid already. Linked there, that bill was overpaid and the other left open, the
    vendor's balance right, and the book called up to date (hunt 10). Fitted to what the book
    has open, every document is as open as a conversion of June's exports from scratch makes
    it, and QuickBooks' Unpaid Bills report says; the next update adds nothing."""
    later = later_company(300, seed=9, items=True)
    book, fresh = tmp_path / "book.gnucash", tmp_path / "fresh.gnucash"
    assert convert(*exports(later.first, tmp_path / "march"), "-o", book).returncode == 0
    june = exports(later.second, tmp_path / "june")
    assert convert(*june, "-o", fresh).returncode == 0
    take = ("account:6800", f"ref:{later.edited[1].trans_no}", f"ref:{later.deleted.trans_no}")
    done = convert(*june, "--update", book, *(x for k in take for x in ("--take-quickbooks", k)))
    out = done.stdout + done.stderr
    assert done.returncode == 0, out
    assert out.splitlines()[-1] == f"Book brought up to date: {book}", out
    docs, meant = (gnc.read_book(b, documents=True).documents for b in (book, fresh))
    assert docs is not None and meant is not None
    opened = {(d.kind, d.owner, d.id): d.open for d in docs.documents}
    assert opened == {(d.kind, d.owner, d.id): d.open for d in meant.documents}
    assert min(opened.values()) >= 0  # (no document overpaid)
    truth = later.second.open_amounts
    bills = [t for t in later.second.transactions if t.type == "Bill"]
    assert all(opened["bill", t.name, t.num] == truth.get(t.trans_no, 0) for t in bills)
    again = convert(*june, "--update", book, "--strict")
    assert again.returncode == 0 and "0 transactions added" in again.stdout, again.stdout

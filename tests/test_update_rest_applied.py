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

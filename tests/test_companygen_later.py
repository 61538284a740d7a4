"""The generator's "same company exported twice" (``tests/support/companygen_later.py``): the two
exports agree on every earlier transaction but the edited and the deleted one, and each export's
truth (trial balance, open amounts) is what QuickBooks would report on its day."""

from __future__ import annotations

from dataclasses import replace
from decimal import Decimal

from tests.support.companygen_docs import open_items
from tests.support.companygen_later import EDIT, RENAMED, later_company

ZERO = Decimal(0)


def test_the_later_export_holds_the_first_and_what_came_after() -> None:
    later = later_company(400, seed=5)
    first, second = later.first, later.second
    assert first.export_date == later.cut
    assert all(t.date <= later.cut for t in first.transactions)
    assert second.export_date > later.cut
    by_no = {t.trans_no: t for t in second.transactions}
    before, after = later.edited
    for t in first.transactions:
        if t.trans_no == later.deleted.trans_no:
            assert t.trans_no not in by_no
        elif t.trans_no == before.trans_no:
            assert by_no[t.trans_no].splits[0][1] == t.splits[0][1] - EDIT
        else:  # the same transaction: documents worked out alike on the shorter history
            named = [(RENAMED[1] if a == RENAMED[0] else a, *rest) for a, *rest in t.splits]
            assert by_no[t.trans_no] == replace(t, splits=named), t.trans_no
    assert after.trans_no == before.trans_no
    assert min(t.date for t in later.added) > later.cut
    assert later.new_customer in second.customers and later.new_customer not in first.customers
    hired = [e for e, _ssn in second.employees if e not in {e for e, _ in first.employees}]
    assert hired == [later.new_employee]
    assert later.new_account in {a[0] for a in second.accounts}
    assert later.new_account not in {a[0] for a in first.accounts}
    numbers = {a[0]: a[2] for a in first.accounts}, {a[0]: a[2] for a in second.accounts}
    assert numbers[0][RENAMED[0]] == numbers[1][RENAMED[1]] and RENAMED[0] not in numbers[1]
    assert any(a == RENAMED[0] for t in first.transactions for a, *_ in t.splits)
    assert len(later.paid_later) >= 3  # invoices and bills open at the cut, paid since


def test_each_exports_open_amounts_are_its_receivables_and_payables() -> None:
    """What each export says is open per owner adds up to its A/R and A/P balance on its day."""
    later = later_company(400, seed=5)
    for company in (later.first, later.second):
        tb = company.trial_balance()
        owed = {"customer": ZERO, "vendor": ZERO}
        for side, _owner, _t, signed in open_items(company):
            owed[side] += signed
        assert owed["customer"] == tb["Accounts Receivable"]
        assert owed["vendor"] == -tb["Accounts Payable"]
    assert all(later.first.open_amounts[n] > 0 for n in later.paid_later)
    assert all(later.second.open_amounts[n] == 0 for n in later.paid_later)


def test_with_classes_the_first_exports_lines_keep_their_classes() -> None:
    later = later_company(300, seed=5, classes=True)
    by_no = {t.trans_no: t for t in later.second.transactions}
    same = [t for t in later.first.transactions if t.trans_no in by_no]
    assert any(t.classes for t in same)
    edited = later.edited[0].trans_no
    assert all(by_no[t.trans_no].classes == t.classes for t in same if t.trans_no != edited)

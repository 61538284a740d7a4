"""validate.check: one test per rule, on ledgers built by hand."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal as D

import pytest

from app.model import Account, AccountType, Ledger, Source, Split, Transaction
from app.validate import check, compatible, line_list

T = AccountType
DAY = dt.date(2024, 3, 1)


def acc(name: str, type_: AccountType | None = T.EXPENSE, line: int = 1, **kw) -> Account:
    return Account(name, type_, Source("chart.iif", line), **kw)


def txn(*splits: tuple[str, str], line: int = 10) -> Transaction:
    return Transaction(
        DAY,
        tuple(Split(a, D(v), Source("j.csv", line + i)) for i, (a, v) in enumerate(splits)),
        Source("j.csv", line),
    )


BASE = (acc("Checking", T.BANK), acc("Rent"))


def messages(ledger: Ledger) -> list[str]:
    return [str(p) for p in check(ledger)]


def test_clean_ledger_has_no_problems():
    assert (
        check(Ledger(accounts=BASE, transactions=(txn(("Rent", "5"), ("Checking", "-5")),))) == []
    )


def test_unbalanced_transaction_is_reported_with_its_lines_not_plugged():
    ledger = Ledger(
        accounts=BASE,
        transactions=(txn(("Rent", "100.00"), ("Checking", "-60"), ("Checking", "-30"), line=12),),
    )
    assert messages(ledger) == [
        "j.csv:12: transaction does not balance: debits 100.00, credits 90.00 "
        "(difference 10.00); lines 12-14"
    ]


def test_one_cent_off_is_unbalanced():
    ledger = Ledger(accounts=BASE, transactions=(txn(("Rent", "0.01"), ("Checking", "0")),))
    assert "difference 0.01" in messages(ledger)[0]


def test_split_on_unknown_account_grouped_per_account():
    ledger = Ledger(
        accounts=BASE,
        transactions=(
            txn(("Rent", "1"), ("Nowhere", "-1"), line=10),
            txn(("Rent", "1"), ("Nowhere", "-1"), line=20),
        ),
    )
    assert messages(ledger) == ["j.csv:11: account 'Nowhere' does not exist (lines 11, 21)"]
    assert check(ledger, reported={"Nowhere"}) == []


def test_split_on_placeholder():
    accounts = (acc("Assets", T.ASSET, placeholder=True), acc("Assets:Bank", T.BANK), acc("Rent"))
    ledger = Ledger(accounts=accounts, transactions=(txn(("Rent", "1"), ("Assets", "-1")),))
    assert messages(ledger) == [
        "j.csv:11: account 'Assets' is a placeholder and cannot take postings (line 11); "
        "move them to another account"
    ]


def test_account_without_type_asks_for_one():
    ledger = Ledger(accounts=(acc("Odd", None, kind_label="OLIAB"),))
    assert messages(ledger) == [
        "chart.iif:1: choose a GnuCash type for account 'Odd' (QuickBooks type 'OLIAB')"
    ]


def test_family_mismatch_between_parent_and_child():
    ledger = Ledger(accounts=(acc("Car", T.EXPENSE), acc("Car:Loan", T.LIABILITY, line=2)))
    assert messages(ledger) == [
        "chart.iif:2: account 'Car:Loan' of type LIABILITY cannot sit under 'Car' of type "
        "EXPENSE in GnuCash; move it or change a type"
    ]


def test_asset_under_liability_is_allowed_like_gnucash():
    ledger = Ledger(accounts=(acc("Loans", T.LIABILITY), acc("Loans:Escrow", T.ASSET)))
    assert check(ledger) == []


def test_compatibility_table_matches_the_gnucash_engine():
    c = pytest.importorskip("gnucash").gnucash_core_c
    for parent in AccountType:
        for child in AccountType:
            engine = bool(
                c.xaccAccountTypesCompatible(
                    getattr(c, f"ACCT_TYPE_{parent.value}"), getattr(c, f"ACCT_TYPE_{child.value}")
                )
            )
            assert compatible(parent, child) == engine, (parent, child)


def test_duplicate_full_names():
    ledger = Ledger(accounts=(acc("Rent"), acc("Rent", line=7)))
    assert messages(ledger) == [
        "chart.iif:7: two accounts would be named 'Rent' (the other from chart.iif:1); "
        "rename or merge one of them"
    ]


@pytest.mark.parametrize("name", ["A::B", ":B", "A: "])
def test_empty_name_level(name):
    ledger = Ledger(accounts=(acc("A"), acc(name, line=3)))
    assert f"chart.iif:3: account {name!r} has an empty name level" in messages(ledger)


def test_missing_parent():
    assert messages(Ledger(accounts=(acc("A:B"),))) == [
        "chart.iif:1: account 'A:B' has no parent 'A'"
    ]


def test_transaction_without_splits():
    ledger = Ledger(accounts=BASE, transactions=(Transaction(DAY, (), Source("j.csv", 4)),))
    assert messages(ledger) == ["j.csv:4: transaction has no lines"]


def test_line_list_forms():
    s = [Source("a.csv", n) for n in (3, 9, 4, 20, 30, 40, 50)]
    assert line_list(s[:1]) == "line 3"
    assert line_list(s) == "lines 3, 4, 9, 20, 30 and 2 more"
    assert line_list([Source("a.csv", 1), Source("b.csv", 2)]) == "lines a.csv:1, b.csv:2"

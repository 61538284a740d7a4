"""validate.check: one test per rule, on ledgers built by hand."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal as D

import pytest

from app.gnc import bindings
from app.model import Account, AccountType, Ledger, Split, Transaction
from app.source import Source, line_list
from app.validate import check, compatible

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
    assert messages(ledger) == ["j.csv:11: account “Nowhere” does not exist (lines 11, 21)"]
    assert check(ledger, reported={"Nowhere"}) == []


def test_split_on_placeholder():
    accounts = (acc("Assets", T.ASSET, placeholder=True), acc("Assets:Bank", T.BANK), acc("Rent"))
    ledger = Ledger(accounts=accounts, transactions=(txn(("Rent", "1"), ("Assets", "-1")),))
    assert messages(ledger) == [
        "j.csv:11: account “Assets” is a placeholder and cannot take postings (line 11); "
        "move them to another account"
    ]


def test_account_without_type_asks_for_one():
    ledger = Ledger(accounts=(acc("Odd", None, kind_label="OLIAB"),))
    assert messages(ledger) == [
        "chart.iif:1: choose a GnuCash type for account “Odd” (QuickBooks type “OLIAB”)"
    ]


def test_family_mismatch_between_parent_and_child():
    ledger = Ledger(accounts=(acc("Car", T.EXPENSE), acc("Car:Loan", T.LIABILITY, line=2)))
    assert messages(ledger) == [
        "chart.iif:2: account “Car:Loan” (a Liability account) cannot sit under “Car” (an "
        "Expense account) in GnuCash: a subaccount is of its parent's kind; move it, or change "
        "a type"
    ]


def test_asset_under_liability_is_allowed_like_gnucash():
    ledger = Ledger(accounts=(acc("Loans", T.LIABILITY), acc("Loans:Escrow", T.ASSET)))
    assert check(ledger) == []


def test_compatibility_table_matches_the_gnucash_engine():
    c = bindings.C  # the engine's raw functions, as app.gnc takes them
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
        "chart.iif:7: two accounts would be named “Rent” (the other from chart.iif:1); "
        "rename or merge one of them"
    ]


@pytest.mark.parametrize("name", ["A::B", ":B", "A: "])
def test_empty_name_level(name):
    ledger = Ledger(accounts=(acc("A"), acc(name, line=3)))
    assert f"chart.iif:3: account “{name}” has an empty name level" in messages(ledger)


def test_missing_parent():
    assert messages(Ledger(accounts=(acc("A:B"),))) == [
        "chart.iif:1: account “A:B” has no parent “A”"
    ]


def test_transaction_without_splits():
    ledger = Ledger(accounts=BASE, transactions=(Transaction(DAY, (), Source("j.csv", 4)),))
    assert messages(ledger) == ["j.csv:4: transaction has no lines"]


def test_line_list_forms():
    s = [Source("a.csv", n) for n in (3, 9, 4, 20, 30, 40, 50)]
    assert line_list(s[:1]) == "line 3"
    assert line_list(s) == "lines 3, 4, 9, 20, 30 and 2 more"
    assert line_list([Source("a.csv", 1), Source("b.csv", 2)]) == "lines a.csv:1, b.csv:2"


def test_currency_units_match_the_gnucash_engine():
    from app.gnc import bindings
    from app.validate import NOT_DECIMAL, places

    bindings.engine()
    session = bindings.Session()  # in memory
    try:
        currencies = session.book.get_table().get_commodities("CURRENCY")
        units = {c.get_mnemonic(): c.get_fraction() for c in currencies}
    finally:
        session.end()
    assert len(units) > 150
    for code, fraction in units.items():
        n = places(code)
        assert (NOT_DECIMAL[code] if n is None else 10**n) == fraction, code


def test_a_placeholder_is_said_even_when_its_name_is_an_unresolved_label():
    """``reported`` spares a label resolve already named from "does not exist" only: a
    placeholder that takes postings is said whatever else is said about the name."""
    src = Source("t.iif", 4)
    ledger = Ledger(
        accounts=(
            Account("Expenses", AccountType.EXPENSE, src, placeholder=True),
            Account("Checking", AccountType.BANK, src),
        ),
        transactions=(
            Transaction(
                dt.date(2024, 1, 2),
                (Split("Expenses", D("5.00"), src), Split("Checking", D("-5.00"), src)),
                src,
            ),
        ),
    )
    (p,) = check(ledger, reported={"Expenses"})
    assert "“Expenses” is a placeholder and cannot take postings" in p.message


def test_an_amount_too_fine_to_take_a_remainder_of_is_still_finer_than_a_cent():
    """A remainder smaller than the decimal context holds underflows to zero: the fast check
    takes that as 'not whole' and the slow one finds the line."""
    tiny = D("0." + "0" * 1_000_100 + "1")
    src = Source("t.iif", 2)
    ledger = Ledger(
        transactions=(
            Transaction(
                dt.date(2024, 1, 2),
                (Split("A", tiny, src), Split("B", -tiny, src)),
                src,
            ),
        ),
    )
    assert [p.message[:34] for p in check(ledger, reported={"A", "B"})] == [
        "amounts finer than the book curren"
    ]


def test_an_unknown_currency_is_an_error_with_its_fix():
    (p,) = check(Ledger(), currency="XYZ")[-1:]
    assert p.severity == "error" and p.fix == "currency" and p.source is None
    assert (
        p.message == "unknown currency “XYZ”: GnuCash keeps books in ISO codes like USD, EUR or CAD"
    )


def test_amounts_must_fit_the_currency_unit():
    ledger = Ledger(accounts=BASE, transactions=(txn(("Rent", "5.5"), ("Checking", "-5.5")),))
    assert check(ledger, currency="USD") == []
    assert messages_in(ledger, "JPY") == [
        "j.csv:10: amounts finer than the book currency's smallest unit (JPY: no decimal "
        "places) at lines 10-11; correct them in the file or choose another book currency"
    ]
    assert check(ledger, currency="KWD") == []


def test_amounts_must_fit_gnucash_s_64_bit_count():
    big = "9223372036854.775808"  # one millionth more than XAU holds
    ledger = Ledger(accounts=BASE, transactions=(txn(("Rent", big), ("Checking", f"-{big}")),))
    largest = "9223372036854.775807"
    fits = Ledger(
        accounts=BASE, transactions=(txn(("Rent", largest), ("Checking", f"-{largest}")),)
    )
    assert check(fits, currency="XAU") == []
    assert messages_in(ledger, "XAU") == [
        "j.csv:10: amounts larger than the book currency can hold (XAU: at most "
        "9,223,372,036,854.775807) at lines 10-11; correct them in the file"
    ]


def test_terms_of_an_unknown_kind():
    from app.business import BillTerm

    ledger = Ledger(terms=(BillTerm("Odd", Source("l.iif", 3), kind="weekly"),))
    assert messages(ledger) == ["l.iif:3: terms “Odd” are of unknown kind “weekly”"]


def messages_in(ledger: Ledger, currency: str) -> list[str]:
    return [str(p) for p in check(ledger, currency=currency)]

"""The company generator: balanced, deterministic, QuickBooks-consistent balances."""

from __future__ import annotations

import csv
import datetime as dt
from decimal import Decimal

from tests.support.companygen import BALANCE_SHEET, make_company


def test_every_transaction_balances_with_two_to_five_splits() -> None:
    company = make_company(2000, seed=7)
    assert len(company.transactions) == 2000
    for t in company.transactions:
        assert 2 <= len(t.splits) <= 5, t
        assert sum(s[1] for s in t.splits) == 0, t
        assert all(isinstance(s[1], Decimal) for s in t.splits)
    kinds = {t.type for t in company.transactions}
    assert {"Invoice", "Payment", "Bill", "Bill Pmt -Check", "Check", "Deposit"} <= kinds
    assert any(t.memo.startswith("VOID") for t in company.transactions)
    assert any(s[1] == 0 for t in company.transactions for s in t.splits)
    assert any(abs(s[1]) >= 1000 for t in company.transactions for s in t.splits)
    dates = [t.date for t in company.transactions]
    assert dates == sorted(dates)


def test_trial_balance_sums_to_zero_and_folds_earlier_years() -> None:
    company = make_company(1500, seed=3, fiscal_year_start=(7, 1))
    tb = company.trial_balance()
    assert sum(tb.values()) == 0
    assert sum(company.expected_balances().values()) == 0
    types = {a[0]: a[1] for a in company.accounts}
    balances = company.expected_balances()
    for name, value in tb.items():
        if types[name] in BALANCE_SHEET and name != "Retained Earnings":
            assert value == balances[name], name
    begin = company.fiscal_year_begin()
    assert begin == dt.date(company.export_date.year - (company.export_date.month < 7), 7, 1)
    this_year = sum(
        s[1] for t in company.transactions if t.date >= begin for s in t.splits if s[0] == "Rent"
    )
    assert tb["Rent"] == this_year


def test_same_seed_same_company_other_seed_other_company() -> None:
    a, b, c = make_company(300, seed=5), make_company(300, seed=5), make_company(300, seed=6)
    assert a.transactions == b.transactions
    assert a.transactions != c.transactions


def test_history_from_cuts_the_exports_not_the_balances(tmp_path) -> None:
    cut = dt.date(2020, 1, 1)
    company = make_company(400, seed=2, history_from=cut)
    assert all(t.date >= cut for t in company.history)
    assert len(company.history) < len(company.transactions)
    paths = company.write_all(tmp_path)
    with paths["find"].open(encoding="utf-8", newline="") as fh:
        rows = list(csv.reader(fh))
    assert len(rows) - 1 == sum(len(t.splits) for t in company.history)
    assert company.history_balances() != company.expected_balances()


def test_exports_are_written_and_ssn_only_in_lists(tmp_path) -> None:
    company = make_company(200, seed=1)
    paths = company.write_all(tmp_path, date_order="dmy", encoding="cp1252")
    assert set(paths) == {
        "lists",
        "find",
        "journal",
        "transaction_detail",
        "general_ledger",
        "transactions_iif",
        "trial_balance",
    }
    assert "900-12-3456" in paths["lists"].read_text(encoding="utf-8")
    detail = paths["transaction_detail"].read_bytes()
    assert b"\xb7" in detail  # the middle dot in cp1252
    for name, path in paths.items():
        if name != "lists":
            assert b"900-12-3456" not in path.read_bytes()
    # the Find export's running balance returns to 0.00 at each transaction's end
    with paths["find"].open(encoding="cp1252", newline="") as fh:
        rows = list(csv.reader(fh))
    ends = sum(1 for r in rows[1:] if r[-1] == "0.00")
    assert ends >= len(company.history)


def test_committed_golden_inputs_are_what_the_generator_writes(tmp_path) -> None:
    """tests/data/csv/gen_* were written by this generator: same seed, same bytes."""
    from pathlib import Path

    data = Path(__file__).parent / "data" / "csv"
    company = make_company(14, seed=11, years=1)
    written = {
        "gen_find.csv": company.write_find_csv(tmp_path / "a"),
        "gen_journal.csv": company.write_journal_csv(tmp_path / "b"),
        "gen_transaction_detail.csv": company.write_transaction_detail_csv(tmp_path / "c"),
        "gen_general_ledger.csv": company.write_general_ledger_csv(tmp_path / "d"),
        "gen_transaction_detail_dmy_cp1252.csv": company.write_transaction_detail_csv(
            tmp_path / "e", date_order="dmy", encoding="cp1252"
        ),
    }
    for name, path in written.items():
        assert path.read_bytes() == (data / name).read_bytes(), name


def test_the_command_line_writes_a_company_with_its_open_items_reports(tmp_path) -> None:
    """``python -m tests.support.companygen --documents``: the open-items reports beside the
    exports, listing the open invoices and bills (without them, and without documents, the
    wizard's aging had nothing of QuickBooks' to compare: hunt 23); read without a problem."""
    import subprocess
    import sys

    from app import readers
    from app.model import ReadOptions
    from tests.paths import ROOT

    out = tmp_path / "company"
    args = ["--transactions", "300", "--seed", "7", "--documents", "--out", str(out)]
    subprocess.run([sys.executable, "-m", "tests.support.companygen", *args], cwd=ROOT, check=True)
    for name, kind in (("open_invoices.csv", "customer"), ("unpaid_bills.csv", "vendor")):
        ledger = readers.read_one(out / name, ReadOptions())
        assert not ledger.problems, ledger.problems
        assert ledger.open_items and {i.owner_kind for i in ledger.open_items} == {kind}

"""QuickBooks' budgets brought up to date by ``run.py convert --update`` (docs/UPDATE.md,
"Budgets"): a generated company with budgets converted without its last fiscal year's budgets,
then QuickBooks' later exports with them and with one amount of an earlier budget changed. The
book reopened through the engine is compared with the generator's truth."""

from __future__ import annotations

import dataclasses
from decimal import Decimal as D
from pathlib import Path

import pytest

from app import gnc
from app.extras import budget_name
from app.words import plural
from tests.support.cli import convert
from tests.support.companygen import Company, make_company


@pytest.fixture(scope="module")
def company() -> Company:
    return make_company(300, seed=5, years=2, budgets=True)


def _later(company: Company) -> Company:
    """QuickBooks since: one amount of the first Rent budget raised by 100.00."""
    budgets = list(company.budgets)
    at = next(i for i, b in enumerate(budgets) if b.account == "Rent" and any(b.amounts))
    amounts = list(budgets[at].amounts)
    month = next(m for m, v in enumerate(amounts) if v)
    amounts[month] += D("100.00")
    budgets[at] = dataclasses.replace(budgets[at], amounts=tuple(amounts))
    return dataclasses.replace(company, budgets=budgets)


def _written(company: Company, folder: Path, form: str = "xml") -> tuple[Path, Company]:
    """The book of the company without the last fiscal year's budgets and its last five
    transactions, and the exports of QuickBooks since (every budget, one changed)."""
    latest = max(b.start for b in company.budgets)
    first = dataclasses.replace(
        company,
        transactions=company.transactions[:-5],
        budgets=[b for b in company.budgets if b.start != latest],
    )
    (folder / "march").mkdir(parents=True)
    files = (
        first.write_lists_iif(folder / "march" / "lists.iif"),
        first.write_transaction_detail_csv(folder / "march" / "td.csv"),
    )
    book = folder / "book.gnucash"
    out = convert(*files, "-o", book, "--format", form)
    assert out.returncode == 0, out.stdout + out.stderr
    return book, _later(company)


def _exports(company: Company, folder: Path) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    return [
        company.write_lists_iif(folder / "lists.iif"),
        company.write_transaction_detail_csv(folder / "td.csv"),
    ]


def _as_truth(book: Path, company: Company) -> None:
    found = {b.name: dict(b.values) for b in gnc.read_book(book).budgets}
    names = {budget_name(b.start, b.klass, b.customer) for b in company.budgets}
    assert set(found) == names
    for b in company.budgets:
        got = found[budget_name(b.start, b.klass, b.customer)].get(b.account, (D(0),) * 12)
        assert got == b.amounts, (b.start, b.account)


@pytest.mark.parametrize("form", ["xml", "sqlite"])
def test_budgets_added_and_changed_in_quickbooks_are_brought_up_to_date(
    tmp_path: Path, company: Company, form: str
) -> None:
    book, later = _written(company, tmp_path, form)
    june = _exports(later, tmp_path / "june")
    run = convert(*june, "--update", book)
    assert run.returncode == 0, run.stdout + run.stderr
    latest = max(b.start for b in company.budgets)
    added = sorted(
        {budget_name(b.start, b.klass, b.customer) for b in later.budgets if b.start == latest}
    )
    said = [line for line in run.stdout.splitlines() if line.startswith("QuickBooks' budgets:")]
    assert said == [
        f"QuickBooks' budgets: {plural(len(added), 'budget')} added and 1 budget brought up to "
        f"date ({', '.join(added)}, Budget FY{company.budgets[0].start.year})"
    ], run.stdout
    assert "they match QuickBooks' to the cent" in run.stdout
    _as_truth(book, later)
    again = convert(*june, "--update", book)  # nothing new: the budgets too
    assert "QuickBooks' budgets" not in again.stdout and "Nothing new" in again.stdout
    assert "The book was not changed" in again.stdout


def test_a_budget_changed_in_gnucash_is_kept_and_said(tmp_path: Path, company: Company) -> None:
    """The budget QuickBooks changed was changed in GnuCash too: the book keeps its own, says
    so, and its proof says the budget differs from QuickBooks with that cause; the new budgets
    are added all the same."""
    from tests.support.gnucash_edits import editing, set_budget

    book, later = _written(company, tmp_path)
    first = next(b for b in company.budgets if b.account == "Rent" and any(b.amounts))
    name = budget_name(first.start, first.klass, first.customer)
    with editing(book) as edited:
        set_budget(edited, name, "Rent", 11, 12345)
    run = convert(*_exports(later, tmp_path / "june"), "--update", book)
    out = run.stdout
    assert f"QuickBooks' {name} differs from the book's, which was changed in GnuCash" in out
    assert "QuickBooks' budgets: 1 budget added (" in out and "budget brought up" not in out
    assert (
        f"{name}: Rent, December" in out
        and "DIFFERS. Probable cause: the book keeps its own" in out
    )
    back = {b.name: dict(b.values) for b in gnc.read_book(book).budgets}
    assert back[name]["Rent"][11] == D("123.45")
    assert back[name]["Rent"][:11] == first.amounts[:11]  # the book's own, not QuickBooks' change


def test_memorized_transactions_in_the_exports_are_said_not_brought_up_to_date(
    tmp_path: Path,
) -> None:
    """The exports hold QuickBooks' memorized transaction list: an update does not bring the
    book's scheduled transactions up to date, and says so (it said nothing)."""
    company = make_company(200, seed=6, years=2, memorized=True)
    first = dataclasses.replace(company, transactions=company.transactions[:-3])
    (tmp_path / "march").mkdir()
    files = (
        first.write_lists_iif(tmp_path / "march" / "lists.iif"),
        first.write_transaction_detail_csv(tmp_path / "march" / "td.csv"),
        first.write_memorized_csv(tmp_path / "march" / "memorized.csv"),
    )
    book = tmp_path / "book.gnucash"
    assert convert(*files, "-o", book).returncode == 0
    june = [*_exports(company, tmp_path / "june"), tmp_path / "june" / "memorized.csv"]
    company.write_memorized_csv(june[-1])
    run = convert(*june, "--update", book)
    assert run.returncode == 0, run.stdout + run.stderr
    said = [line for line in run.stdout.splitlines() if line.startswith("Memorized transactions: ")]
    assert len(said) == 1 and said[0].endswith(
        " in the exports; an update does not bring scheduled transactions up to date (the book "
        "keeps those its conversion made)"
    ), run.stdout

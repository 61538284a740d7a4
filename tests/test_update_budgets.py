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
from tests.support.exports_edit import renamed_class


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


def _changed_in_both(company: Company, folder: Path):
    """The book, with December's Rent of the first Rent budget changed in GnuCash to 123.45,
    QuickBooks' company since (another month changed), that budget's truth and name, and the
    later exports."""
    from tests.support.gnucash_edits import editing, set_budget

    book, later = _written(company, folder)
    first = next(b for b in company.budgets if b.account == "Rent" and any(b.amounts))
    name = budget_name(first.start, first.klass, first.customer)
    with editing(book) as edited:
        set_budget(edited, name, "Rent", 11, 12345)
    return book, later, first, name, _exports(later, folder / "june")


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


def test_a_budget_changed_in_gnucash_is_held_kept_or_taken(
    tmp_path: Path, company: Company
) -> None:
    """The budget QuickBooks changed was changed in GnuCash too: held (``budget:NAME``, a key
    with spaces), the book keeps its own, the proof says where it differs with that cause, and
    the new budgets are added all the same; with nothing else new, never "Nothing new" or
    matching. Taken, it is QuickBooks' (the generator's truth)."""
    book, later, first, name, june = _changed_in_both(company, tmp_path)
    run = convert(*june, "--update", book)
    out = run.stdout
    assert (
        f"Held [budget:{name}]: lists.iif:{first_row(june[0], first)}: QuickBooks' {name} differs "
        "from the book's (changed in GnuCash since the last run): the book keeps its own"
    ) in out.splitlines(), out
    assert "QuickBooks' budgets: 1 budget added (" in out and "budget brought up" not in out
    assert f"{name}: Rent, December" in out
    assert "DIFFERS. Probable cause: changed in GnuCash since the last run: the book keeps" in out
    back = {b.name: dict(b.values) for b in gnc.read_book(book).budgets}
    assert back[name]["Rent"][11] == D("123.45")
    assert back[name]["Rent"][:11] == first.amounts[:11]  # the book's own, not QuickBooks' change
    again = convert(*june, "--update", book, "--strict")  # nothing else new: still differs
    assert again.returncode == 3, again.stdout + again.stderr
    assert "Nothing new" not in again.stdout
    assert (
        "it still differs from QuickBooks by the 1 budget the book keeps as its own" in again.stdout
    )
    taken = convert(*june, "--update", book, "--take-quickbooks", f"budget:{name}")
    assert taken.returncode == 0, taken.stdout + taken.stderr
    assert f"Taken from QuickBooks (the plan): {name}" in taken.stdout
    _as_truth(book, later)


def first_row(lists: Path, b) -> int:
    """The line of the budget's first BUD row in the lists export."""
    lines = lists.read_text(encoding="utf-8").splitlines()
    year = str(b.start)
    return next(n for n, line in enumerate(lines, 1) if line.startswith("BUD\t") and year in line)


def test_a_budget_renamed_in_gnucash_is_not_added_again(tmp_path: Path, company: Company) -> None:
    """The record has the budget, the book no longer has its name (renamed in GnuCash): held
    as such, not added a second time."""
    book, later = _written(company, tmp_path)
    first = company.budgets[0]
    name = budget_name(first.start, first.klass, first.customer)
    from tests.support.gnucash_edits import editing, rename_budget

    with editing(book) as edited:
        rename_budget(edited, name, "Plan 2019")
    run = convert(*_exports(later, tmp_path / "june"), "--update", book)
    assert f"Held [budget:{name}]: " in run.stdout, run.stdout
    assert "is not in the book (renamed or deleted in GnuCash since the last run)" in run.stdout
    names = sorted(b.name for b in gnc.read_book(book).budgets)
    assert "Plan 2019" in names and name not in names


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


@pytest.mark.parametrize("decision", ["", "book", "quickbooks"])
def test_a_class_budget_follows_its_class_renamed_in_quickbooks(tmp_path: Path, decision) -> None:
    """Design renamed Creative in QuickBooks, its budget's CLASS too: the book's budget for the
    class is the one compared (no second budget for Creative), and taking the class's new name
    renames the budget with it."""
    company = make_company(300, seed=4, years=2, budgets=True, classes=True)
    book = tmp_path / "book.gnucash"
    assert convert(*_exports(company, tmp_path / "march"), "-o", book).returncode == 0
    june = _exports(company, tmp_path / "june")
    renamed_class(june, "Design", "Creative")
    assert "\tCreative\t" in next(
        x for x in june[0].read_text().splitlines() if "BUD\t" in x and "Creative" in x
    )
    choice = {"book": ["--keep-book"], "quickbooks": ["--take-quickbooks"]}.get(decision, [])
    run = convert(*june, "--update", book, *choice, *(["class:Design"] if choice else []))
    assert run.returncode == 0, run.stdout + run.stderr
    assert "QuickBooks' budgets" not in run.stdout  # nothing added, nothing changed
    names = sorted(b.name for b in gnc.read_book(book).budgets)
    wanted = "Creative" if decision == "quickbooks" else "Design"
    assert names == sorted(
        budget_name(b.start, b.klass.replace("Design", wanted), b.customer)
        for b in {(x.start, x.klass, x.customer): x for x in company.budgets}.values()
    )
    if decision:  # (the decision kept in the book: written, proven, the budgets read back)
        assert "they match QuickBooks' to the cent" in run.stdout
    else:
        assert "The book was not changed" in run.stdout


def test_the_wizard_holds_a_budget_changed_in_gnucash_and_takes_it(
    client, tmp_path: Path, company: Company
) -> None:
    """The update page: the budget changed in both is one held change with its two buttons;
    "Take QuickBooks' budget" gives the downloaded book QuickBooks' budgets (the truth)."""
    from tests.support.web import decide_held, post_update, soup

    book, later, _first, name, june = _changed_in_both(company, tmp_path)
    r = post_update(client, book, june)
    assert r.status_code == 303, r.get_data(as_text=True)
    held = soup(client.get(r.location)).select_one(f'li.held[data-key="budget:{name}"]')
    assert f"QuickBooks' {name} differs from the book's" in held.get_text(" ")
    buttons = [b.get_text(" ").strip() for b in held.select("button")]
    assert buttons == ["Take QuickBooks' budget", "Keep the book's"], buttons
    after = decide_held(client, r.location, f"budget:{name}", "quickbooks")
    assert f"Taken from QuickBooks (your decision): {name}" in after.select_one(
        "#update-summary"
    ).get_text(" ")
    out = tmp_path / "downloaded.gnucash"
    with client.get(after.select_one("#download-updated")["href"]) as got:
        assert got.status_code == 200
        out.write_bytes(got.data)
    _as_truth(out, later)


def test_a_stored_take_does_not_undo_a_later_gnucash_change(tmp_path: Path, company: Company):
    """QuickBooks' budget taken once (the decision stored in the book), then changed in GnuCash
    alone: the next update holds it again rather than taking QuickBooks' silently (hunt 9)."""
    from tests.support.gnucash_edits import editing, set_budget

    book, _later, _first, name, june = _changed_in_both(company, tmp_path)
    taken = convert(*june, "--update", book, "--take-quickbooks", f"budget:{name}")
    assert f"Taken from QuickBooks (the plan): {name}" in taken.stdout, taken.stdout
    with editing(book) as edited:
        set_budget(edited, name, "Rent", 5, 999)
    run = convert(*june, "--update", book)
    assert f"Held [budget:{name}]: " in run.stdout and "Taken from" not in run.stdout, run.stdout
    back = {b.name: dict(b.values) for b in gnc.read_book(book).budgets}
    assert back[name]["Rent"][5] == D("9.99")  # GnuCash's change stays


def test_a_class_taken_renames_its_budget_when_the_exports_hold_none(tmp_path: Path) -> None:
    """The class's QuickBooks name taken with lists exported without budgets: the book's
    budget for the class is renamed all the same, so the next export with budgets finds it
    (it added a second one; hunt 9)."""
    company = make_company(300, seed=4, years=2, budgets=True, classes=True)
    book = tmp_path / "book.gnucash"
    assert convert(*_exports(company, tmp_path / "march"), "-o", book).returncode == 0
    june = _exports(dataclasses.replace(company, budgets=[]), tmp_path / "june")
    renamed_class(june, "Design", "Creative")
    run = convert(*june, "--update", book, "--take-quickbooks", "class:Design")
    assert run.returncode == 0, run.stdout + run.stderr
    names = sorted(b.name for b in gnc.read_book(book).budgets)
    assert "Budget FY2019 (class Creative)" in names and "Budget FY2019 (class Design)" not in names
    full = _exports(company, tmp_path / "july")
    renamed_class(full, "Design", "Creative")
    again = convert(*full, "--update", book)
    assert "QuickBooks' budgets" not in again.stdout and "Nothing new" in again.stdout, again.stdout


def test_the_wizard_says_a_kept_budget_still_differs(client, tmp_path: Path, company: Company):
    """ "Keep the book's" on the budget, then the same exports again from that book: the page
    and the home list say the book still differs by what was kept, not "already up to date"
    (hunt 9)."""
    from tests.support.web import decide_held, post_update, soup

    book, _later, _first, name, june = _changed_in_both(company, tmp_path)

    def post(path: Path):
        r = post_update(client, path, june)
        assert r.status_code == 303, r.get_data(as_text=True)
        return r

    r = post(book)
    after = decide_held(client, r.location, f"budget:{name}", "book")
    kept = tmp_path / "kept.gnucash"
    with client.get(after.select_one("#download-updated")["href"]) as got:
        kept.write_bytes(got.data)
    again = post(kept)
    page = soup(client.get(again.location))
    heading = page.select_one("h1").get_text(" ")
    assert heading == "Nothing added: the book still differs from QuickBooks by what you kept"
    row = next(
        tr
        for tr in soup(client.get("/")).select("#migrations tbody tr")
        if tr.select_one("a.button")["href"] == again.location
    )
    assert row.select_one(".state.update").text == (
        "Nothing added: differs from QuickBooks by what you kept"
    )

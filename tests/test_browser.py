"""The whole wizard in a real Chromium, against ``python run.py`` started as a user would.

Upload a generated company's lists and transaction report, check the preview, rename an account
and turn reparenting on, import, wait for the progress bar, download the book, reopen it with the
GnuCash bindings. Two walks with the real Enterprise lists export: with a generated history of
transfers between its accounts (opening balances for what the history does not explain), and
alone in balances-only mode. A screenshot of every step lands in the test's tmp folder (kept on
failure).
"""

from __future__ import annotations

import contextlib
import csv
import datetime as dt
import random
import re
from decimal import Decimal
from pathlib import Path

import pytest

from tests.support.browser import choose_files, settled_after

pytestmark = pytest.mark.browser


def test_whole_wizard(server: str, browser_page, tmp_path: Path) -> None:
    from playwright.sync_api import expect

    from app.gnc import read_book
    from tests.support.companygen import make_company

    company = make_company(transactions=400, seed=7)
    lists = company.write_lists_iif(tmp_path / "lists.IIF")
    report = company.write_transaction_detail_csv(tmp_path / "Transaction Detail.csv")
    page = browser_page
    shots = tmp_path / "screens"
    shots.mkdir()

    def shot(name: str) -> None:
        page.screenshot(path=str(shots / f"{name}.png"), full_page=True)

    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        page.goto(server)
        assert page.url == server.partition("?")[0]  # signed in: the token left the address
        shot("0-home")
        page.click("#new-migration")
        expect(page.locator(".steps .current")).to_contain_text("Files")

        choose_files(page, [str(lists), str(report)])
        cards = page.locator("#files article.file")
        expect(cards).to_have_count(2, timeout=30_000)  # (a fresh server reads its first upload)
        expect(cards.nth(0)).to_contain_text("IIF lists")
        expect(cards.nth(1)).to_contain_text("CSV Transaction Detail")
        expect(cards.nth(1)).to_contain_text("400")
        expect(page.locator("#files .message.ok")).to_contain_text("Added")
        expect(page.locator("#needs-chart")).to_have_count(0)  # the lists are there
        shot("1-files")

        page.click("#to-preview")
        expect(page.locator("#account-table tr[data-account='Checking']")).to_be_visible()
        expect(page.locator("#txn-table tbody.txn")).to_have_count(50)
        page.fill("#txn-search", "Checking")
        expect(page.locator("#txn-region")).to_contain_text("match “Checking”")
        expect(page.locator("#problem-list li.error")).to_have_count(0)
        shot("2-preview")

        page.click("#to-map")
        # the row's form is swapped in; htmx wires its inputs when the swap settles
        edit = "#tree-table tr[data-account='Checking'] button.edit"
        settled_after(page, lambda: page.click(edit))  # click to edit
        name = page.locator("tr.editing input[name=name]")
        name.fill("Main:Checking")
        expect(page.locator("tr.editing .row-check")).to_contain_text("must not contain “:”")
        name.fill("Main Checking")
        expect(page.locator("tr.editing .row-check")).to_be_empty()
        page.click("tr.editing button:has-text('Save')")
        expect(page.locator("#tree-table tr[data-account='Main Checking']")).to_be_visible()
        page.check("#reparent")
        main = "Assets:Current Assets:Main Checking"
        expect(page.locator(f"#tree-table tr[data-account='{main}']")).to_be_visible()
        ar = "Assets:Current Assets:Accounts Receivable"  # GnuCash's standard place for A/R
        expect(page.locator(f"#tree-table tr[data-account='{ar}']")).to_be_visible()
        page.uncheck("#reparent")
        expect(page.locator("#tree-table tr[data-account='Main Checking']")).to_be_visible()
        shot("3-map")

        tick_and_continue(page, "#reparent", "input[name=opening_balances]")
        summary = page.locator("#import-summary")
        expect(summary).to_contain_text("standard account tree")
        expect(summary).to_contain_text("opening-balance transaction")
        page.click("#start-import")
        expect(page.locator("#job .progress-bar, #to-download").first).to_be_visible()
        shot("4-import")
        page.locator("#to-download").wait_for(timeout=180_000)
        page.click("#to-download")
        expect(page.locator("#summary-line")).to_contain_text(
            "accounts match QuickBooks to the cent"
        )
        expect(page.locator("#documents-line")).to_contain_text(
            re.compile(r"[\d,]+ invoices and bills, open balances of .* match QuickBooks")
        )
        expect(page.locator("#download-documents")).to_be_visible()
        shot("5-download")
        with page.expect_download() as info:
            page.click("#download-book")
        download = info.value
        assert download.suggested_filename.endswith(".gnucash")
        book_path = tmp_path / download.suggested_filename
        download.save_as(book_path)
    except Exception:
        shot("failure")
        print(f"screenshots in {shots}")
        raise
    assert errors == []

    book = read_book(book_path)
    expected = company.expected_balances()
    checking = book.account(main)
    assert checking is not None
    assert checking.type == "BANK"
    assert book.account("Checking") is None
    assert checking.balance == expected["Checking"]
    assert book.account("Assets:Current Assets:Savings").balance == expected["Savings"]
    assert book.transactions == len(company.transactions)


def tick_and_continue(page, *boxes: str) -> None:
    """On the Map step: tick ``boxes`` and go straight on to Import while the saves are still
    unanswered (held back, as on a slow machine). No choice may be lost (each save supersedes
    the one on its way) and the link must wait for the last save to land."""
    from playwright.sync_api import Error as PlaywrightError

    held: list = []

    def hold(route) -> None:  # a function: Playwright tags it, a bound method can't be
        held.append(route)

    page.route("**/map/settings", hold)
    for box in boxes:
        page.check(box)
    page.click("#to-import")
    page.unroute("**/map/settings")
    for route in held:
        with contextlib.suppress(PlaywrightError):  # a superseded save, already aborted
            route.continue_()


def import_and_download(page, tmp_path: Path, shots: Path, *expect_on_import: str) -> Path:
    """On the Import step: its summary must name ``expect_on_import``; import, wait for the job,
    check that every account matches, download."""
    from playwright.sync_api import expect

    for text in expect_on_import:
        expect(page.locator("#import-summary")).to_contain_text(text)
    page.click("#start-import")
    page.locator("#to-download").wait_for(timeout=180_000)
    page.click("#to-download")
    expect(page.locator("#summary-line")).to_have_class(re.compile(r"\bok\b"))
    every = re.compile(r"\b([1-9]\d*) of \1 accounts match QuickBooks to the cent")  # not 0 of 0
    expect(page.locator("#summary-line")).to_contain_text(every)
    page.screenshot(path=str(shots / "download.png"), full_page=True)
    with page.expect_download() as info:
        page.click("#download-book")
    book_path = tmp_path / info.value.suggested_filename
    info.value.save_as(book_path)
    return book_path


@pytest.mark.samples
def test_enterprise_lists_balances_only(server: str, browser_page, tmp_path: Path, samples_dir):
    from playwright.sync_api import expect

    from app.gnc import read_book
    from tests.paths import ENTERPRISE

    page = browser_page
    shots = tmp_path / "screens"
    shots.mkdir()
    try:
        page.goto(server)
        page.click("#new-migration")
        choose_files(page, str(ENTERPRISE))
        card = page.locator("#files article.file")
        expect(card).to_contain_text("IIF lists")
        expect(card).to_contain_text("Accounts")
        page.click("#to-preview")
        expect(page.locator("#account-table tr[data-account='Checking']")).to_contain_text(
            "99,250.02"
        )
        page.click("#to-map")
        page.click("#to-import")
        expect(page.locator("#lists-only")).to_contain_text("Only the balances")
        page.screenshot(path=str(shots / "lists-only.png"), full_page=True)
        page.click("#lists-only a")
        prefilled = page.input_value("input[name=date]")  # the day QuickBooks' figures are from
        assert prefilled
        page.check("input[name=mode][value=balances_only]")  # saved at once, with that day
        expect(page.locator("#map-status")).to_contain_text("Settings saved")
        expect(page.locator("#messages")).to_be_empty()
        page.fill("input[name=date]", "2026-12-15")
        expect(page.locator("input[name=date]")).to_have_value("2026-12-15")
        expect(page.locator("#save-state")).to_have_text("All changes saved", use_inner_text=True)
        page.click("#to-import")
        book_path = import_and_download(page, tmp_path, shots)
    except Exception:
        page.screenshot(path=str(shots / "failure.png"), full_page=True)
        print(f"screenshots in {shots}")
        raise
    book = read_book(book_path)
    assert book.account("Checking").balance == Decimal("99250.02")
    assert book.account("Savings").balance == Decimal("5987.50")
    assert book.transactions == 1
    assert book.first_date == dt.date(2026, 12, 15)  # the date typed over the prefilled one


def enterprise_history(path: Path, n: int = 40, seed: int = 11) -> Path:
    """A seeded Transaction Detail export of transfers between the Enterprise sample's own
    balance-sheet accounts, dated in its last fiscal year up to a week before its lists'
    export (2026-12-15): a history that stops months before is a gap no opening balance fills."""
    rng = random.Random(seed)
    pairs = [
        ("Savings", "Checking"),
        ("Checking", "Undeposited Funds"),
        ("Accounts Payable", "Checking"),
        ("CalOil Card", "Checking"),
    ]
    rows = [
        ["", "Trans #", "Type", "Date", "Num", "Name", "Memo", "Account", "Clr", "Split", "Amount"]
    ]
    day = dt.date(2026, 10, 20)
    for i in range(1, n + 1):
        debit, credit = rng.choice(pairs)
        amount = Decimal(rng.randrange(1000, 90000)) / 100
        day += dt.timedelta(days=rng.randrange(0, 4))
        d, memo = day.strftime("%m/%d/%Y"), f"transfer {i}"
        rows.append(["", str(i), "Transfer", d, "", "", memo, debit, "", credit, f"{amount:,.2f}"])
        rows.append(["", str(i), "Transfer", d, "", "", memo, credit, "", debit, f"{-amount:,.2f}"])
    with path.open("w", newline="", encoding="utf-8") as f:
        csv.writer(f).writerows(rows)
    return path


@pytest.mark.samples
def test_enterprise_lists_with_a_history(server: str, browser_page, tmp_path: Path, samples_dir):
    from playwright.sync_api import expect

    from app.gnc import read_book
    from tests.paths import ENTERPRISE

    history = enterprise_history(tmp_path / "Transfers.csv")
    page = browser_page
    shots = tmp_path / "screens"
    shots.mkdir()
    try:
        page.goto(server)
        page.click("#new-migration")
        choose_files(page, [str(ENTERPRISE), str(history)])
        expect(page.locator("#files article.file")).to_have_count(2, timeout=30_000)
        expect(page.locator("#files article.file").nth(1)).to_contain_text("CSV Transaction Detail")
        page.click("#to-preview")
        expect(page.locator("#txn-table tbody.txn")).to_have_count(40)
        page.click("#to-map")
        page.select_option("#rule-account", "Checking")
        page.fill("#rule-target", "Operating Account")
        page.click("#add-rule")
        expect(page.locator("#tree-table tr[data-account='Operating Account']")).to_be_visible()
        tick_and_continue(page, "#reparent", "input[name=opening_balances]")
        new = "Assets:Current Assets:Operating Account"
        book_path = import_and_download(
            page, tmp_path, shots, "standard account tree", "opening-balance transaction"
        )
    except Exception:
        page.screenshot(path=str(shots / "failure.png"), full_page=True)
        print(f"screenshots in {shots}")
        raise
    book = read_book(book_path)
    assert book.account(new).balance == Decimal("99250.02")  # QuickBooks' own figure
    assert book.account("Assets:Current Assets:Savings").balance == Decimal("5987.50")
    assert book.account("Checking") is None
    assert book.transactions == 41  # the history and one opening-balance transaction

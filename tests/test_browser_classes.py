"""QuickBooks classes as a person sees them, in a real Chromium against ``python run.py`` (the
fixtures of tests/conftest.py): the Map step's "QuickBooks classes" choice saved, kept on a
reload, and the book written with a sub-account per class."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.browser import choose_files

pytestmark = pytest.mark.browser


def test_the_map_steps_classes_choice(server, browser_page, tmp_path: Path) -> None:
    from playwright.sync_api import expect

    from app.gnc import read_book
    from tests.support.companygen import make_company
    from tests.support.companygen_classes import class_totals

    company = make_company(transactions=150, seed=26, years=2, classes=True)
    files = [
        str(company.write_lists_iif(tmp_path / "lists.IIF")),
        str(company.write_transaction_detail_csv(tmp_path / "Transaction Detail.csv")),
    ]
    page = browser_page
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        page.goto(server)
        page.click("#new-migration")
        choose_files(page, files)
        expect(page.locator("#files article.file")).to_have_count(2)
        page.click("#to-preview")
        page.click("#to-map")
        memo = page.locator('#classes-setting input[value="memo"]')
        expect(memo).to_be_checked()  # the default
        page.check('#classes-setting input[value="accounts"]')
        expect(page.locator("#map-status")).to_contain_text("Settings saved")
        expect(page.locator("#save-state")).to_have_text("All changes saved", use_inner_text=True)
        page.reload()
        expect(page.locator('#classes-setting input[value="accounts"]')).to_be_checked()
        expect(memo).not_to_be_checked()
        assert "sub-account per class" in page.locator("#classes-setting").inner_text()
        page.click("#to-import")
        page.click("#start-import")
        page.locator("#to-download").wait_for(timeout=180_000)
        page.click("#to-download")
        expect(page.locator("#summary-line")).to_contain_text(
            "accounts match QuickBooks to the cent"
        )
        with page.expect_download() as info:
            page.click("#download-book")
        book_path = tmp_path / info.value.suggested_filename
        info.value.save_as(book_path)
        assert not errors
    except Exception:
        page.screenshot(path=str(tmp_path / "failure.png"), full_page=True)
        raise
    book = read_book(book_path)  # the engine reopened: a sub-account per class
    for klass in ("Design", "Landscaping", "Landscaping:Residential"):
        want = class_totals(company, "Rent", klass)
        got = book.account(f"Rent:{klass}")
        assert (got.balance if got else None) == (want if want or got else None), klass
    assert book.account("Rent").balance == class_totals(company, "Rent", "")
    assert sum(1 for a in book.accounts if a.full_name.endswith(":Design")) > 3

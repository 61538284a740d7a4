"""Items and sales tax as a person sees them, in a real Chromium against ``python run.py`` (the
fixtures of tests/conftest.py): the Preview's "Items and sales tax" tab, an invoice opening on
its lines, the Map step's choice of plain lines saved and said on the Preview."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.browser import new_migration_with

pytestmark = pytest.mark.browser


def test_tax_tab_invoice_lines_and_the_map_choice(server, browser_page, tmp_path: Path) -> None:
    from playwright.sync_api import expect

    from tests.support.companygen import make_company

    company = make_company(transactions=400, seed=5, items=True)
    files = [
        str(company.write_lists_iif(tmp_path / "lists.IIF")),
        str(company.write_transaction_detail_csv(tmp_path / "Transaction Detail.csv")),
    ]
    page = browser_page
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        new_migration_with(page, server, files)
        tab = page.locator('nav.tabs a[href="#sales-tax"]')
        expect(tab).to_have_text("Items and sales tax (4 tax tables)")
        tab.click()
        expect(page.locator("#tax-tables tbody tr")).to_have_count(4)
        first = page.locator("#tax-invoices details.invoice").first
        lines = first.locator("tbody tr")
        expect(lines.first).to_be_hidden()  # closed until opened
        first.locator("summary").click()
        expect(lines.first).to_be_visible()
        assert lines.first.locator("td").first.inner_text() in (
            "Design", "Labor", "Materials", "Fertilizer", "Seed:Grass", "Pump", "Delivery",
        )  # fmt: skip
        page.click("#to-map")
        page.check('#sales-tax-setting input[value="lines"]')
        expect(page.locator("#map-status")).to_contain_text("Settings saved")
        expect(page.locator("#save-state")).to_have_text("All changes saved", use_inner_text=True)
        expect(page.locator('#sales-tax-setting input[value="lines"]')).to_be_checked()
        page.goto(page.url.split("/map")[0] + "/preview")
        expect(page.locator("#sales-tax-summary")).to_contain_text(
            "as plain lines on every invoice"
        )
        assert not errors
    except Exception:
        page.screenshot(path=str(tmp_path / "failure.png"), full_page=True)
        raise

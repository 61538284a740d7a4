"""What a person sees of the PostgreSQL choice (issue 29), in a real Chromium against ``python
run.py`` and a throw-away PostgreSQL server: the Map step's file format offers the database,
its address and password fields appear, the connection test says what it found, and the
password typed never comes back in a page."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.browser import choose_files
from tests.support.pgserver import PASSWORD

pytestmark = pytest.mark.browser


@pytest.fixture
def typed_password_only(monkeypatch):
    """No PGPASSWORD or password file for the wizard (set before ``server`` starts it)."""
    monkeypatch.delenv("PGPASSWORD", raising=False)
    monkeypatch.setenv("PGPASSFILE", "/nonexistent/pgpass")


def test_the_map_step_connects_to_a_postgresql_database(
    pg_server, typed_password_only, server, browser_page, tmp_path: Path
):
    from playwright.sync_api import expect

    from tests.support.companygen import make_company

    company = make_company(transactions=60, seed=3)
    files = [
        str(company.write_lists_iif(tmp_path / "lists.IIF")),
        str(company.write_transaction_detail_csv(tmp_path / "detail.csv")),
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
        expect(page.locator("#database-setting")).to_have_count(0)
        page.select_option("select[name=format]", "postgres")
        expect(page.locator("#database-setting")).to_be_visible()
        url = pg_server.url("from_the_browser")
        page.fill("#database", url)
        page.click("#test-database")
        expect(page.locator("#database-test")).to_contain_text("refused the password")
        expect(page.locator("#database")).to_have_value(url)  # saved, and shown again
        page.fill("#db-password", PASSWORD)
        page.click("#test-database")
        expect(page.locator("#database-test")).to_have_text(
            f"Connected to 127.0.0.1:{pg_server.port} as bookkeeper. There is no database "
            "from_the_browser yet: the import creates it."
        )
        expect(page.locator("#save-state")).to_have_text("All changes saved", use_inner_text=True)
        expect(page.locator("#db-password")).to_have_attribute(
            "placeholder", "kept (type to change)"
        )
        expect(page.locator("#db-password")).to_have_value("")
        assert PASSWORD not in page.content()
        page.locator("#database-setting").screenshot(path=str(tmp_path / "database.png"))
        page.click("#to-import")
        expect(page.locator("#import-summary")).to_contain_text(f"PostgreSQL database {url}")
        assert errors == []
    finally:
        page.screenshot(path=str(tmp_path / "map-postgres.png"), full_page=True)

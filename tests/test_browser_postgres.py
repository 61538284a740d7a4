"""What a person sees of the PostgreSQL choice (issue 29), in a real Chromium against ``python
run.py`` and a throw-away PostgreSQL server: the Map step's file format offers the database,
its address and password fields appear, the connection test says what it found, and the
password typed never comes back in a page."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.browser import new_migration_with
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
        new_migration_with(page, server, files)
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


def test_a_postgresql_book_is_brought_up_to_date_from_the_update_page(
    pg_server, typed_password_only, server, browser_page, tmp_path: Path
):
    """March imported into PostgreSQL in the wizard, then June's exports on the update page:
    the book is offered "in PostgreSQL" with a password field; the password typed on the Map
    step (kept in memory) serves; the result page says where the book is and its backup, and
    no download; the database reopened holds June's transactions."""
    from playwright.sync_api import expect

    from app import gnc, pipeline, update_run
    from app.plan import Plan
    from app.postgres import parse_address
    from tests.support.companygen_later import later_company

    later = later_company(150, seed=6)
    (tmp_path / "march").mkdir()
    (tmp_path / "june").mkdir()
    march = [
        str(later.first.write_lists_iif(tmp_path / "march" / "lists.iif")),
        str(later.first.write_journal_csv(tmp_path / "march" / "Journal.csv")),
    ]
    june = [
        str(later.second.write_lists_iif(tmp_path / "june" / "lists.iif")),
        str(later.second.write_journal_csv(tmp_path / "june" / "Journal.csv")),
    ]
    url = pg_server.url("browser_update")
    page = browser_page
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        new_migration_with(page, server, march)
        page.click("#to-map")
        page.select_option("select[name=format]", "postgres")
        page.fill("#database", url)
        page.fill("#db-password", PASSWORD)
        page.click("#test-database")
        expect(page.locator("#database-test")).to_contain_text("the import creates it")
        page.click("#to-import")
        page.click("#start-import")
        page.locator("#to-download").wait_for(timeout=180_000)
        first = gnc.read_book(parse_address(url), password=PASSWORD).transactions
        page.goto(server)
        page.click("#update-existing")
        offered = page.locator("#earlier-books li")
        expect(offered).to_have_count(1)
        expect(offered).to_contain_text(f"in PostgreSQL, {url} (converted)")
        expect(page.locator("#update-password input[name=password]")).to_be_visible()
        page.screenshot(path=str(tmp_path / "update-form.png"), full_page=True)
        offered.locator("input[name=earlier]").check()
        page.set_input_files("#update-files", june)
        page.click("#update-run")  # (no password typed: the Map step's, kept in memory)
        done = page.locator("#updated-database")
        expect(done).to_contain_text(f"The book in PostgreSQL, {url}, is brought up to date")
        summary = page.locator("#update-summary")
        expect(summary).to_contain_text(
            "The previous book is kept as the database browser_update_before_update_"
        )
        expect(summary).not_to_contain_text("download")
        expect(page.locator("#download-updated")).to_have_count(0)
        expect(page.locator("#update-summary")).to_contain_text(
            f"{len(later.added)} transactions added"
        )
        page.screenshot(path=str(tmp_path / "update-result.png"), full_page=True)
        assert PASSWORD not in page.content()
        # the database reopened: the same update of the same book in a file, line for line
        plan = Plan()
        xml = tmp_path / "march.gnucash"
        prepared = pipeline.prepare(pipeline.read([Path(p) for p in march], plan), plan)
        assert pipeline.write(prepared, xml, plan).report.ok
        update_run.bring_up_to_date([Path(p) for p in june], xml)
        book, file_book = gnc.read_book(parse_address(url), password=PASSWORD), gnc.read_book(xml)
        assert book.transactions == file_book.transactions > first
        assert {a.full_name: a.balance for a in book.accounts} == {
            a.full_name: a.balance for a in file_book.accounts
        }
        assert errors == []
    finally:
        page.screenshot(path=str(tmp_path / "update-postgres.png"), full_page=True)

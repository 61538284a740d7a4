"""The wizard's "Bring an existing book up to date" in a real Chromium, against ``python run.py``
started as a user would: the March book converted from the generator's first export, June's
exports chosen with it, the result page read (added, held, the proof), the updated book
downloaded and reopened with the GnuCash bindings (the hand-made transaction case is in
tests/test_update.py). A screenshot of each page lands
in the test's tmp folder."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

pytestmark = pytest.mark.browser


def test_bring_a_book_up_to_date(server: str, browser_page, tmp_path: Path) -> None:
    from playwright.sync_api import expect

    from app import gnc, pipeline
    from app.plan import Plan
    from tests.support.companygen_later import later_company

    later = later_company(300, seed=6)
    (tmp_path / "march").mkdir()
    (tmp_path / "june").mkdir()
    march = [
        later.first.write_lists_iif(tmp_path / "march" / "lists.iif"),
        later.first.write_journal_csv(tmp_path / "march" / "Journal.csv"),
    ]
    plan = Plan()
    prepared = pipeline.prepare(pipeline.read(march, plan), plan)
    book = tmp_path / "Green Valley.gnucash"
    assert pipeline.write(prepared, book, plan).report.ok
    june = [
        later.second.write_lists_iif(tmp_path / "june" / "lists.iif"),
        later.second.write_journal_csv(tmp_path / "june" / "Journal.csv"),
    ]
    page = browser_page
    shots = tmp_path / "screens"
    shots.mkdir()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))

    page.goto(server)
    page.click("#update-existing")
    expect(page.locator("h1")).to_contain_text("Bring an existing book up to date")
    page.screenshot(path=str(shots / "0-form.png"), full_page=True)
    page.set_input_files("#update-book", str(book))
    page.set_input_files("#update-files", [str(p) for p in june])
    page.click("#update-run")
    summary = page.locator("#update-summary")
    expect(summary).to_contain_text(f"{len(later.added)} transactions added", timeout=180_000)
    expect(summary).to_contain_text("2 changes to transactions in QuickBooks held")
    expect(summary).to_contain_text("New accounts: Marketing")
    # the changes to decide are listed once, with their buttons, and no key of the code's
    expect(summary).not_to_contain_text("edited in QuickBooks")
    expect(page.locator("#held-changes")).to_contain_text("edited in QuickBooks")
    expect(page.locator("#held-changes h2")).to_have_text(
        "3 changes since the last run: decide each"
    )
    assert "[ref:" not in page.content() and "[account:" not in page.content()
    expect(page.locator("#update-held")).to_contain_text("exactly the 2 changes to transactions")
    expect(page.locator("#update-held")).to_contain_text("decide each above")
    page.screenshot(path=str(shots / "1-result.png"), full_page=True)
    # the deleted check: keep the book's version (a button per held change)
    deleted = page.locator("#held-changes li.held", has_text="no longer in QuickBooks")
    deleted.locator("button.keep").click()
    expect(page.locator("#update-summary")).to_contain_text(
        "Kept the book's version (your decision): The book's"
    )
    expect(page.locator("#held-changes li.held")).to_have_count(2)  # the edit, the account
    renamed = page.locator("#held-changes li.held", has_text="renamed in QuickBooks")
    expect(renamed).to_contain_text("“Telephone and Internet” where the book has “Telephone”")
    # the edit: QuickBooks' version taken; both decisions stay listed, in the order made
    edited = page.locator("#held-changes li.held", has_text="edited in QuickBooks")
    edited.locator("button.take").click()
    decisions = page.locator("#update-decisions li")
    expect(decisions).to_have_count(2)
    expect(decisions.nth(0)).to_contain_text("Keep the book's: ")
    expect(decisions.nth(1)).to_contain_text("Take QuickBooks' version: ")
    expect(page.locator("#held-changes li.held")).to_have_count(1)  # the account
    # the change held is kept as decided: nothing to decide there but the account's name
    expect(page.locator("#update-held")).to_contain_text("you kept the book's version of each")
    expect(page.locator("#update-held")).to_contain_text("still to decide above")
    page.screenshot(path=str(shots / "2-decisions.png"), full_page=True)
    with page.expect_download() as got:
        page.click("#download-updated")
    out = tmp_path / "downloaded.gnucash"
    got.value.save_as(out)
    snap = gnc.read_book(out, transactions=True)
    days = {t.date for t in snap.transaction_list}
    assert max(days) == later.second.export_date > later.cut >= dt.date(2019, 1, 1)
    assert snap.account("Marketing") is not None
    assert snap.account("Telephone") is not None and snap.account("Telephone and Internet") is None
    assert book.read_bytes()  # the user's own file: read, never written
    assert errors == []

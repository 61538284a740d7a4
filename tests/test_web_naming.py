"""Named after the company (issue 27, item 5): the book, the audit pack, the verification report
and the home list take the company's name, from a report's title row or as the user types it on
the Files step; renamed after the import, the downloads follow. Every book is reopened."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

from app.gnc import read_book
from tests.support.companygen import COMPANY_NAME, make_company
from tests.support.web import HX, new_migration, soup, upload, wait_done


def _names(client, prefix: str) -> dict[str, str]:
    out = {}
    for what in ("book", "audit.zip", "report.csv"):
        with client.get(f"{prefix}/download/{what}") as r:
            assert r.status_code == 200, what
            out[what] = r.headers["Content-Disposition"].split("filename=", 1)[1]
            if what == "audit.zip":
                out["members"] = sorted(zipfile.ZipFile(io.BytesIO(r.data)).namelist())
            if what == "book":
                out["data"] = r.data
    return out


def test_lists_alone_are_named_by_the_user_and_the_downloads_follow(client, tmp_path):
    prefix, csrf = new_migration(client)
    upload(client, prefix, csrf, "lists.iif")
    upload(client, prefix, csrf, "txns.iif")
    home = soup(client.get("/"))
    assert home.select_one("#migrations td.company").text.strip() == "Not named yet"
    page = soup(client.get(f"{prefix}/files"))
    assert page.select_one("#company-name")["value"] == ""
    assert "does not carry its name" in page.select_one("#company-hint").text
    assert page.select_one("#book-file").text == "lists.gnucash"  # nothing better yet

    r = client.post(f"{prefix}/name", data={"company": "  Rivière Design &\nBuild, LLC. "},
                    headers=csrf | HX)  # fmt: skip
    assert r.status_code == 200
    part = soup(r)
    assert part.select_one("#company-name")["value"] == "Rivière Design & Build, LLC."
    assert part.select_one("#company-saved").text.endswith("Riviere-Design-and-Build-LLC.gnucash.")
    home = soup(client.get("/"))
    assert home.select_one("#migrations td.company").text.strip() == "Rivière Design & Build, LLC."

    assert client.post(f"{prefix}/import", headers=csrf | HX).status_code == 200
    assert wait_done(client, prefix).select_one("#job")["data-state"] == "done"
    names = _names(client, prefix)
    assert names["book"] == "Riviere-Design-and-Build-LLC.gnucash"
    assert names["audit.zip"] == "Riviere-Design-and-Build-LLC-audit.zip"
    assert names["report.csv"] == "Riviere-Design-and-Build-LLC-verification.csv"
    assert (
        "Riviere-Design-and-Build-LLC-audit/Riviere-Design-and-Build-LLC.gnucash"
        in (names["members"])
    )
    book = tmp_path / "renamed.gnucash"
    book.write_bytes(names["data"])
    snap = read_book(book)
    assert snap.account("Checking").balance == 75 and snap.transactions == 2

    # renamed after the import: the downloads take the new name, the book is not outdated
    client.post(f"{prefix}/name", data={"company": "Acme Sons"}, headers=csrf | HX)
    names = _names(client, prefix)
    assert names["book"] == "Acme-Sons.gnucash"
    assert names["audit.zip"] == "Acme-Sons-audit.zip"
    assert "Acme-Sons-audit/Acme-Sons.gnucash" in names["members"]
    button = soup(client.get(f"{prefix}/download")).select_one("#download-book")
    assert button.text == "Download Acme-Sons.gnucash"  # the name the file downloads under
    assert "earlier settings" not in soup(client.get(f"{prefix}/import")).text


LETTER = (
    b"Dear Sam,\n\nPlease find attached the books for last year, as you asked.\n"
    b"Call me when you have had a look at them.\n\nBest regards,\nAlex\n"
)


def test_a_file_that_is_no_quickbooks_export_names_nothing(client):
    """A letter added first (refused as no QuickBooks export) does not name the book: the first
    file read as an export does; with only the letter, the book is "book"."""
    prefix, csrf = new_migration(client)
    assert upload(client, prefix, csrf, "a-letter.txt", data=LETTER).status_code == 200
    page = soup(client.get(f"{prefix}/files"))
    assert "Not a QuickBooks export" in page.select_one("#file-1").text
    assert page.select_one("#book-file").text == "book.gnucash"
    upload(client, prefix, csrf, "lists.iif")
    page = soup(client.get(f"{prefix}/files"))
    assert page.select_one("article.file")["data-filename"] == "a-letter.txt"
    assert page.select_one("#book-file").text == "lists.gnucash"


def test_a_reports_title_row_names_the_company(client, tmp_path):
    company = make_company(120, seed=5)
    folder = tmp_path / "exports"
    folder.mkdir()
    lists = company.write_lists_iif(folder / "lists.iif")
    journal = company.write_journal_csv(folder / "journal.csv")
    prefix, csrf = new_migration(client)
    for path in (lists, journal):
        upload(client, prefix, csrf, path.name, data=path.read_bytes())
    page = soup(client.get(f"{prefix}/files"))
    assert page.select_one("#company-name")["value"] == COMPANY_NAME
    assert "title row" in page.select_one("#company-hint").text
    assert page.select_one("#book-file").text == "Green-Valley-Landscaping-Inc.gnucash"
    home = soup(client.get("/"))
    assert home.select_one("#migrations td.company").text.strip() == COMPANY_NAME
    assert client.post(f"{prefix}/import", headers=csrf | HX).status_code == 200
    state = wait_done(client, prefix, timeout=300).select_one("#job")["data-state"]
    assert state == "done"
    names = _names(client, prefix)
    assert names["book"] == "Green-Valley-Landscaping-Inc.gnucash"
    assert names["report.csv"] == "Green-Valley-Landscaping-Inc-verification.csv"
    book = tmp_path / "company.gnucash"
    book.write_bytes(names["data"])
    snap = read_book(book)
    assert snap.transactions == len(company.history)
    expected = company.expected_balances()
    for account, balance in expected.items():
        if company.account_type(account) == "NONPOSTING":  # GnuCash has no such accounts
            assert snap.account(account) is None
            continue
        found = snap.account(account)
        assert found is not None and found.balance == balance, account

    # emptying the box goes back to the title row's name
    r = client.post(f"{prefix}/name", data={"company": ""}, headers=csrf | HX)
    assert soup(r).select_one("#company-name")["value"] == COMPANY_NAME
    assert Path(book).exists()


def test_a_files_own_name_is_shown_on_the_home_page_and_in_the_import_warnings(client):
    """A file the browser sent as "lists (1).iif" is stored as lists_1.iif; the home page and
    the Import step's warnings named it so (a walk's "journal_1.csv")."""
    from tests.support.web import differing_lists, new_migration, soup, upload

    prefix, csrf = new_migration(client)
    upload(client, prefix, csrf, "lists (1).iif", data=differing_lists())  # (balances off)
    upload(client, prefix, csrf, "txns.iif")
    home = soup(client.get("/"))
    assert "lists (1).iif" in home.select_one("#migrations td.files").text
    warnings = soup(client.get(f"{prefix}/import")).select("#import-warnings li")
    assert warnings and any("lists (1).iif" in li.text for li in warnings)
    assert not any("lists_1.iif" in li.text for li in warnings)

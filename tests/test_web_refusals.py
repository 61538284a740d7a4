"""Files that are no QuickBooks export (issue 27, item 7): a letter, a renamed JSON file, an HTML
page, a PDF, and QuickBooks reports of totals only (the generator's Profit & Loss and Balance
Sheet) are refused as what they are, with what to export instead, never offered the column
mapping; the same content under another name is said at once on its card; a refused upload is
said in the files region, where no earlier "Added" stays. Through the real app."""

from __future__ import annotations

import json

import pytest

from app.model import ReadOptions
from app.readers import read_one
from tests.support.companygen import COMPANY_NAME, make_company
from tests.support.companygen_summary import summary_truth
from tests.support.web import WEB, new_migration, soup, upload

LETTER = (
    "Dear Ms. Alvarez,\r\n\r\nThank you for your order of March 3. As agreed, we will deliver "
    "the plants on Friday, weather permitting.\r\nPlease find the invoice attached; payment is "
    "due within 30 days.\r\n\r\nKind regards,\r\nJim Green\r\n"
)
JSON = json.dumps({"company": COMPANY_NAME, "accounts": [{"name": "Checking", "balance": 75}]})
HTML = "<!DOCTYPE html><html><body><table><tr><td>Date</td></tr></table></body></html>"
NOT_EXPORT = {  # name → (content, what the card says it looks like)
    "letter.txt": (LETTER.encode(), "a letter or other plain text"),
    "note.txt": (  # one line of words only (a walk's: offered the column mapping)
        b"Dear Sir,\nplease find our invoice attached.\nRegards\n",
        "a letter or other plain text",
    ),
    "accounts.csv": (JSON.encode(), "a JSON data file"),
    "report.csv": (HTML.encode(), "a web page (HTML)"),
    "statement.csv": (b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n1 0 obj\x00\n", "a PDF document"),
    "contacts.csv": (  # two columns: no date, account and amount to map (a walk's)
        b"Name,Email\r\nAnn Lee,ann@example.com\r\nBo Chan,bo@example.com\r\n",
        "a table of two columns (Name, Email), where a report has a date, an account and an amount",
    ),
    "codes.txt": (b"1000\n1010\n1200\n", "a list of single values, one per line"),
    "customers.csv": (  # columns, but not a date in them: a contact list (a walk's)
        b"Name,Email,Phone,City\r\nAnn Lee,ann@example.com,555-1234,Oakland\r\n"
        b"Bo Chan,bo@example.com,555-9876,Fresno\r\n",
        "a table without a single date (Name, Email, Phone, City), where a report of "
        "transactions has a date on each row; customers, vendors and accounts come from the "
        "lists export",
    ),
}


def _card(client, prefix: str, name: str):
    card = soup(client.get(f"{prefix}/files")).select_one(f"article[data-filename='{name}']")
    assert card is not None
    return card, " ".join(card.text.split())


@pytest.mark.parametrize("name", sorted(NOT_EXPORT))
def test_a_file_that_is_no_export_is_refused_as_what_it_is(client, name):
    data, looks_like = NOT_EXPORT[name]
    prefix, csrf = new_migration(client)
    r = upload(client, prefix, csrf, name, data=data)
    assert r.status_code == 200
    # said at once where the upload is (the card may be out of sight), not "Added"
    part = soup(r)
    assert part.select_one("#files .message.ok") is None
    (said,) = part.select("#files .message.refused")
    assert said.text.startswith(f"{name}: Not a QuickBooks export. Nothing was read from it")
    anchor = said.select_one("a")["href"]
    assert part.select_one(anchor)["data-filename"] == name
    card, text = _card(client, prefix, name)
    assert card.select_one(".kind").text == "Not a QuickBooks export"
    assert f"this is not a QuickBooks export: it looks like {looks_like}" in text
    assert "File › Utilities › Export › Lists to IIF Files" in text  # what to export instead
    assert "Tell it which column is which" not in text
    assert client.get(f"{prefix}/files/{name}/columns").status_code == 404
    assert "has-errors" in card["class"]


@pytest.mark.parametrize("titles", [True, False])  # (without: told by its own group rows)
@pytest.mark.parametrize(
    ("report", "title"), [("pnl", "Profit & Loss"), ("balance", "Balance Sheet")]
)
def test_a_report_of_totals_only_is_named_and_explained(client, tmp_path, report, title, titles):
    company = make_company(80, seed=3)
    path = company.write_summary_csv(tmp_path / f"{report}.csv", report, titles=titles)
    assert (title in path.read_text(encoding="utf-8")) is titles
    truth = summary_truth(company, report)
    text = path.read_text(encoding="utf-8")
    assert truth and all(company.labels()[a] in text for a in truth)  # it is the real thing
    prefix, csrf = new_migration(client)
    upload(client, prefix, csrf, path.name, data=path.read_bytes())
    card, said = _card(client, prefix, path.name)
    assert card.select_one(".kind").text == "Totals only"
    assert f"this is a {title} report: it holds only a total per account" in said
    assert "Reports › Accountant & Taxes › Trial Balance" in said
    assert "Reports › Accountant & Taxes › Journal" in said
    assert "Tell it which column is which" not in said
    # the command line reads files the same way: the same words
    ledger = read_one(path, ReadOptions())
    assert ledger.files[0].kind == "Totals only" and not ledger.accounts


@pytest.mark.parametrize(
    "data",
    [
        b"When,Where,How much,Note\r\n01/02/2024,Checking,-25.00,fee\r\n",
        # three columns by semicolons, the comma the decimal mark: not "two columns"
        b"Wann;Konto;Betrag\r\n01.02.2024;Checking;-25,00\r\n",
    ],
)
def test_a_report_with_columns_to_map_is_still_offered_the_mapping(client, data):
    prefix, csrf = new_migration(client)
    upload(client, prefix, csrf, "odd.csv", data=data)
    _, text = _card(client, prefix, "odd.csv")
    assert "Tell it which column is which" in text and "Not understood" in text


def test_the_same_content_under_another_name_is_said_on_its_card(client):
    prefix, csrf = new_migration(client)
    lists = (WEB / "lists.iif").read_bytes()
    upload(client, prefix, csrf, "lists.iif")
    r = upload(client, prefix, csrf, "lists copy.iif", data=lists)
    assert r.status_code == 200
    part = soup(r)
    twin = part.select_one("article[data-filename='lists_copy.iif'] .twin")
    assert twin is not None and "exactly the same as lists.iif" in twin.text
    assert part.select_one("article[data-filename='lists.iif'] .twin") is None
    # the Preview says the copy's records as findings of one kind (one line per kind of
    # record: accounts, customers...), not one line each
    page = soup(client.get(f"{prefix}/preview"))
    again = [li for li in page.select("#problem-list > li") if "appears again" in li.text]
    counts = [int(li.select_one(".count").text.split()[0]) if "many" in li["class"] else 1
              for li in again]  # fmt: skip
    accounts = next(li for li in again if "account “Checking” appears again" in li.text)
    assert "many" in accounts["class"]
    assert len(again) < sum(counts), [li.text for li in again]


def test_a_refused_upload_is_said_in_the_files_region_without_the_old_added(client):
    prefix, csrf = new_migration(client)
    first = soup(upload(client, prefix, csrf, "lists.iif"))
    assert "Added lists.iif." in first.select_one("#files .message.ok").text
    again = upload(client, prefix, csrf, "lists.iif")
    assert again.status_code == 409
    assert "HX-Retarget" not in again.headers  # the files region itself, not the page's top
    part = soup(again)
    assert part.select_one("section#files") is not None
    assert "lists.iif is already uploaded" in part.select_one("#files .message.error").text
    assert part.select_one("#files .message.ok") is None  # no "Added" left from before
    assert len(part.select("article.file")) == 1

"""Step 2, Preview: the chart and transaction tables, search, pagination, problems linked to
their rows.

Through Flask's test client with real files and the real app; pages are checked by element id
and text with BeautifulSoup, and htmx requests (``HX-Request``) must get the swapped region alone.
"""

from __future__ import annotations

from tests.support.web import HX, is_fragment, new_migration, soup, upload


def test_preview_tables_and_search(client):
    prefix, csrf = new_migration(client)
    upload(client, prefix, csrf, "lists.iif", "txns.iif")
    page = soup(client.get(f"{prefix}/preview"))
    rows = {
        tr["data-account"]: [td.text.strip() for td in tr.select("td")]
        for tr in page.select("#account-table tbody tr")
    }
    assert list(rows) == ["Checking", "Opening Bal Equity", "Sales", "Utilities", "Utilities:Gas"]
    assert rows["Utilities:Gas"] == ["Gas", "7751", "expense", "EXP", "25.00", "1", ""]
    assert rows["Checking"][2:6] == ["bank", "BANK", "75.00", "2"]
    assert len(page.select("#txn-table tbody.txn")) == 2
    assert page.select_one("#customers").text.count("Ann Smith") == 1
    r = client.get(f"{prefix}/transactions", query_string={"q": "february"}, headers=HX)
    assert is_fragment(r)
    groups = soup(r).select("tbody.txn")
    assert len(groups) == 1 and "February gas" in groups[0].text
    r = client.get(f"{prefix}/transactions", query_string={"q": "txns.iif:8"}, headers=HX)
    assert [g["id"] for g in soup(r).select("tbody.txn")] == ["src-txns_iif-7"]
    r = client.get(f"{prefix}/transactions", query_string={"q": "x"})
    assert r.status_code == 302 and "/preview?q=x" in r.location


def test_problems_link_to_their_rows(client):
    prefix, csrf = new_migration(client)
    upload(client, prefix, csrf, "lists.iif", "unknown_account.iif")
    page = soup(client.get(f"{prefix}/preview"))
    items = page.select("#problem-list li.error")
    heating = next(li for li in items if "Heating Oil" in li.text)
    assert heating.select_one("a.where").text == "unknown_account.iif:5"
    assert heating.select_one("a.where")["href"].endswith(
        "preview?q=unknown_account.iif:5#transactions"
    )
    warnings = page.select("#problem-list li.warning")
    checking = next(li for li in warnings if "Checking: QuickBooks balance" in li.text)
    assert checking.select_one("a.where")["href"].endswith("#src-lists_iif-4")
    assert page.select_one("#src-lists_iif-4")["data-account"] == "Checking"


def test_many_transactions_are_paginated(client, tmp_path):
    from tests.support.companygen import make_company

    company = make_company(transactions=130, seed=3)
    prefix, csrf = new_migration(client)
    lists = company.write_lists_iif(tmp_path / "lists.iif").read_bytes()
    detail = company.write_transaction_detail_csv(tmp_path / "detail.csv").read_bytes()
    upload(client, prefix, csrf, "lists.iif", data=lists)
    upload(client, prefix, csrf, "detail.csv", data=detail)
    page = soup(client.get(f"{prefix}/preview", query_string={"page": "3"}))
    assert len(page.select("#txn-table tbody.txn")) == 30
    assert "Page 3 of 3" in page.select_one(".pager").text
    r = client.get(f"{prefix}/transactions", query_string={"page": "99"}, headers=HX)
    assert "Page 3 of 3" in soup(r).select_one(".pager").text
    client.application.config["TRANSACTIONS_PER_PAGE"] = 100  # the setting is the page size
    r = client.get(f"{prefix}/transactions", query_string={"page": "2"}, headers=HX)
    assert len(soup(r).select("#txn-table tbody.txn")) == 30
    assert "Page 2 of 2" in soup(r).select_one(".pager").text and "Showing 101–130" in r.text


def test_unknown_split_accounts_are_marked_in_the_preview(client):
    prefix, csrf = new_migration(client)
    upload(client, prefix, csrf, "lists.iif", "unknown_account.iif")
    cells = soup(client.get(f"{prefix}/preview")).select("#txn-table td.account.bad")
    assert [c.text.split()[0:2] for c in cells] == [["Heating", "Oil"]]

"""Items and sales tax in the wizard: a generated company with items and two-agency sales tax
uploaded; the Preview's "Items and sales tax" tab (the tables to be made, invoices opening on
their lines), the Map step's choice saved in the plan, the import, the Download step's sales tax
proof and its CSV, the audit pack's tax.csv and items.csv.

Real app and files through Flask's test client; pages checked by element id with BeautifulSoup.
"""

from __future__ import annotations

import csv
import io
import json
import zipfile
from pathlib import Path

import pytest
from bs4 import BeautifulSoup

from tests.support.companygen import make_company
from tests.support.web import HX, new_migration, soup, upload, wait_done


@pytest.fixture(scope="module")
def exports(tmp_path_factory):
    company = make_company(700, seed=33, items=True, documents=True)
    folder = tmp_path_factory.mktemp("web-tax")
    return company, [
        company.write_lists_iif(folder / "lists.iif"),
        company.write_transaction_detail_csv(folder / "detail.csv"),
        company.write_sales_tax_liability_csv(folder / "sales_tax.csv"),
    ]


def _settings(client, prefix, csrf, sales_tax: str):
    data = {"currency": "USD", "format": "xml", "mode": "full", "documents": "all"}
    data["sales_tax"] = sales_tax
    return client.post(f"{prefix}/map/settings", data=data, headers=csrf | HX)


def test_preview_map_import_download(client, exports) -> None:
    company, files = exports
    prefix, csrf = new_migration(client)
    for f in files:
        assert upload(client, prefix, csrf, f.name, data=f.read_bytes()).status_code == 200
    # Preview: the tab, the tables to be made, invoices opening on their lines
    page = soup(client.get(f"{prefix}/preview"))
    assert page.select_one('nav.tabs a[href="#sales-tax"]').text == (
        "Items and sales tax (4 tax tables)"
    )
    section = page.select_one("#sales-tax")
    rows = {
        tr.select("td")[0].text: [td.text for td in tr.select("td")]
        for tr in section.select("#tax-tables tbody tr")
    }
    assert rows["Bayshore"][1:5] == [
        "7.25 %",
        "State 6 % + County 1.25 %",
        "Sales Tax Payable",
        "State Board of Equalization, County Tax Collector",
    ]
    assert rows["GST"][3:5] == ["GST Payable", "Tax Office"]
    assert int(rows["State"][5]) > 0 and int(rows["Bayshore"][5]) > 0
    summary = section.select_one("#sales-tax-summary").text
    assert summary.startswith("Sales tax: 4 GnuCash tax tables (State, County, GST, Bayshore)")
    assert "Inventory: 1 inventory item (Pump)" in section.text
    invoice = section.select_one("#tax-invoices details.invoice")
    heads = [th.text for th in invoice.select("thead th")]
    assert heads == ["Item", "Description", "Qty", "Rate", "Amount", "Tax"]
    assert invoice.select("tbody tr") and invoice.select_one("tbody td").text in (
        "Design", "Labor", "Materials", "Fertilizer", "Seed:Grass", "Pump", "Delivery",
    )  # fmt: skip
    # Map: the choice saved and shown; a bad value refused
    r = _settings(client, prefix, csrf, "lines")
    assert r.status_code == 200
    assert soup(r).select_one('#sales-tax-setting input[value="lines"]')["checked"] is not None
    assert json.loads(client.get(f"{prefix}/plan.json").data)["sales_tax"] == "lines"
    lines = soup(client.get(f"{prefix}/preview")).select_one("#sales-tax-summary").text
    assert lines.startswith("Sales tax: as plain lines on every invoice")
    assert _settings(client, prefix, csrf, "sometimes").status_code == 422
    _settings(client, prefix, csrf, "tables")
    # Import, then Download: the sales tax part, its CSV, the audit pack
    assert client.post(f"{prefix}/import", headers=csrf | HX).status_code == 200
    assert wait_done(client, prefix).select_one("#to-download") is not None
    page = soup(client.get(f"{prefix}/download"))
    line = page.select_one("#sales-tax-line")
    assert "ok" in line["class"] and line.text.endswith("match QuickBooks")
    agencies = {
        tr.select("td")[0].text: tr.select("td")[4].text
        for tr in page.select("#sales-tax-agencies tbody tr")
    }
    assert set(agencies.values()) == {"the Sales Tax Liability report"}
    owed = company.tax.liability(company, company.export_date)
    for agency, value in owed.items():
        if agency:
            row = page.select_one("#sales-tax-agencies").find("td", string=agency).parent
            assert row.select("td")[2].text == f"{value:,.2f}"
    with client.get(page.select_one("#download-tax")["href"]) as r:
        assert r.status_code == 200 and r.mimetype == "text/csv"
        report = list(csv.DictReader(r.get_data(as_text=True).splitlines()))
    assert {row["difference"] for row in report} == {"0.00"}
    with client.get(page.select_one("#download-audit")["href"]) as r:
        pack = zipfile.ZipFile(io.BytesIO(r.data))
    root = pack.namelist()[0].split("/")[0]
    assert list(csv.DictReader(pack.read(f"{root}/tax.csv").decode().splitlines())) == report
    items = list(csv.DictReader(pack.read(f"{root}/items.csv").decode().splitlines()))
    pump = next(i for i in items if i["name"] == "Pump")
    assert (pump["type"], pump["quantity_on_hand"], pump["asset_account"]) == (
        "inventory part",
        "48",
        "Inventory Asset",
    )
    readme = pack.read(f"{root}/README.txt").decode()
    assert "tax.csv: " in readme and "items.csv: " in readme
    printed = BeautifulSoup(pack.read(f"{root}/report.html").decode(), "html.parser")
    assert printed.select_one("#sales-tax-line").text == line.text
    book = next(Path(client.application.config["MIGRATIONS_DIR"]).rglob("out/*.gnucash"))
    assert book.is_file()

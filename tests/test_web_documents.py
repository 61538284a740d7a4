"""Invoices and bills in the wizard: a generated company with documents uploaded, the Preview's
"Invoices and bills" section, the Map step's choice saved in the plan, the import, the Download
step's documents part of the proof and its CSV; the book written is reopened through GnuCash.

Real app and files through Flask's test client; pages checked by element id with BeautifulSoup.
"""

from __future__ import annotations

import csv
import io
import json
import re
import zipfile
from decimal import Decimal as D
from pathlib import Path

import pytest
from bs4 import BeautifulSoup

from app import csvsafe
from tests.support.companygen import make_company
from tests.support.web import HX, new_migration, soup, upload, wait_done


@pytest.fixture(scope="module")
def exports(tmp_path_factory) -> tuple[object, list[Path]]:
    company = make_company(900, seed=31, documents=True)
    folder = tmp_path_factory.mktemp("web-docs")
    return company, [
        company.write_lists_iif(folder / "lists.iif"),
        company.write_transaction_detail_csv(folder / "detail.csv"),
        company.write_open_invoices_csv(folder / "open_invoices.csv"),
        company.write_unpaid_bills_csv(folder / "unpaid_bills.csv"),
    ]


def _migration(client, files: list[Path]) -> tuple[str, dict[str, str]]:
    prefix, csrf = new_migration(client)
    for f in files:
        assert upload(client, prefix, csrf, f.name, data=f.read_bytes()).status_code == 200
    return prefix, csrf


def _settings(client, prefix, csrf, documents: str):
    data = {"currency": "USD", "format": "xml", "mode": "full", "documents": documents}
    return client.post(f"{prefix}/map/settings", data=data, headers=csrf | HX)


def test_preview_map_import_download(client, exports) -> None:
    from app import gnc

    company, files = exports
    prefix, csrf = _migration(client, files)
    # Preview: the section with the counts, the open balances and where they come from
    page = soup(client.get(f"{prefix}/preview"))
    section = page.select_one("#documents")
    documents = sum(1 for t in company.history if t.type in ("Invoice", "Credit Memo", "Bill",
                                                                "Credit"))  # fmt: skip
    still_open = sum(
        1
        for t in company.history
        if t.type in ("Invoice", "Credit Memo", "Bill", "Credit")
        and company.open_amounts[t.trans_no]
    )
    summary = section.select_one("#documents-summary").text
    assert re.fullmatch(
        rf"Invoices and bills: {documents:,} \({still_open:,} open\), payments [\d,]+\.", summary
    )
    assert "Open Invoices / Unpaid Bills report" in section.text
    customers = section.select("#open-customers tbody tr")
    assert customers and section.select("#open-vendors tbody tr")
    assert (
        page.select_one('nav.tabs a[href="#documents"]').text
        == f"Invoices and bills ({documents:,})"
    )
    # Map: the choice is saved in the plan and shown checked
    r = _settings(client, prefix, csrf, "open")
    assert r.status_code == 200
    assert soup(r).select_one('#documents-setting input[value="open"]')["checked"] is not None
    assert json.loads(client.get(f"{prefix}/plan.json").data)["documents"] == "open"
    opened = soup(client.get(f"{prefix}/preview"))
    assert "become GnuCash documents" in opened.select_one("#documents-summary").text
    assert "every one in the history" in opened.select_one("#documents-counted").text
    assert section.select_one("#documents-counted") is None  # "all": they are the book's
    r = _settings(client, prefix, csrf, "none")
    assert soup(client.get(f"{prefix}/preview")).select_one("#documents-none")
    assert _settings(client, prefix, csrf, "sometimes").status_code == 422
    assert json.loads(client.get(f"{prefix}/plan.json").data)["documents"] == "none"
    _settings(client, prefix, csrf, "all")
    # Import, then Download: the documents line, the counts and the CSV
    assert client.post(f"{prefix}/import", headers=csrf | HX).status_code == 200
    assert wait_done(client, prefix).select_one("#to-download") is not None
    page = soup(client.get(f"{prefix}/download"))
    line = page.select_one("#documents-line")
    want = (
        rf"{documents:,} invoices and bills, open balances of \d+ customers, \d+ jobs and "
        r"\d+ vendors "
    )
    assert re.fullmatch(want + "match QuickBooks", line.text), line.text
    assert "ok" in line["class"] and "ok" in page.select_one("#summary-line")["class"]
    assert not page.select("#documents-differences")
    # what is in the book is counted as the checks count it (payments cut per document paid)
    counted = {
        div.dt.text: int(div.dd.text.replace(",", ""))
        for div in page.select("#imported dl.facts div")
    }
    checks = {li.text.split(":")[0]: li.text for li in page.select("#checks li")}
    lines = re.search(
        r"GnuCash book ([\d,]+)", checks["transaction lines (GnuCash calls them splits)"]
    )
    assert counted["Transaction lines (splits)"] == int(lines.group(1).replace(",", ""))
    txns = re.search(r"GnuCash book ([\d,]+)", checks["transactions"])
    assert counted["Transactions"] == int(txns.group(1).replace(",", ""))
    with client.get(page.select_one("#download-documents")["href"]) as r:
        assert r.status_code == 200 and r.mimetype == "text/csv"
        assert "-documents.csv" in r.headers["Content-Disposition"]
        rows = list(csv.DictReader(r.get_data(as_text=True).splitlines()))
    assert rows and {row["difference"] for row in rows} == {"0.00"}
    # the audit pack holds the same documents CSV and the documents part of the printable page
    with client.get(page.select_one("#download-audit")["href"]) as r:
        pack = zipfile.ZipFile(io.BytesIO(r.data))
    root = pack.namelist()[0].split("/")[0]
    assert pack.read(f"{root}/documents.csv").decode().splitlines()[1:] == [
        csvsafe.line(row.values()) for row in rows
    ]
    printed = BeautifulSoup(pack.read(f"{root}/report.html").decode(), "html.parser")
    assert printed.select_one("#documents-line").text == line.text
    assert "documents.csv: " in pack.read(f"{root}/README.txt").decode()
    # the book itself: every document, with the generator's open amount
    book = next(Path(client.application.config["MIGRATIONS_DIR"]).rglob("out/*.gnucash"))
    back = gnc.read_documents(book)
    assert len(back.documents) == documents
    assert sum(1 for d in back.documents if d.open) == still_open
    owed = {(row["kind"], row["owner"]): D(row["gnucash_open"]) for row in rows}
    assert owed == {k: v.quantize(D("0.01")) for k, v in back.owner_open.items()}


def test_no_documents_no_section_and_no_csv(client, exports) -> None:
    _company, files = exports
    prefix, csrf = _migration(client, files)
    _settings(client, prefix, csrf, "none")
    assert client.post(f"{prefix}/import", headers=csrf | HX).status_code == 200
    assert wait_done(client, prefix).select_one("#to-download") is not None
    page = soup(client.get(f"{prefix}/download"))
    assert page.select_one("#documents") is None
    assert client.get(f"{prefix}/download/documents.csv").status_code == 404
    with client.get(f"{prefix}/download/audit.zip") as r:
        assert not [n for n in zipfile.ZipFile(io.BytesIO(r.data)).namelist() if "documents" in n]

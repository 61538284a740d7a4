"""Issue 26 in the wizard: Trial Balance reports of every year end, a Reconciliation Summary and
the Memorized Transaction List uploaded beside the lists (with budgets) and the history; the
Download page says every year end matches and shows the table, the audit pack holds years.csv
and lists what was not imported. Real app, real worker and engine; the book is reopened."""

from __future__ import annotations

import csv
import datetime as dt
import io
import zipfile

from app import gnc
from app.model import money
from tests.support.companygen import make_company
from tests.support.web import HX, new_migration, soup, upload, wait_done


def test_every_year_on_the_download_page_and_in_the_audit_pack(client, tmp_path) -> None:
    company = make_company(
        260, seed=6, years=4, exported=dt.date(2023, 2, 28), budgets=True, memorized=True
    )
    files = company.write_all(tmp_path)
    paths = [files["lists"], files["journal"]]
    paths += [
        company.write_trial_balance_csv(tmp_path / f"tb-{d}.csv", as_of=d)
        for d in company.year_ends()
    ]
    statement = company.statement("Checking", all_cleared=True)
    paths.append(company.write_reconciliation_csv(tmp_path / "rec.csv", [statement]))
    paths.append(company.write_memorized_csv(tmp_path / "mem.csv"))
    prefix, csrf = new_migration(client)
    for p in paths:
        upload(client, prefix, csrf, p.name, data=p.read_bytes())
    kinds = [k.text for k in soup(client.get(f"{prefix}/files")).select("#files .kind")]
    first = company.year_ends()[0]
    assert f"CSV Trial Balance as of {first} (a proof of that date)" in kinds  # its day said
    assert client.post(f"{prefix}/import", headers=csrf | HX).status_code == 200
    panel = wait_done(client, prefix)
    assert panel.select_one("#job")["data-state"] == "done"

    page = soup(client.get(f"{prefix}/download"))
    years = page.select_one("#years")
    lines = [p.text for p in years.select(".extras-line")]
    assert lines[0].startswith("Every year end from 2019 to 2022 matches QuickBooks' trial balance")
    # the table's figures signed as the side-by-side table's: income positive
    table = page.select_one("#years-table")
    sales = next(tr for tr in table.select("tbody tr") if tr.td.text == "Retail Sales")
    assert not any(td.text.startswith("-") for td in sales.select("td.num") if td.text)
    assert any(line.startswith("Budgets: ") for line in lines)
    reconciled = next(line for line in lines if line.startswith("Reconciliations: "))
    assert reconciled.startswith("Reconciliations: the last reconcile date of 1 account")
    # with the figures to check: the statement's account, date and ending balance
    assert reconciled.endswith(f"(Checking, {statement.date}, {money(statement.balance)})."), (
        reconciled
    )
    heads = [th.text.strip() for th in years.select("#years-table thead th")]
    assert heads == ["GnuCash account", *(str(d) for d in company.year_ends())]
    cells = {tr.select("td")[0].text: tr for tr in years.select("#years-table tbody tr")}
    rent = [td.text for td in cells["Rent"].select("td")[1:]]
    assert rent == [f"{company.trial_balance(d)['Rent']:,.2f}" for d in company.year_ends()]
    not_imported = page.select_one("#not-imported").text
    assert "Memorized transactions" in not_imported and "Budgets" not in not_imported

    with client.get(page.select_one("#download-audit")["href"]) as r:
        zf = zipfile.ZipFile(io.BytesIO(r.data))
        members = {n.split("/", 1)[1]: zf.read(n) for n in zf.namelist()}
    table = list(csv.reader(members["years.csv"].decode().splitlines()))
    assert table[0][:4] == [
        "account",
        "2019-12-31 quickbooks",
        "2019-12-31 gnucash",
        "2019-12-31 difference",
    ]
    assert all(row[3::3] == ["0.00"] * len(company.year_ends()) for row in table[1:])
    assert "years.csv: every account at every year end" in members["README.txt"].decode()
    left = list(csv.DictReader(members["not_imported.csv"].decode().splitlines()))
    assert {n["name"] for n in left if n["what"] == "Memorized transactions"} >= {"Office cleaning"}
    book = tmp_path / "book.gnucash"
    book.write_bytes(next(v for k, v in members.items() if k.endswith(".gnucash")))
    back = gnc.read_book(book)
    assert {s.name for s in back.schedules} == {"Monthly rent", "Loan payment"}
    assert [(r.account, r.last_date) for r in back.reconciled] == [("Checking", statement.date)]
    assert len(back.budgets) == len({(b.start, b.klass, b.customer) for b in company.budgets})

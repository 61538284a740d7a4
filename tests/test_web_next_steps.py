"""After Download, "What to do in GnuCash next" (issue 27, item 9): a printable page, also in the
audit pack, whose figures are the generator's truth: the accounting period, every account's
Trial Balance figure as GnuCash's own report shows it (run with gnucash-cli on the book) and
QuickBooks' beside it where that differs, with why; each customer's and vendor's open balance
for the aging reports, the bank and card accounts' last QuickBooks statements, QuickBooks' last
invoice and bill numbers. Through the real app and engine; the book downloaded is reopened. A
book that does not match QuickBooks says so at the top of the page."""

from __future__ import annotations

import datetime as dt
import io
import re
import zipfile
from collections import defaultdict
from decimal import Decimal

import pytest
from bs4 import BeautifulSoup

from app.gnc import read_book
from app.model import money
from tests.support.companygen import COMPANY_NAME, make_company
from tests.support.companygen_docs import open_items
from tests.support.gnucash_reports import trial_balance
from tests.support.web import HX, new_migration, soup, upload, wait_done

CARD = "CalOil Card"


@pytest.fixture(scope="module")
def company_files(tmp_path_factory):
    company = make_company(400, seed=31, documents=True)
    folder = tmp_path_factory.mktemp("next-steps")
    statements = [company.statement("Checking"), company.statement(CARD)]
    return (
        company,
        statements,
        [
            company.write_lists_iif(folder / "lists.iif"),
            company.write_transaction_detail_csv(folder / "detail.csv"),
            company.write_open_invoices_csv(folder / "open_invoices.csv"),
            company.write_unpaid_bills_csv(folder / "unpaid_bills.csv"),
            company.write_reconciliation_csv(folder / "reconciliation.csv", statements),
        ],
    )


def _number(num: str) -> int:
    return int(re.sub(r"\D", "", num))


def test_the_next_steps_give_the_generators_figures(client, company_files, tmp_path):
    company, statements, files = company_files
    prefix, csrf = new_migration(client)
    for f in files:
        assert upload(client, prefix, csrf, f.name, data=f.read_bytes()).status_code == 200
    assert client.post(f"{prefix}/import", headers=csrf | HX).status_code == 200
    assert wait_done(client, prefix, timeout=300).select_one("#job")["data-state"] == "done"

    download = soup(client.get(f"{prefix}/download"))
    link = download.select_one("#next-steps-card #to-next-steps")
    page = soup(client.get(link["href"]))
    assert page.select_one("#next-title").text == f"What to do in GnuCash next: {COMPANY_NAME}"
    assert page.select_one("#back-to-download")["href"] == f"{prefix}/download"
    assert COMPANY_NAME in page.select_one("#step-company").text
    assert "Green-Valley-Landscaping-Inc.gnucash" in page.select_one("#step-open").text
    assert "GnuCash 4." in page.select_one("#version-note").text or "GnuCash 5." in (
        page.select_one("#version-note").text
    )

    # the accounting period: the fiscal year holding the export date
    begin = company.fiscal_year_begin()
    period = page.select_one("#step-period").text
    assert f"start {begin.isoformat()}" in period
    end = begin.replace(year=begin.year + 1) - dt.timedelta(days=1)
    assert f"end {end.isoformat()}" in period
    assert company.export_date.isoformat() in period

    # GnuCash's own menus (4.13 and 5.x: their ui files) and what each report counts
    trial_step = page.select_one("#step-trial-balance").text
    assert "Reports › Income & Expense › Trial Balance" in trial_step
    assert f"Profit & Loss (Edit › Report Options › General: Start Date {begin}" in trial_step
    # the Trial Balance: GnuCash's figures (checked against its own report below) and, where
    # QuickBooks' Trial Balance shows another, QuickBooks' figure with why; the book matches
    assert page.select_one("#not-matching") is None
    truth = {
        a: v
        for a, v in company.trial_balance().items()
        if v and company.account_type(a) != "NONPOSTING"
    }
    rows, quickbooks, whys = {}, {}, {}
    for tr in page.select("#expect-trial tbody tr"):
        cells = tr.select("td")
        account = cells[0].text.strip()
        rows[account] = (cells[1].text, cells[2].text)
        quickbooks[account] = cells[3].text
        if (why := cells[3].select_one(".hint")) and why.text != "the same":
            whys[account] = why.text
    for account, value in truth.items():
        shown = money(abs(value)) + (" debit" if value > 0 else " credit")
        as_qb = (money(value) if value > 0 else "", money(-value) if value < 0 else "")
        if quickbooks[account] == "the same":  # the same figure in both reports
            assert rows[account] == as_qb, account
        else:  # QuickBooks' own, and why it is not GnuCash's
            assert quickbooks[account].startswith(shown), (account, quickbooks[account])
            assert rows[account] != as_qb, account
    assert whys, "a company with earlier years shows some QuickBooks figures apart"
    assert all(
        w.startswith(f"this fiscal year's only: GnuCash's Profit & Loss from {begin}")
        for a, w in whys.items()
        if a != "Retained Earnings"
    ), whys
    assert whys["Retained Earnings"].startswith("with the ")
    assert f"net income of the years before {begin}" in whys["Retained Earnings"]
    assert set(quickbooks) >= set(truth)
    assert page.select_one("#expect-debit").text == page.select_one("#expect-credit").text

    # the aging reports: each customer's and vendor's open balance, and the totals
    owed: dict[tuple[str, str], Decimal] = defaultdict(Decimal)
    for side, owner, _t, amount in open_items(company):
        owed[side, owner] += amount
    shown = {
        (tr.select("td")[1].text, tr.select("td")[0].text): tr.select("td")[2].text
        for tr in page.select("#expect-owners tbody tr")
    }
    assert shown == {k: money(v) for k, v in owed.items() if v}
    receivable = sum(v for (side, _), v in owed.items() if side == "customer")
    assert page.select_one("#expect-receivable").text == money(receivable)
    # GnuCash's own aging reports, as they show them (their columns against gnucash-cli:
    # test_gnucash_aging_report): a row per customer, its jobs in, what it owes in all
    by_customer: dict[tuple[str, str], Decimal] = defaultdict(Decimal)
    for (side, owner), v in owed.items():
        by_customer[side, owner.split(":")[0]] += v
    for side in ("customer", "vendor"):
        table = page.select_one(f"#expect-aging-{side}")
        totals = {tr.select("td")[0].text: tr.select("td")[-1].text for tr in table("tr")[1:-1]}
        assert totals == {o: money(v) for (k, o), v in by_customer.items() if k == side and v}
        assert "one day older than QuickBooks" in table.find_previous("p").text

    # the first reconciliation: QuickBooks' last statements, the accounts without one said
    banks = {
        tr.select("td")[0].text: (tr.select("td")[1].text, tr.select("td")[2].text)
        for tr in page.select("#expect-banks tbody tr")
    }
    for s in statements:
        assert banks[s.account] == (s.date.isoformat(), money(s.balance)), s.account
    assert banks["Savings"] == ("not given", "")
    assert page.select_one("#no-statement") is not None

    # the next invoice: QuickBooks' last invoice number
    invoices = [t.num for t in company.history if t.type == "Invoice" and t.num]
    assert page.select_one("#last-invoice").text == max(invoices, key=_number)
    # a bill's number is the vendor's: no counter is suggested for it, its place is said
    assert page.select_one("#last-bill") is None
    assert "the vendor's invoice number, QuickBooks' Ref. No., goes in the bill's Billing ID" in (
        page.select_one("#step-invoice").text
    )

    # the audit pack holds the same page, without the way back to the wizard
    with client.get(download.select_one("#download-audit")["href"]) as r:
        pack = zipfile.ZipFile(io.BytesIO(r.data))
        root = "Green-Valley-Landscaping-Inc-audit/"
        packed = BeautifulSoup(pack.read(root + "next-steps.html").decode(), "html.parser")
        readme = pack.read(root + "README.txt").decode()
        assert "next-steps.html: what to do in GnuCash next" in readme
        book = tmp_path / "book.gnucash"
        book.write_bytes(pack.read(root + "Green-Valley-Landscaping-Inc.gnucash"))
    assert packed.select_one("#back-to-download") is None
    assert not re.search(r"(src|href)=|<script|<link", str(packed))
    assert packed.select_one("#expect-trial").text == page.select_one("#expect-trial").text

    snap = read_book(book)
    for account, value in truth.items():
        if company.account_type(account) in ("BANK", "AR", "AP", "CCARD"):
            assert snap.account(account).balance == value, account

    # GnuCash's own Trial Balance report on the book (gnucash-cli, its default Date of Report:
    # this year's end, after every transaction the company has) shows the page's figures
    assert max(d for a in snap.accounts for d, _v in a.daily) <= company.export_date
    gnucash = trial_balance(book, tmp_path / "home")
    expected = {
        a: Decimal(d.replace(",", "")) if d else -Decimal(c.replace(",", ""))
        for a, (d, c) in rows.items()
        if d or c
    }
    assert gnucash.nonzero() == expected
    assert money(gnucash.total_debit) == page.select_one("#expect-debit").text


def test_a_book_written_before_gnucashs_figures_were_listed_says_so(client, company_files):
    """next_steps.json of a book written before the table held GnuCash's own figures (no "why"
    per row): the page says the figures are QuickBooks' and how to have GnuCash's."""
    import json

    from app.audit import NEXT_STEPS_JSON

    _company, _statements, files = company_files
    prefix, csrf = new_migration(client)
    for f in files[:2]:
        assert upload(client, prefix, csrf, f.name, data=f.read_bytes()).status_code == 200
    assert client.post(f"{prefix}/import", headers=csrf | HX).status_code == 200
    assert wait_done(client, prefix, timeout=300).select_one("#job")["data-state"] == "done"
    store = client.application.extensions["store"]
    kept = store.open(prefix.rsplit("/", 1)[1]).out_dir / NEXT_STEPS_JSON
    steps = json.loads(kept.read_text())
    for row in steps["trial"]:
        for key in ("why", "quickbooks", "earlier_income"):
            row.pop(key, None)
    kept.write_text(json.dumps(steps))
    page = soup(client.get(f"{prefix}/download/next-steps"))
    said = page.select_one("#step-trial-balance").text
    assert "These are QuickBooks' Trial Balance figures: this book was written before" in said
    assert "Expect these figures" not in said
    assert not [td for td in page.select("#expect-trial td.quickbooks") if td.text.strip()]

"""Try it first (issue 27, item 8): "Use a sample company" on the home page makes a migration
holding the sample company's exports (app/sample/, written by the project's generator and
checked here byte for byte against it), named after it; the Files step's export checklist
ticks each export as its file arrives; the sample converts to a book matching QuickBooks, which
is reopened and checked against the generator's truth."""

from __future__ import annotations

import io

from app import sample
from app.gnc import read_book
from tests.support.companygen import COMPANY_NAME, make_company
from tests.support.sample import (
    SEED,
    TRANSACTIONS,
    in_the_black,
    lowest_balances,
    sample_company,
    write_sample,
)
from tests.support.web import HX, new_migration, soup, token, upload, wait_done


def test_the_sample_kept_is_what_the_generator_writes(tmp_path):
    written = write_sample(tmp_path)
    assert [p.name for p in written] == list(sample.FILES)
    for path in written:
        assert (sample.FOLDER / path.name).read_bytes() == path.read_bytes(), path.name


def test_the_sample_s_bank_accounts_are_never_overdrawn():
    """A newcomer reads Checking with a credit balance as an error: the sample opens its bank
    accounts with enough money that none ever goes below zero (the generator's other
    companies stay as it makes them)."""
    company = sample_company()
    lowest = lowest_balances(company)
    assert set(lowest) == {"Checking", "Savings", "Barter Account"}
    assert all(low >= 0 for low in lowest.values()), lowest
    assert company.trial_balance()["Checking"] > 0
    plain = make_company(TRANSACTIONS, seed=SEED, documents=True)
    assert lowest_balances(plain)["Checking"] < 0  # what the sample changes
    assert in_the_black(company) is company  # nothing more to change


def test_use_a_sample_company_walks_to_a_book_named_after_it(client, tmp_path):
    home = soup(client.get("/"))
    form = home.select_one("#try-sample form")
    assert home.select_one("#use-sample").text == "Use a sample company"
    r = client.post(form["action"], data={"csrf_token": token(client)})
    assert r.status_code == 303 and r.location.endswith("/files")
    prefix = r.location.removesuffix("/files")
    page = soup(client.get(r.location))
    assert [a["data-filename"] for a in page.select("article.file")] == list(sample.FILES)
    assert page.select_one("#company-name")["value"] == COMPANY_NAME
    ticked = {li["id"] for li in page.select("#checklist li.done")}
    assert ticked == {
        "export-lists",
        "export-history",
        "export-open_invoices",
        "export-unpaid_bills",
        "export-reconciliation",
    }
    assert page.select_one("#checklist li#export-trial_balance")["class"] == ["todo"]
    # the open-items reports' cards count what the Preview counts: documents, payments apart
    counts = {}
    for name in ("open_invoices.csv", "unpaid_bills.csv"):
        card = page.select_one(f"article[data-filename='{name}']")
        counts[name] = {
            d.select_one("dt").text: int(d.select_one("dd").text.replace(",", ""))
            for d in card.select("dl div")
            if d.select_one("dd").text.replace(",", "").isdigit()
        }
    assert set(counts["open_invoices.csv"]) == {
        "Open invoices and credits",
        "Payments not yet applied",
    }
    assert set(counts["unpaid_bills.csv"]) == {
        "Unpaid bills and credits",
        "Payments not yet applied",
    }
    open_docs = counts["open_invoices.csv"]["Open invoices and credits"]
    open_docs += counts["unpaid_bills.csv"]["Unpaid bills and credits"]
    said = soup(client.get(r.location.replace("/files", "/preview"))).select_one(
        "#documents-summary"
    )
    assert f"({open_docs} open)" in said.text, said.text
    assert soup(client.get("/")).select_one("#migrations td.company").text.strip() == COMPANY_NAME

    csrf = {"X-CSRF-Token": token(client)}
    assert client.post(f"{prefix}/import", headers=csrf | HX).status_code == 200
    assert wait_done(client, prefix, timeout=300).select_one("#job")["data-state"] == "done"
    checks = [li.text for li in soup(client.get(f"{prefix}/download")).select("#checks > li")]
    assert checks[:3] == [
        "accounts: expected 51, GnuCash book 51 — matches",  # no parent made for the tree
        "transactions: expected 152, GnuCash book 152 — matches (150 from QuickBooks' files + "
        "2 lot-link transactions (credit notes applied) added by qb2gnucash)",
        "transaction lines (GnuCash calls them splits): expected 449, GnuCash book 449 — matches "
        "(434 from QuickBooks' files + 4 lines of the lot-link transactions + 11 A/R and A/P "
        "lines cut out of the payments added by qb2gnucash)",
    ]
    with client.get(f"{prefix}/download/book") as got:
        assert "Green-Valley-Landscaping-Inc.gnucash" in got.headers["Content-Disposition"]
        book = tmp_path / "sample.gnucash"
        book.write_bytes(got.data)
    company = sample_company()
    snap = read_book(book)
    # every transaction, and a lot-link transaction per credit applied (GnuCash's own)
    credits = sum(1 for t in company.history if t.type in ("Credit Memo", "Credit"))
    assert len(company.history) <= snap.transactions <= len(company.history) + credits
    for account, value in company.expected_balances().items():
        if company.account_type(account) != "NONPOSTING":
            assert snap.account(account).balance == value, account
    banks = [a[0] for a in company.accounts if a[1] == "BANK"]
    assert all(snap.account(bank).balance >= 0 for bank in banks)  # money in the bank
    assert snap.account("Checking").balance > 0


def test_the_checklist_ticks_itself_as_files_arrive(client):
    prefix, csrf = new_migration(client)
    page = soup(client.get(f"{prefix}/files"))
    assert page.select("#checklist li.done") == []
    assert "File › Utilities › Export › Lists to IIF Files" in page.select_one("#export-lists").text
    assert "Reports › Accountant & Taxes › Journal" in page.select_one("#export-history").text
    part = soup(upload(client, prefix, csrf, "lists.iif"))
    assert [li["id"] for li in part.select("#checklist li.done")] == ["export-lists"]
    assert "lists.iif" in part.select_one("#export-lists").text
    data = (sample.FOLDER / "open_invoices.csv").read_bytes()
    part = soup(client.post(f"{prefix}/files", headers=csrf | HX,
                            data={"files": [(io.BytesIO(data), "open.csv")]}))  # fmt: skip
    assert [li["id"] for li in part.select("#checklist li.done")] == [
        "export-lists",
        "export-open_invoices",
    ]

"""Step 2, Preview: the chart and transaction tables, search, pagination, problems linked to
their rows.

Through Flask's test client with real files and the real app; pages are checked by element id
and text with BeautifulSoup, and htmx requests (``HX-Request``) must get the swapped region alone.
"""

from __future__ import annotations

import datetime as dt

from tests.paths import ENTERPRISE
from tests.support.web import HX, LETTER, is_fragment, new_migration, soup, upload


def test_preview_tables_and_search(client):
    prefix, csrf = new_migration(client)
    upload(client, prefix, csrf, "lists.iif", "txns.iif")
    page = soup(client.get(f"{prefix}/preview"))
    rows = {
        tr["data-account"]: [td.text.strip() for td in tr.select("td")]
        for tr in page.select("#account-table tbody tr")
    }
    assert list(rows) == ["Checking", "Opening Bal Equity", "Sales", "Utilities", "Utilities:Gas"]
    # QuickBooks' own type names (not its IIF codes); balances as GnuCash's tree shows them:
    # Sales' credit of 100.00 (the file's -100.00) without a minus sign
    assert rows["Utilities:Gas"] == ["Gas", "7751", "Expense", "Expense", "25.00", "", "1"]
    assert rows["Checking"][2:7] == ["Bank", "Bank", "75.00", "", "2"]
    assert rows["Sales"][2:5] == ["Income", "Income", "100.00"]
    assert "neg" not in page.select_one('tr[data-account="Sales"] td.num')["class"]
    assert "without a minus sign" in page.select_one("#chart-sign").text
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


def test_search_finds_dates_as_shown_and_as_quickbooks_writes_them(client):
    """Issue 13, item 31: 2024-02-02 as the table shows it, 2/2/2024 as the file has it; in a
    file read day first, 2/1/2024 is the 2nd of January."""
    prefix, csrf = new_migration(client)
    upload(client, prefix, csrf, "lists.iif", "txns.iif")

    def found(q: str) -> list[str]:
        r = client.get(f"{prefix}/transactions", query_string={"q": q}, headers=HX)
        return [tr.select_one("td").text for tr in soup(r).select("tbody.txn tr.head")]

    assert found("2024-02-02") == found("2/2/2024") == found("02/02/24") == ["2024-02-02"]
    assert found("2/1/2024") == ["2024-02-01"]
    assert len(found("2/2024")) == 2
    name = soup(client.get(f"{prefix}/files")).select("#files article.file")[1]["data-filename"]
    client.post(f"{prefix}/files/{name}/options", data={"date_order": "dmy"}, headers=csrf | HX)
    assert found("2/1/2024") == found("2024-01-02") == ["2024-01-02"]


def test_the_pager_jumps_to_a_page(client):
    """Issue 13, item 31: "Go to page" asks the transactions region for that page (htmx), or the
    whole Preview without JavaScript; a page past the end is the last."""
    client.application.config["TRANSACTIONS_PER_PAGE"] = 1
    prefix, csrf = new_migration(client)
    upload(client, prefix, csrf, "lists.iif", "txns.iif")
    page = soup(client.get(f"{prefix}/preview", query_string={"q": "2024"}))
    jump = page.select_one(".pager form#page-jump")
    assert jump["action"].endswith(f"{prefix}/preview#transactions")
    assert jump["hx-get"].endswith(f"{prefix}/transactions")
    assert jump.select_one("input[name=q]")["value"] == "2024"
    number = jump.select_one("input[name=page]")
    assert (number["min"], number["max"], number["value"]) == ("1", "2", "1")
    r = client.get(f"{prefix}/transactions", query_string={"q": "2024", "page": "2"}, headers=HX)
    assert is_fragment(r) and "Page 2 of 2" in soup(r).select_one(".pager").text
    full = soup(client.get(f"{prefix}/preview", query_string={"q": "2024", "page": "9"}))
    assert "Page 2 of 2" in full.select_one(".pager").text


def test_every_page_starts_with_a_skip_link_and_dates_do_not_wrap(client):
    """Issue 13, item 32 (what the browser test measures at 800 px): "Skip to content" comes
    first and leads to <main>; dates are marked to stay on one line; the transactions table
    scrolls in its own box."""
    prefix, csrf = new_migration(client)
    upload(client, prefix, csrf, "lists.iif", "txns.iif")
    for path in ("/", f"{prefix}/files", f"{prefix}/preview", f"{prefix}/map", f"{prefix}/import"):
        page = soup(client.get(path))
        first = page.body.find(True)
        assert first.name == "a" and first["href"] == "#content", path
        assert first.text == "Skip to content"
        assert page.select_one("main#content")["tabindex"] == "-1"
    page = soup(client.get(f"{prefix}/preview"))
    assert [td.text for td in page.select("#txn-table td.date")] == ["2024-02-01", "2024-02-02"]
    assert page.select_one("#txn-table").parent["class"] == ["scroll"]
    files = soup(client.get(f"{prefix}/files"))
    assert [s.text for s in files.select("#files .facts .date")] == ["2024-02-01", "2024-02-02"]


def test_turning_a_page_changes_the_address(client):
    """Issue 13, item 32: the pager's requests push the Preview's own address (Back returns to
    the page before); a search replaces it (a reload keeps the search)."""
    client.application.config["TRANSACTIONS_PER_PAGE"] = 1
    prefix, csrf = new_migration(client)
    upload(client, prefix, csrf, "lists.iif", "txns.iif")
    page = soup(client.get(f"{prefix}/preview"))
    assert page.select_one(".pager")["hx-push-url"] == "true"
    r = client.get(f"{prefix}/transactions", query_string={"q": "", "page": "2"}, headers=HX)
    assert r.headers["HX-Push-Url"] == f"{prefix}/preview?page=2#transactions"
    assert "HX-Replace-Url" not in r.headers
    r = client.get(f"{prefix}/transactions", query_string={"q": "gas", "page": "1"}, headers=HX)
    assert r.headers["HX-Push-Url"] == f"{prefix}/preview?q=gas#transactions"
    r = client.get(f"{prefix}/transactions", query_string={"q": "gas"}, headers=HX)
    assert r.headers["HX-Replace-Url"] == f"{prefix}/preview?q=gas#transactions"
    assert "HX-Push-Url" not in r.headers
    pushed = soup(client.get(f"{prefix}/preview", query_string={"page": "2"}))  # a reload
    assert "Page 2 of 2" in pushed.select_one(".pager").text


SCRAMBLED_CHART = [  # (name, QuickBooks type, number), in no order
    ("Other Expense", "EXEXP", "8000"),
    ("Sales", "INC", "4000"),
    ("Visa", "CCARD", "2100"),
    ("Truck", "FIXASSET", "1500"),
    ("Checking", "BANK", "1000"),
    ("Loan", "LTLIAB", "2700"),
    ("Payroll Liabilities", "OCLIAB", "2200"),
    ("Accounts Payable", "AP", "2000"),
    ("Interest Income", "EXINC", "7000"),
    ("Deposits", "OASSET", "1800"),
    ("Cost of Goods Sold", "COGS", "5000"),
    ("Utilities", "EXP", "6100"),
    ("Owner's Equity", "EQUITY", "3000"),
    ("Undeposited Funds", "OCASSET", "1200"),
    ("Accounts Receivable", "AR", "1100"),
]


def scrambled_lists() -> bytes:
    lines = ["!ACCNT\tNAME\tACCNTTYPE\tOBAMOUNT\tACCNUM\tHIDDEN"]
    lines += [f"ACCNT\t{n}\t{t}\t0.00\t{code}\tN" for n, t, code in SCRAMBLED_CHART]
    return ("\r\n".join(lines) + "\r\n").encode()


def test_the_chart_is_in_quickbooks_type_order_and_sorts_by_its_columns(client):
    """Issue 13, item 32: the Preview lists the chart as QuickBooks does (by type: bank, A/R,
    other current asset, fixed, other asset, A/P, credit card, other current liability,
    long-term liability, equity, income, COGS, expense, other income, other expense); each
    column's title is a plain link that sorts by it on the server, a second click the other
    way."""
    prefix, csrf = new_migration(client)
    upload(client, prefix, csrf, "lists.iif", data=scrambled_lists())
    page = soup(client.get(f"{prefix}/preview"))

    def chart(page) -> list[str]:
        return [tr["data-account"] for tr in page.select("#account-table tbody tr")]

    assert chart(page) == [
        "Checking",
        "Accounts Receivable",
        "Undeposited Funds",
        "Truck",
        "Deposits",
        "Accounts Payable",
        "Visa",
        "Payroll Liabilities",
        "Loan",
        "Owner's Equity",
        "Sales",
        "Cost of Goods Sold",
        "Utilities",
        "Interest Income",
        "Other Expense",
    ]
    heads = {a.text: a for a in page.select("#account-table th.sortable a")}
    assert list(heads) == [
        "Account",
        "Number",
        "GnuCash type",
        "QuickBooks type",
        "QuickBooks balance",
        "Lines",
    ]
    assert heads["Number"]["href"] == f"{prefix}/preview?chart_sort=number#accounts"
    assert not heads["Number"].has_attr("hx-get")  # a plain link: the whole page
    qb = heads["QuickBooks type"].parent
    assert qb["aria-sort"] == "ascending" and heads["QuickBooks type"]["href"].endswith(
        "chart_sort=-qbtype#accounts"
    )
    by_number = soup(client.get(heads["Number"]["href"]))
    assert chart(by_number) == [n for n, _t, code in sorted(SCRAMBLED_CHART, key=lambda r: r[2])]
    head = by_number.select_one("#account-table th[aria-sort=ascending] a")
    assert head.text == "Number" and head["href"].endswith("chart_sort=-number#accounts")
    backwards = soup(client.get(f"{prefix}/preview", query_string={"chart_sort": "-number"}))
    assert chart(backwards) == chart(by_number)[::-1]
    assert chart(soup(client.get(f"{prefix}/preview?chart_sort=junk"))) == chart(page)


def test_transactions_sort_by_their_columns_in_the_region(client):
    """Issue 13, item 32: the transactions' column titles are links (the whole Preview) that
    htmx turns into requests for the region, sorted on the server; the order is kept by the
    pager, the search and the address."""
    client.application.config["TRANSACTIONS_PER_PAGE"] = 1
    prefix, csrf = new_migration(client)
    upload(client, prefix, csrf, "lists.iif", "txns.iif")
    page = soup(client.get(f"{prefix}/preview"))
    heads = {a.text: a for a in page.select("#txn-table th.sortable a")}
    assert list(heads) == ["Date", "Num", "Description / account", "Debit"]  # (by the amount)
    amount = heads["Debit"]
    assert amount["href"] == f"{prefix}/preview?sort=amount#transactions"
    assert amount["hx-get"] == f"{prefix}/transactions?q=&sort=amount&page=1"
    r = client.get(amount["hx-get"], headers=HX)
    region = soup(r)
    assert r.headers["HX-Push-Url"] == f"{prefix}/preview?sort=amount#transactions"
    assert [td.text for td in region.select("tbody.txn tr.head td.amount")] == ["amount 25.00"]
    assert region.select_one("#txn-sort")["value"] == "amount"
    assert region.select_one("th[aria-sort=ascending] a").text == "Debit"
    nxt = next(a for a in region.select(".pager a") if "Next" in a.text)
    assert "sort=amount" in nxt["hx-get"] and "sort=amount" in nxt["href"]
    assert region.select_one("#page-jump input[name=sort]")["value"] == "amount"
    down = soup(client.get(f"{prefix}/transactions?sort=-amount&page=1", headers=HX))
    assert [td.text for td in down.select("tbody.txn tr.head td.amount")] == ["amount 100.00"]
    whole = soup(client.get(f"{prefix}/preview?sort=-amount"))
    assert [td.text for td in whole.select("#txn-table tbody.txn tr.head td.amount")] == [
        "amount 100.00"
    ]
    search = soup(client.get(f"{prefix}/preview")).select_one("#txn-search")
    assert search["hx-include"] == "#txn-sort, #txn-chart-sort"
    r = client.get(f"{prefix}/transactions?sort=amount&page=2")  # no htmx: the whole page
    assert r.status_code == 302 and r.location.endswith("/preview?page=2&sort=amount#transactions")
    # each table keeps its own order: sorting one keeps the other's, in every address
    both = soup(client.get(f"{prefix}/preview?sort=-amount&chart_sort=number"))
    assert both.select_one("#account-table th[aria-sort=ascending]").text == "Number"
    assert both.select_one("#txn-table th[aria-sort=descending]").text == "Debit"
    head = next(a for a in both.select("#account-table th a") if a.text == "Account")
    assert head["href"] == f"{prefix}/preview?sort=-amount&chart_sort=account#accounts"
    head = next(a for a in both.select("#txn-table th a") if a.text == "Date")
    assert head["href"] == f"{prefix}/preview?sort=date&chart_sort=number#transactions"
    r = client.get(head["hx-get"], headers=HX)
    assert r.headers["HX-Push-Url"] == f"{prefix}/preview?sort=date&chart_sort=number#transactions"
    assert soup(r).select_one("#txn-chart-sort")["value"] == "number"
    nxt = next(a for a in soup(r).select(".pager a") if "Next" in a.text)
    assert "chart_sort=number" in nxt["hx-get"] and "chart_sort=number" in nxt["href"]
    assert both.select_one("#txn-search")["hx-include"] == "#txn-sort, #txn-chart-sort"


def test_back_to_a_page_htmx_put_in_the_history_gets_the_whole_page(client):
    """The browser's Back (or a reload) of an address the pager pushed: htmx asks for it with
    HX-Request and HX-History-Restore-Request and puts the answer in place of the whole body,
    so the answer is the page, not the transactions region alone."""
    client.application.config["TRANSACTIONS_PER_PAGE"] = 1
    prefix, csrf = new_migration(client)
    upload(client, prefix, csrf, "lists.iif", "txns.iif")
    restore = HX | {"HX-History-Restore-Request": "true"}
    r = client.get(f"{prefix}/preview", query_string={"page": "2"}, headers=restore)
    assert r.status_code == 200 and not is_fragment(r)
    page = soup(r)
    assert page.select_one(".steps") and page.select_one("#txn-search")
    assert "Page 2 of 2" in page.select_one(".pager").text
    assert is_fragment(client.get(f"{prefix}/preview", query_string={"page": "2"}, headers=HX))


def test_a_file_that_is_no_export_is_the_first_problem_with_remove_as_its_fix(client):
    """A letter uploaded by mistake beside the sample company's real exports: its must-fix
    problem comes first, its fix is the Files step's Remove (linked to that file's button), and
    the banner promises nothing the Map step could do."""
    from app import sample

    prefix, csrf = new_migration(client)
    for path in sample.files():
        upload(client, prefix, csrf, path.name, data=path.read_bytes())
    upload(client, prefix, csrf, "letter.txt", data=LETTER)
    page = soup(client.get(f"{prefix}/preview"))
    first = page.select_one("#problem-list > li")
    assert "error" in first["class"] and first.select_one(".where").text == "letter.txt:1"
    assert "this is not a QuickBooks export" in first.text
    fix = first.select_one("a.fix")
    assert fix.text.startswith("remove it on the Files step")
    assert fix["href"] == f"{prefix}/files#remove-letter_txt"
    banner = page.select_one("#must-fix").text
    assert banner.startswith("1 problem must be fixed before the book can be written: on the")
    assert "remove the file that is not a QuickBooks export" in banner and "Map" not in banner
    files = soup(client.get(f"{prefix}/files"))
    remove = files.select_one("#remove-letter_txt")
    assert remove["action"] == f"{prefix}/files/letter.txt/delete"


def test_the_chart_signs_balances_as_the_map_step_and_names_quickbooks_types(client):
    """Credit-normal accounts (A/P, credit card, loans, equity, income) hold their usual
    balance without a minus sign, as on the Map and Download steps; the QuickBooks type is
    QuickBooks' own name of it, not the IIF code."""
    from app import sample
    from app.model import money
    from tests.support.companygen_data import TYPE_WORDS
    from tests.support.sample import sample_company, tree_shown

    company = sample_company()
    prefix, csrf = new_migration(client)
    for path in sample.files():
        upload(client, prefix, csrf, path.name, data=path.read_bytes())
    page = soup(client.get(f"{prefix}/preview"))
    rows = {
        tr["data-account"]: [td.text.strip() for td in tr.select("td")]
        for tr in page.select("#account-table tbody tr")
    }
    for account, value in company.trial_balance().items():
        if account in rows:
            assert rows[account][4] == tree_shown(company, account, value), account
    for account in ("Accounts Payable", "CalOil Card", "Bank Loan", "Design Income"):
        assert not rows[account][4].startswith("-") and rows[account][4] != money(0), account
    for account, kind, *_ in company.accounts:  # as QuickBooks' own reports name the types
        if account in rows:
            assert rows[account][3] == TYPE_WORDS[kind], account
    assert rows["Truck:Original Purchase"][3] == "Fixed Asset"
    assert rows["Payroll Liabilities:Federal Withholding"][3] == "Other Current Liability"
    assert rows["Interest Income"][3] == "Other Income"
    assert page.select("#chart-sign") and "credits are negative" not in page.text


def test_the_walk_with_real_files_groups_warnings_of_one_kind(client, samples_dir):
    """The bookkeeper's walk: a real lists export, a real transactions file, a letter and a JSON
    file named .iif uploaded by mistake. The two must-fix problems come first, before 66
    warnings of one kind (balances the imported history does not explain), which are one line
    with their count and the list to open."""
    prefix, csrf = new_migration(client)
    for name in ENTERPRISE.name, "minimul__iif-parser__windows-1252.iif":
        upload(client, prefix, csrf, name, data=(samples_dir / name).read_bytes())
    upload(client, prefix, csrf, "letter.txt", data=LETTER)
    upload(client, prefix, csrf, "accounts.iif", data=b'{"accounts": [{"name": "Checking"}]}\n')
    page = soup(client.get(f"{prefix}/preview"))
    top = page.select("#problem-list > li")
    assert ["error" in li["class"] for li in top[:2]] == [True, True]
    assert sorted(li.select_one(".where").text for li in top[:2]) == [
        "accounts.iif:1",
        "letter.txt:1",
    ]
    assert all("error" not in li["class"] for li in top[2:])
    banner = page.select_one("#must-fix").text
    assert "remove the 2 files that are not QuickBooks exports" in banner
    assert "Map" not in banner
    kind = next(li for li in top if "many" in li["class"])
    assert kind.select_one(".count").text == "66 of one kind"
    assert kind.select_one("details summary").text == "Show all 66"
    assert len(kind.select("details li")) == 66
    assert len(top) < 10  # the page is readable: one line per kind
    # (and one more while the sample's export date, 2026-12-15, is after today: said as such)
    ahead = dt.date.today() < dt.date(2026, 12, 15)
    assert page.select_one(".tabs a[href='#problems']").text == f"Problems ({69 + ahead})"


def test_iif_transaction_kinds_read_as_quickbooks_names_them(client):
    """IIF's TRNSTYPE codes (CHECK, GENERAL JOURNAL) show as QuickBooks' reports name the kinds
    ("Check"), not as codes (a walk's "GENERAL JOURNAL", "DEPOSIT")."""
    prefix, csrf = new_migration(client)
    upload(client, prefix, csrf, "lists.iif", "txns.iif")
    tags = [t.text.split(" · ")[0] for t in soup(client.get(f"{prefix}/preview")).select(
        "#txn-table tr.head .tag"
    )]  # fmt: skip
    assert "Check" in tags and "CHECK" not in tags


def test_kind_names() -> None:
    from app.quickbooks import kind_name

    assert kind_name("GENERAL JOURNAL") == "General Journal"
    assert kind_name("DEPOSIT") == "Deposit"
    assert kind_name("BILL PMT") == "Bill Pmt -Check"
    assert kind_name("Bill Pmt -CCard") == "Bill Pmt -CCard"  # a report's own words, as given


def test_nothing_left_out_is_said_without_the_sentence_for_what_is(client):
    """With nothing left out, the card says so and only so (a walk read "Everything read has a
    place in GnuCash." then "GnuCash has no place for these QuickBooks records")."""
    prefix, csrf = new_migration(client)
    upload(client, prefix, csrf, "txns.iif")
    card = soup(client.get(f"{prefix}/preview")).select_one("#not-imported")
    assert "Everything read has a place in GnuCash." in card.text
    assert "has no place for these" not in card.text
    other = b"!OTHERNAME\tNAME\nOTHERNAME\tPetty Cash Drawer\n"  # GnuCash has no other names
    upload(client, prefix, csrf, "names.iif", data=other)
    card = soup(client.get(f"{prefix}/preview")).select_one("#not-imported")
    assert card.select("details")  # something left out: said, the other sentence not
    assert "has no place for these" in card.text and "Everything read" not in card.text

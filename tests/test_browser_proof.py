"""The proof page as a bookkeeper sees it (issue 27, items 1 and 2), in a real Chromium against
``python run.py``: QuickBooks' trial balance next to GnuCash's, each customer's and vendor's
aging, the A/R and A/P reconciliation, and the verdict in its three states, the same words on
the home list, the Import step and the Download step:

- a generated company whose book matches (documents, journal entries on A/R and A/P);
- the same kind of company whose history lost the vendor's name on two journal entries on A/P
  (the ledger matches, two vendors' open items do not: "allocated differently");
- a company whose history starts late (accounts differ, the Map step's setting fixes them).

Figures are checked against the generator's truth; each page is also looked at 800 px wide
(no sideways scroll outside a table's own box). Screenshots land in the test's tmp folder."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from pathlib import Path

import pytest

from app.model import money
from tests.support import companygen_docs as gen
from tests.support.browser import choose_files
from tests.support.companygen import make_company

pytestmark = pytest.mark.browser

OVERFLOW = """() => {
  const doc = document.documentElement;
  return {
    sideways: doc.scrollWidth - doc.clientWidth,
    wide: [...document.querySelectorAll("main *")]
      .filter(e => e.getBoundingClientRect().right > doc.clientWidth + 1 && !e.closest(".scroll"))
      .slice(0, 5).map(e => e.tagName + "#" + e.id + "." + e.className),
    boxes: [...document.querySelectorAll("main .scroll")]
      .filter(e => e.scrollWidth > e.clientWidth + 1).map(e => e.firstElementChild.id),
  };
}"""


def _documents_files(company, folder: Path) -> list[str]:
    return [
        str(company.write_lists_iif(folder / "lists.iif")),
        str(company.write_find_csv(folder / "Find.csv", split=True)),
        str(company.write_open_invoices_csv(folder / "Open Invoices.csv")),
        str(company.write_unpaid_bills_csv(folder / "Unpaid Bills Detail.csv")),
    ]


def _import(page, server: str, files: list[str], shots: Path) -> str:
    """A new migration with ``files``, written on the Import step; the Import step's verdict
    (its screenshot taken); the page is left on the Download step."""
    from playwright.sync_api import expect

    page.goto(server)
    page.click("#new-migration")
    choose_files(page, files)
    expect(page.locator("#files article.file")).to_have_count(len(files))
    page.goto(page.url.rsplit("/", 1)[0] + "/import")
    page.click("#start-import")
    page.locator("#to-download").wait_for(timeout=180_000)
    said = page.locator("#job .message").first.inner_text()
    page.screenshot(path=str(shots / "import.png"), full_page=True)
    page.click("#to-download")
    page.wait_for_load_state()
    return said


def _at_800(page, shots: Path, name: str) -> dict:
    page.set_viewport_size({"width": 800, "height": 900})
    page.reload()
    page.wait_for_load_state()
    seen = page.evaluate(OVERFLOW)
    page.screenshot(path=str(shots / f"{name}-800.png"), full_page=True)
    page.set_viewport_size({"width": 1280, "height": 900})
    return seen


def _home_state(page, server: str, shots: Path):
    page.goto(server)
    page.screenshot(path=str(shots / "home.png"), full_page=True)
    return page.locator("#migrations span.state").first


def _aging_rows(page, side: str) -> dict[str, dict[str, list[str]]]:
    """Each owner's rows of the aging table: source → its six figures (buckets, total)."""
    out: dict[str, dict[str, list[str]]] = {}
    for body in page.locator(f"#aging-{side} tbody.owner").all():
        owner = body.get_attribute("data-owner")
        rows = {}
        for tr in body.locator("tr.qb, tr.gnc").all():
            src = tr.locator("td.src").inner_text()
            rows[src] = [td.inner_text() for td in tr.locator("td.num").all()]
        out[owner] = rows
    return out


def _shown(values: list[Decimal]) -> list[str]:
    return [money(v) for v in values] + [money(sum(values, Decimal(0)))]


def _check_aging(page, company, side: str, *, book: bool = False) -> None:
    truth = {o: v for (s, o), v in gen.aging_truth(company).items() if s == side and any(v)}
    held = {o: v for (s, o), v in gen.aging_truth(company, book=True).items() if s == side}
    shown = _aging_rows(page, side)
    assert set(shown) == set(truth), (sorted(shown), sorted(truth))
    for owner, values in truth.items():
        assert shown[owner]["QuickBooks"] == _shown(values), owner
        got = held.get(owner, [Decimal(0)] * 5) if book else values
        assert shown[owner]["GnuCash"] == _shown(got), owner


def test_a_book_that_matches_says_so_side_by_side(server, browser_page, tmp_path) -> None:
    from playwright.sync_api import expect

    company = make_company(400, seed=41, documents=True, journals=True)
    page, shots = browser_page, tmp_path
    try:
        said = _import(page, server, _documents_files(company, tmp_path), shots)
        assert "Matches QuickBooks to the cent" in said
        expect(page.locator("#differs-first")).to_have_count(0)
        expect(page.locator("#download-book")).to_be_visible()
        expect(page.locator("#summary-line")).to_have_class("message ok big")
        page.screenshot(path=str(shots / "download.png"), full_page=True)
        # the trial balance: A/P, a credit, positive; every line ✓; numbers shown
        full = company.expected_balances()
        ap = page.locator("table.tb tr.account[data-account='Accounts Payable']")
        cells = ap.locator("td").all_inner_texts()
        assert cells[0] == "2000" and cells[2:] == [money(-full["Accounts Payable"])] * 2 + ["✓"]
        lines = page.locator("table.tb tr.account")
        assert lines.count() >= 40
        assert page.locator("table.tb tr.account td.mark .tick").count() == lines.count()
        expect(page.locator("table.tb tr.total").first).to_contain_text("Total ")
        # the Profit and Loss ends on its Net Income, the Balance Sheet's net income line
        net = page.locator("table.tb tbody.tb-net tr.net").all_inner_texts()
        in_equity = page.locator("table.tb tr.net:not(.group-total) td.num").all_inner_texts()
        assert len(net) == 1 and net[0].split("\t")[1:] == ["Net Income", *in_equity[:2], "✓"]
        expect(page.locator("#sign-note")).to_contain_text("A/P, loans, equity and income")
        # the aging: every owner, QuickBooks' figures and GnuCash's, as the generator says
        _check_aging(page, company, "customer")
        _check_aging(page, company, "vendor")
        expect(page.locator("#aging-matches-customer")).to_be_visible()
        expect(page.locator("#reconciliation-vendor")).to_contain_text("GnuCash: A/P")
        expect(page.locator("#reconciliation-vendor")).not_to_contain_text("naming no vendor")
        seen = _at_800(page, shots, "download")
        assert seen["sideways"] <= 0 and seen["wide"] == [] and seen["boxes"] == [], seen
        state = _home_state(page, server, shots)
        expect(state).to_have_text("Matches QuickBooks to the cent")
    except Exception:
        page.screenshot(path=str(shots / "failure.png"), full_page=True)
        raise


def test_journal_lines_without_their_vendor_are_allocated_differently(
    server, browser_page, tmp_path
) -> None:
    from playwright.sync_api import expect

    company = make_company(400, seed=31, documents=True, journals=True)
    lost = gen.lose_names(company, "vendor", 2)
    owners = sorted(gen.owner_of(t) for t in lost)
    words = "Ledger matches; open items of 2 vendors allocated differently"
    page, shots = browser_page, tmp_path
    try:
        said = _import(page, server, _documents_files(company, tmp_path), shots)
        assert words in said and "why" in said
        first = page.locator("#differs-first")
        expect(first).to_contain_text(words)
        expect(first).to_have_class("message warn big")  # amber: not a broken book's red
        expect(page.locator("#summary-line")).to_have_class("message warn")
        page.screenshot(path=str(shots / "download.png"), full_page=True)
        # every account ✓
        lines = page.locator("table.tb tr.account")
        assert page.locator("table.tb tr.account td.mark .tick").count() == lines.count() > 40
        # each vendor's aging against the generator's truth, the book's without the lost lines
        _check_aging(page, company, "vendor", book=True)
        differ = page.locator("#aging-vendor tbody.owner.differs")
        assert sorted(differ.evaluate_all("els => els.map(e => e.dataset.owner)")) == owners
        for owner in owners:
            cause = page.locator(f"#aging-vendor tbody[data-owner='{owner}'] tr.cause-row")
            expect(cause).to_contain_text("no vendor named on the A/P line")
            expect(cause).to_contain_text("Nothing on these pages changes it")
        gap = sum(gen.unnamed_truth(company).values())
        expect(page.locator("#reconciliation-vendor")).to_contain_text(
            f"lines on A/P naming no vendor {money(gap)}"
        )
        page.locator("#open-items").screenshot(path=str(shots / "open-items.png"))
        seen = _at_800(page, shots, "download")
        assert seen["sideways"] <= 0 and seen["wide"] == [] and seen["boxes"] == [], seen
        state = _home_state(page, server, shots)
        expect(state).to_have_text(words)
        expect(state).to_have_class("state differs proof-warn")
        page.click("#migrations a:has-text('why')")
        expect(page.locator("#open-items")).to_be_in_viewport()
    except Exception:
        page.screenshot(path=str(shots / "failure.png"), full_page=True)
        raise


def test_a_ledger_that_differs_needs_attention_with_its_fix(server, browser_page, tmp_path):
    from playwright.sync_api import expect

    company = make_company(300, seed=9, history_from=dt.date(2020, 1, 1))
    files = [
        str(company.write_lists_iif(tmp_path / "lists.iif")),
        str(company.write_transaction_detail_csv(tmp_path / "Transaction Detail.csv")),
    ]
    page, shots = browser_page, tmp_path
    try:
        said = _import(page, server, files, shots)
        assert "Needs your attention: " in said and " accounts differ" in said
        first = page.locator("#differs-first")
        expect(first).to_have_class("message error big")
        expect(first).to_contain_text("change that and write the book again")
        page.screenshot(path=str(shots / "download.png"), full_page=True)
        n = page.locator("table.tb tr.account.differs").count()
        assert n > 5
        expect(first).to_contain_text(f"Needs your attention: {n} accounts differ")
        causes = page.locator("table.tb tr.cause-row")
        assert causes.count() == n
        # each cause said once above the table, with how many accounts; the rows point at it
        late = page.locator("#why-differ li", has_text="the history starts on")
        expect(late).to_contain_text(" accounts: the history starts on")
        expect(causes.first).to_contain_text("(said above the table)")
        seen = _at_800(page, shots, "download")
        assert seen["sideways"] <= 0 and seen["wide"] == [] and seen["boxes"] == [], seen
        # the control that fixes it: the Map step's setting
        late.locator("a.fix").first.click()
        expect(page.locator("#settings input[name=opening_balances]")).to_be_visible()
        state = _home_state(page, server, shots)
        expect(state).to_have_text(f"Needs your attention: {n} accounts differ")
        expect(state).to_have_class("state differs proof-error")
    except Exception:
        page.screenshot(path=str(shots / "failure.png"), full_page=True)
        raise


def test_a_count_that_differs_says_why_and_what_to_do(server, browser_page, tmp_path, monkeypatch):
    """The book changed in GnuCash as it was read back (a customer made, a payment entered
    without balancing it: GnuCash's Imbalance-USD): each count that differs, on the Download
    step, with its probable cause, the link that writes the book again and what to do in
    GnuCash; nothing wider than the window at 800 px."""
    from playwright.sync_api import expect

    from tests.support.gnucash_edits import add_customer, enter, import_changed_in_gnucash
    from tests.support.web import WEB

    def change(book) -> None:
        add_customer(book, "Walk-in")
        enter(book, dt.date(2024, 2, 2), [("Checking", -1000), ("Utilities:Gas", 900)])

    page, shots = browser_page, tmp_path
    try:
        page.goto(server)
        page.click("#new-migration")
        choose_files(page, [str(WEB / "lists.iif"), str(WEB / "txns.iif")])
        expect(page.locator("#files article.file")).to_have_count(2)
        mid = page.url.rsplit("/", 2)[-2]
        import_changed_in_gnucash(tmp_path / "instance" / "migrations" / mid, monkeypatch, change)
        page.goto(page.url.rsplit("/", 1)[0] + "/download")
        expect(page.locator("#differs-first")).to_contain_text("Needs your attention")
        customers = page.locator("#checks li.differs", has_text="customers:")
        expect(customers).to_contain_text("(in the book only: Walk-in)")
        cause = customers.locator("p.check-cause")
        expect(cause).to_contain_text("Probable cause: the book holds 1 customer more")
        strays = page.locator("#checks li.differs", has_text="cannot place; none expected")
        expect(strays.locator("p.check-cause")).to_contain_text(
            "or in GnuCash, open Imbalance-USD on the Accounts tab"
        )
        strays.scroll_into_view_if_needed()
        page.screenshot(path=str(shots / "checks.png"), full_page=False)
        seen = _at_800(page, shots, "checks")
        assert seen["sideways"] <= 0 and seen["wide"] == [] and seen["boxes"] == [], seen
        cause.locator("a.fix").click()  # "write the book again": the Import step
        expect(page.locator("#start-import")).to_be_visible()
        print(f"screenshots in {shots}")
    except Exception:
        page.screenshot(path=str(shots / "failure.png"), full_page=True)
        raise

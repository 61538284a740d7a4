"""What a person sees of the wizard's finer points (issue 13, items 31 and 32), in a real Chromium
against ``python run.py`` (the fixtures of tests/test_browser.py): the Map step's save indicator,
its scroll positions, the confirm before a plan file replaces the edits, visible keyboard focus,
no sideways scroll at 800 px. A screenshot of each test's last state lands in its tmp folder."""

from __future__ import annotations

import re
from decimal import Decimal
from pathlib import Path

import pytest

from tests.support.browser import LAYOUT, answer_dialogs, choose_files, screenshot_on_failure

pytestmark = pytest.mark.browser


def company_files(tmp_path: Path) -> list[str]:
    from tests.support.companygen import make_company

    company = make_company(transactions=400, seed=7)
    lists = company.write_lists_iif(tmp_path / "lists.IIF")
    report = company.write_transaction_detail_csv(tmp_path / "Transaction Detail.csv")
    return [str(lists), str(report)]


def start(page, server: str, tmp_path: Path) -> None:
    """A new migration with a generated company's lists and transactions, on the Files step."""
    from playwright.sync_api import expect

    page.goto(server)
    page.click("#new-migration")
    choose_files(page, company_files(tmp_path))
    expect(page.locator("#files article.file")).to_have_count(2)


def test_map_step_says_it_is_saving_and_keeps_its_scroll(server, browser_page, tmp_path):
    """Item 31: every change shows "Saving…" until it is saved, then "All changes saved" in its
    line under the lead (a refused one "Not saved", at the window's corner until the next
    save); checks as typed show nothing there; the tree and the page keep their scroll
    positions after an edit re-renders them."""
    from playwright.sync_api import expect

    page = browser_page
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    with screenshot_on_failure(page, tmp_path):
        start(page, server, tmp_path)
        page.click("#to-preview")
        page.click("#to-map")
        state = page.locator("#save-state")
        expect(state).to_have_text("All changes saved", use_inner_text=True)

        page.select_option("#rule-account", "Checking")
        page.fill("#rule-target", "Main Checking")  # checked as typed: nothing is saved
        expect(page.locator("#rule-check")).to_be_attached()
        expect(state).not_to_have_class("save-state htmx-request")

        held: list = []

        def hold(route) -> None:
            held.append(route)

        page.route("**/map/rules", hold)
        page.click("#add-rule")
        expect(state).to_have_text("Saving…", use_inner_text=True)
        expect(state).to_have_class("save-state htmx-request")
        for route in held:
            route.continue_()
        page.unroute("**/map/rules")
        expect(page.locator("#map-status")).to_contain_text("Rename “Checking”")
        expect(state).to_have_text("All changes saved", use_inner_text=True)

        page.select_option("#rule-account", "Savings")
        page.select_option("#rule-kind", "retype")  # a type is chosen from a list, in words
        expect(page.locator("#rule-target")).to_be_hidden()
        page.select_option("#rule-type", label="Bank")
        page.click("#add-rule")
        expect(page.locator("#map-status")).to_contain_text("Make “Savings” a bank account")
        expect(state).to_have_text("All changes saved", use_inner_text=True)

        tree = page.locator("#tree")
        assert tree.evaluate("t => t.scrollHeight > t.clientHeight + 200"), "the tree must scroll"
        undo = page.locator("#rule-list button.link").last  # the retype
        undo.scroll_into_view_if_needed()
        window_y = page.evaluate("window.scrollY")
        tree.evaluate("t => { t.scrollTop = 300; }")
        undo.click()
        expect(page.locator("#map-status")).to_contain_text("Undone")
        expect(page.locator("#map-status")).to_be_focused()  # its button is gone: the message
        assert tree.evaluate("t => t.scrollTop") == 300
        assert page.evaluate("window.scrollY") == window_y

        page.evaluate(  # the tree's scroll as the save leaves (clicking scrolls to the row)
            "() => document.addEventListener('htmx:beforeRequest', () => {"
            " window.treeTop = document.getElementById('tree').scrollTop; })"
        )
        # far down the tree, with rows below it (its form is taller than a row: the very last
        # one's would leave the tree shorter after the save, its scroll clamped)
        last = page.locator("#tree-table tr:has(button.edit)").nth(-12)
        last.locator("button.edit").click()
        name = page.locator("tr.editing input[name=name]")
        expect(name).to_be_visible()
        name.fill("Renamed in the tree")
        page.click("tr.editing button:has-text('Save')")
        expect(page.locator("#tree-table tr[data-account$='Renamed in the tree']")).to_be_attached()
        kept = page.evaluate("window.treeTop")
        assert kept > 300 and tree.evaluate("t => t.scrollTop") == kept
        currency = page.locator("#settings-form input[name=currency]")
        expect(page.locator("#map-status")).to_be_attached()  # (the rename's "saved")
        currency.fill("US")  # sent, and refused with the server's words: never "saved"
        currency.press("Tab")
        expect(page.locator("#messages")).to_contain_text("three-letter ISO code")
        # the earlier change's green words go: never "saved" beside "Not saved" (hunt 23)
        expect(page.locator("#map-status")).to_have_count(0)
        expect(state).to_have_text("Not saved: see the message above", use_inner_text=True)
        expect(state).to_have_css("position", "fixed")  # in sight wherever the page is scrolled
        line = page.locator(".save-line").bounding_box()
        currency.fill("USD")
        currency.press("Tab")
        expect(state).to_have_text("All changes saved", use_inner_text=True)
        # then back in its own line under the lead, covering nothing (it floated at the window's
        # corner over a row's Change… at 800 px); its line kept its height while it floated
        expect(state).to_have_css("position", "static")
        pill = state.bounding_box()
        layout = page.locator("#map").bounding_box()
        assert pill and layout and pill["y"] + pill["height"] <= layout["y"]
        back = page.locator(".save-line").bounding_box()
        assert back and line and back["height"] == line["height"]
        page.focus("#reparent")
        page.keyboard.press("Space")  # a setting changed from the keyboard: focus stays on it
        expect(page.locator("#map-status")).to_contain_text("Settings saved")
        expect(page.locator("#reparent")).to_be_checked()
        expect(page.locator("#reparent")).to_be_focused()
        page.screenshot(path=str(tmp_path / "map.png"), full_page=True)
    assert errors == []


def test_loading_a_plan_file_asks_first(server, browser_page, tmp_path):
    """Item 31: loading a saved plan says what it replaces and asks; "Cancel" keeps the edits."""
    from playwright.sync_api import expect

    from app.plan import Plan

    plan_file = tmp_path / "saved-plan.json"
    plan_file.write_text(Plan().to_json(), encoding="utf-8")
    page = browser_page
    dialogs = answer_dialogs(page)
    asked = dialogs.asked
    with screenshot_on_failure(page, tmp_path):
        start(page, server, tmp_path)
        page.click("#to-preview")
        page.click("#to-map")
        page.select_option("#rule-account", "Checking")
        page.fill("#rule-target", "Main Checking")
        page.click("#add-rule")
        expect(page.locator("#tree-table tr[data-account='Main Checking']")).to_be_attached()

        page.set_input_files("#plan-input", str(plan_file))
        page.click("#load-plan")
        expect(page.locator("#rule-list")).to_contain_text("Rename “Checking”")  # kept
        assert len(asked) == 1
        assert "replaces every choice on this page: your 1 change to accounts" in asked[0]
        assert "Save these choices to a file first" in asked[0]

        dialogs.accept = True
        page.set_input_files("#plan-input", str(plan_file))
        page.click("#load-plan")
        expect(page.locator("#map-status")).to_contain_text("Plan loaded from saved-plan.json")
        expect(page.locator("#rule-list")).to_have_count(0)
        expect(page.locator("#tree-table tr[data-account='Checking']")).to_be_attached()
        assert len(asked) == 2


FOCUSED = """() => {
  const e = document.activeElement;
  if (!e || e === document.body) { return null; }
  const shown = e.id === "file-input" ? document.querySelector("label[for=file-input]") : e;
  const s = getComputedStyle(shown);
  return {what: e.tagName.toLowerCase() + (e.id ? "#" + e.id : "") + " " +
                (e.textContent || e.name || "").trim().slice(0, 40),
          style: s.outlineStyle, width: parseFloat(s.outlineWidth)};
}"""


def focus_walk(page, most: int = 200) -> list[dict]:
    """Tab from the top of the page through its controls (at most ``most``): what each focus
    looked like."""
    page.wait_for_load_state()  # the stylesheet is in
    page.evaluate("() => { document.activeElement && document.activeElement.blur(); }")
    page.evaluate("() => window.scrollTo(0, 0)")
    seen: list[dict] = []
    for _ in range(most):
        page.keyboard.press("Tab")
        info = page.evaluate(FOCUSED)
        if info is None or (seen and info["what"] == seen[0]["what"]):
            break  # back out of the page, or round to the first control
        seen.append(info)
    return seen


def test_keyboard_focus_is_visible_on_every_control(server, browser_page, tmp_path):
    """Item 31: tabbing through each step, every control shows a 3 px outline, the "Choose
    files…" button (a label for an invisible file input) included."""
    from playwright.sync_api import expect

    page = browser_page
    with screenshot_on_failure(page, tmp_path):
        page.goto(server)
        walks = {"home": focus_walk(page)}
        start(page, server, tmp_path)
        walks["files"] = focus_walk(page)
        assert any(f["what"].startswith("input#file-input") for f in walks["files"])
        page.locator("#file-input").focus()  # "Choose files…" with its focus, for the eye
        page.screenshot(path=str(tmp_path / "files-focus.png"))
        page.click("#to-preview")
        expect(page.locator("#txn-table")).to_be_visible()
        walks["preview"] = focus_walk(page)
        page.click("#to-map")
        expect(page.locator("#tree-table")).to_be_visible()
        walks["map"] = focus_walk(page, most=400)
        page.click("#to-import")
        expect(page.locator("#start-import")).to_be_visible()
        walks["import"] = focus_walk(page)
        for step, walk in walks.items():
            assert len(walk) >= 2, step
            bad = [f for f in walk if f["style"] != "solid" or f["width"] < 3]
            assert bad == [], step


def test_layout_at_800_pixels(server, browser_page, tmp_path):
    """Item 32: at a window 800 px wide no step scrolls sideways (wide tables scroll in their
    own box), no date wraps, the step numbers sit in the middle of their circles; "Skip to
    content" is the first thing Tab reaches and takes the focus to the page's content."""
    from playwright.sync_api import expect

    page = browser_page
    page.set_viewport_size({"width": 800, "height": 900})
    seen: dict[str, dict] = {}

    def look(step: str) -> None:
        page.wait_for_load_state()
        seen[step] = page.evaluate(LAYOUT)
        page.screenshot(path=str(tmp_path / f"{step}.png"), full_page=True)

    with screenshot_on_failure(page, tmp_path):
        page.goto(server)
        look("home")
        start(page, server, tmp_path)
        look("files")
        page.evaluate("() => document.activeElement && document.activeElement.blur()")
        page.keyboard.press("Tab")
        skip = page.locator("a.skip")
        expect(skip).to_be_focused()
        expect(skip).to_have_text("Skip to content")
        box = skip.bounding_box()
        assert box and box["width"] > 50 and box["y"] >= 0
        page.keyboard.press("Enter")
        expect(page.locator("#content")).to_be_focused()
        page.click("#to-preview")
        expect(page.locator("#txn-table")).to_be_visible()
        look("preview")
        # the transactions fit their box: the last column (file:line) is not cut off
        fits = "t => t.scrollWidth <= t.parentElement.clientWidth + 1"
        assert page.locator("#txn-table").evaluate(fits)
        where = page.locator("#txn-table td.where").first
        assert where.evaluate("w => w.scrollWidth <= w.clientWidth + 1")
        assert ".csv:" in where.inner_text()
        page.click("#to-map")
        look("map")
        # the tree sits below the settings here: a link at the top leads to it
        page.click("#to-tree a")
        tree = page.locator("#tree h2").bounding_box()
        assert tree is not None and 0 <= tree["y"] < 900, tree
        page.screenshot(path=str(tmp_path / "map-tree.png"))
        page.click("#to-import")
        look("import")
        page.click("#start-import")
        page.locator("#to-download").wait_for(timeout=180_000)
        look("import-done")
        page.click("#to-download")
        expect(page.locator("#summary-line")).to_be_visible()
        look("download")
        page.goto(server)  # home again, now with a migration in its table
        expect(page.locator("#migrations")).to_be_visible()
        look("home with a migration")
    for step, got in seen.items():
        assert got["sideways"] <= 0 and got["wide"] == [], (step, got)
        assert got["wrapped"] == [], (step, got)
        assert got["offCentre"] == [], (step, got)
    assert seen["preview"]["dates"] >= 50 and seen["files"]["dates"] >= 2


def test_back_returns_to_the_page_before_and_remove_asks(server, browser_page, tmp_path):
    """Item 32: turning the transactions' pages (links or "Go to page") changes the address, and
    Back returns to each page before; "Remove" on a file asks first, "Cancel" keeps it."""
    from playwright.sync_api import expect

    page = browser_page
    dialogs = answer_dialogs(page)
    asked = dialogs.asked
    pager = page.locator("#txn-region .pager")
    with screenshot_on_failure(page, tmp_path):
        start(page, server, tmp_path)
        page.click("#to-preview")
        expect(pager).to_contain_text("Page 1 of 8")
        first = page.url
        pager.get_by_text("Next ›").click()
        expect(pager).to_contain_text("Page 2 of 8")
        assert page.url.endswith("/preview?page=2#transactions")
        page.fill("#page-number", "6")
        page.click("#page-jump button")
        expect(pager).to_contain_text("Page 6 of 8")
        assert page.url.endswith("/preview?page=6#transactions")
        page.go_back()
        expect(pager).to_contain_text("Page 2 of 8")
        assert page.url.endswith("/preview?page=2#transactions")
        page.go_back()
        expect(pager).to_contain_text("Page 1 of 8")
        assert page.url == first
        page.go_forward()
        expect(pager).to_contain_text("Page 2 of 8")
        page.reload()
        expect(pager).to_contain_text("Page 2 of 8")
        page.click("#txn-table th a:has-text('Debit')")  # sorted in the region, on the server
        expect(page.locator("#txn-table th[aria-sort=ascending]")).to_have_text("Debit")
        expect(pager).to_contain_text("Page 1 of 8")
        assert page.url.endswith("/preview?sort=amount#transactions")
        amounts = page.locator("#txn-table tr.head td.amount").all_inner_texts()
        values = [Decimal(a.removeprefix("amount").strip().replace(",", "")) for a in amounts]
        assert values == sorted(values) and len(values) == 50
        pager.get_by_text("Next ›").click()  # a page turned after a sort, then Back:
        expect(pager).to_contain_text("Page 2 of 8")
        page.go_back()  # the whole Preview comes back, not the table alone (htmx restores it)
        expect(pager).to_contain_text("Page 1 of 8")
        expect(page.locator(".steps")).to_be_visible()
        expect(page.locator("#txn-search")).to_be_visible()
        expect(page.locator("#txn-table th[aria-sort=ascending]")).to_have_text("Debit")
        page.click("#account-table th a:has-text('Number')")  # a plain link: the whole page
        expect(page.locator("#account-table th[aria-sort=ascending]")).to_have_text("Number")
        expect(page.locator("#txn-table th[aria-sort=ascending]")).to_have_text("Debit")  # kept
        page.go_back()
        expect(page.locator("#txn-table th[aria-sort=ascending]")).to_have_text("Debit")
        pager.get_by_text("Next ›").click()  # a page turned in the region, then the chart
        expect(pager).to_contain_text("Page 2 of 8")  # sorted: the region's state is kept
        page.click("#account-table th a:has-text('Account')")
        expect(page.locator("#account-table th[aria-sort=ascending]")).to_have_text("Account")
        expect(page.locator("#txn-table th[aria-sort=ascending]")).to_have_text("Debit")
        expect(pager).to_contain_text("Page 2 of 8")
        assert "page=2" in page.url and "sort=amount" in page.url

        page.click(".steps a:has-text('Files')")
        cards = page.locator("#files article.file")
        expect(cards).to_have_count(2)
        cards.nth(0).locator("form.remove button").click()
        expect(cards).to_have_count(2)
        assert len(asked) == 1 and asked[0].startswith("Remove lists.IIF?")
        dialogs.accept = True
        cards.nth(0).locator("form.remove button").click()
        expect(cards).to_have_count(1)
        expect(cards.nth(0)).to_contain_text("Transaction Detail.csv")
        said = page.locator("#files-status")  # what happened, said where the focus now is
        expect(said).to_contain_text("Removed lists.IIF")
        expect(said).to_be_focused()
        assert len(asked) == 2


def test_two_wizards_on_one_machine_keep_each_other_s_forms_working(server, browser_page, tmp_path):
    """Two wizards (two ports) in one browser: Flask's session cookie, which holds the CSRF
    token, was one for both, each server discarded the other's (another secret key), and every
    switch between them made the next form say "This page is out of date" (hunt 24)."""
    from playwright.sync_api import expect

    from tests.conftest import wizard_server

    page = browser_page
    with wizard_server(tmp_path, "second") as other:
        page.goto(server)
        second = page.context.new_page()
        second.goto(other)
        for _ in range(2):  # each in turn, the other's page loaded in between
            page.reload()
            second.reload()
            page.click("#new-migration")
            expect(page).to_have_url(re.compile(r"/m/[\w-]+/files$"))
            page.go_back()
            second.reload()
            page.reload()
            second.click("#new-migration")
            expect(second).to_have_url(re.compile(r"/m/[\w-]+/files$"))
            second.go_back()
        second.close()

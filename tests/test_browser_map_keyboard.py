"""An account of the Map step's tree moved without a mouse, in a real Chromium against ``python
run.py`` at 800 px wide (issue 27, item 3: "move by choosing the new parent in the tree ...
keyboard too"; drag and drop has no keyboard and no touch). With the keyboard only: Telephone's
Move… button, Down, then "ut" typed to jump to Utilities, Enter (the focus back on the
moved account's button): it is under Utilities, whose subtotal takes its balance,
and the tree still balances; Gas picked up and Escape: nothing moves or is saved. With a touch
screen (a tap is no drag): Move… tapped on Water, then the header tapped: Water goes to the top
level. A parent made on the Map step (Gas moved into a new "Car") renamed with its own Change…
button and the keyboard, then moved with its own Move… button to the top level (Home, Enter),
dragged back under Utilities, and refused when dropped on its own Gas: Gas goes along each
time. Screenshots in the test's tmp folder, looked at when the test was written. Each book
written then has the accounts under their new parents, with their balances."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.support.browser import import_book, sample_map

pytestmark = pytest.mark.browser

NARROW = {"width": 800, "height": 900}
SLOW = 60_000  # a busy CI machine: every state is waited for, not assumed


def _focused(page) -> str | None:
    """The focused tree row's account ("" for the header row), or None: not a row."""
    return page.evaluate(
        """() => { const r = document.activeElement;
                   if (!r || r.tagName !== "TR") return null;
                   return r.hasAttribute("data-top") ? "" : r.getAttribute("data-account"); }"""
    )


def test_an_account_is_moved_with_the_keyboard_only(
    server: str, browser_page, tmp_path: Path
) -> None:
    from playwright.sync_api import expect

    from app.gnc import read_book
    from app.model import money
    from tests.support.sample import sample_company

    company = sample_company()
    truth = company.trial_balance()
    page = browser_page
    errors = sample_map(page, server, SLOW, NARROW)
    tree = page.locator("#tree-table")
    utilities = tree.locator("tr[data-account='Utilities']")
    utilities_before = sum(v for a, v in truth.items() if a.startswith("Utilities"))
    expect(utilities.locator(".total")).to_have_text(money(utilities_before))
    status = page.locator("#tree-move")

    # Telephone's Move… button reached (as Tab reaches it) and pressed with Enter
    move = tree.locator("tr[data-account='Telephone'] button.move")
    move.focus()
    page.keyboard.press("Enter")
    phone = tree.locator("tr[data-account='Telephone']")
    expect(phone).to_have_class(re.compile(r"\bdragging\b"))
    expect(move).to_have_attribute("aria-pressed", "true")
    # it starts where the account is: the top level (the header row), the page not scrolled
    # away from the account picked up (the header is far above it)
    expect(status).to_contain_text("Moving “Telephone”: under the top level?")
    assert _focused(page) == ""
    expect(phone).to_be_in_viewport()
    # Down through the rows it may go under (itself is not one of them)
    page.keyboard.press("ArrowDown")
    assert _focused(page) not in (None, "", "Telephone")
    # letters typed jump to the next row whose own name starts with them: Utilities
    page.keyboard.type("ut")
    assert _focused(page) == "Utilities"
    expect(utilities).to_have_class(re.compile(r"\bdrop-target\b"))
    expect(status).to_contain_text("Moving “Telephone”: under “Utilities”? Enter puts it there")
    page.screenshot(path=str(tmp_path / "map-keyboard-choosing.png"))
    page.keyboard.press("Enter")

    expect(page.locator("#map-status")).to_have_text(
        "Saved: Move “Telephone” under “Utilities”.", timeout=SLOW
    )
    moved = tree.locator("tr[data-account='Utilities:Telephone']")
    expect(moved).to_be_visible()
    expect(moved.locator("button.move")).to_be_focused()  # the keyboard stays with the account
    after = money(utilities_before + truth["Telephone"])
    expect(utilities.locator(".total")).to_have_text(after)
    expect(page.locator("#tree-balance")).to_contain_text("The tree balances")
    expect(tree.locator(".drop-target, .dragging, tr[tabindex]")).to_have_count(0)
    moved.scroll_into_view_if_needed()
    page.screenshot(path=str(tmp_path / "map-keyboard-moved.png"))

    # Gas picked up, Down once, Escape: it stays, nothing posted, focus back on its button
    gas_move = tree.locator("tr[data-account='Utilities:Gas'] button.move")
    gas_move.focus()
    page.keyboard.press("Enter")
    expect(status).to_contain_text("Moving “Utilities:Gas”: under “Utilities”?")
    page.keyboard.press("ArrowDown")
    assert _focused(page) not in (None, "Utilities")
    page.keyboard.press("Escape")
    expect(status).to_have_text("“Utilities:Gas” stays where it is.")
    expect(gas_move).to_be_focused()
    expect(gas_move).to_have_attribute("aria-pressed", "false")
    expect(tree.locator(".drop-target, .dragging, tr[tabindex]")).to_have_count(0)
    rules = page.locator("#rules li")
    expect(rules.filter(has_text="Gas")).to_have_count(0)
    expect(rules.filter(has_text="Move “Telephone” under “Utilities”")).to_have_count(1)
    assert page.evaluate("() => document.documentElement.scrollWidth") <= NARROW["width"]

    book = tmp_path / "keyboard.gnucash"
    import_book(page, book)
    assert errors == []

    snap = read_book(book)  # the engine reopened
    expected = company.expected_balances()
    assert snap.account("Telephone") is None
    assert snap.account("Utilities:Telephone").balance == expected["Telephone"]
    assert snap.account("Utilities:Gas").balance == expected["Utilities:Gas"]
    print(f"screenshots in {tmp_path}")


def test_an_account_is_moved_on_a_touch_screen(server: str, browser_page, tmp_path: Path) -> None:
    from playwright.sync_api import expect

    from app.gnc import read_book
    from tests.support.sample import sample_company

    company = sample_company()
    browser = browser_page.context.browser
    context = browser.new_context(accept_downloads=True, viewport=NARROW, has_touch=True)
    try:
        page = context.new_page()
        errors = sample_map(page, server, SLOW)
        tree = page.locator("#tree-table")
        water = tree.locator("tr[data-account='Utilities:Water']")
        water.locator("button.move").tap()
        expect(water).to_have_class(re.compile(r"\bdragging\b"))
        expect(page.locator("#tree-move")).to_contain_text("Moving “Utilities:Water”")
        tree.locator("thead tr[data-top] th").first.tap()
        expect(page.locator("#map-status")).to_have_text(
            "Saved: Move “Utilities:Water” to the top level.", timeout=SLOW
        )
        expect(tree.locator("tr[data-account='Water']")).to_be_visible()
        expect(tree.locator("tr[data-account='Utilities:Water']")).to_have_count(0)
        expect(page.locator("#tree-balance")).to_contain_text("The tree balances")
        page.screenshot(path=str(tmp_path / "map-touch-moved.png"))

        book = tmp_path / "touch.gnucash"
        import_book(page, book)
        assert errors == []
    finally:
        context.close()

    snap = read_book(book)
    expected = company.expected_balances()
    assert snap.account("Utilities:Water") is None
    assert snap.account("Water").balance == expected["Utilities:Water"]


def test_a_parent_made_on_the_map_step_is_renamed_and_moved(
    server: str, browser_page, tmp_path: Path
) -> None:
    from playwright.sync_api import expect

    from app.gnc import read_book
    from tests.support.sample import sample_company

    page = browser_page
    errors = sample_map(page, server, SLOW, NARROW)
    tree = page.locator("#tree-table")
    tree.locator("tr[data-account='Utilities:Gas'] button.edit").focus()
    page.keyboard.press("Enter")
    # the form is there (the browser's autofocus), then settled (htmx focuses its name again)
    expect(page.locator("#row-form input[name='name']")).to_be_focused(timeout=SLOW)
    settled = page.locator(".htmx-added")
    expect(settled).to_have_count(0, timeout=SLOW)
    page.keyboard.press("Tab")  # its type
    page.keyboard.press("Tab")  # Under
    page.keyboard.press("Tab")  # or a new account there
    page.keyboard.type("Car")
    page.keyboard.press("Enter")
    status = page.locator("#map-status")
    expect(status).to_have_text("Saved: Move “Utilities:Gas” under “Utilities:Car”.", timeout=SLOW)
    made = tree.locator("tr[data-account='Utilities:Car']")
    expect(made.locator(".origin")).to_have_text("new parent")

    made.locator("button.edit").focus()  # the made parent's own Change…
    page.keyboard.press("Enter")
    name = page.locator("#row-form input[name='name']")
    expect(name).to_be_focused(timeout=SLOW)
    expect(settled).to_have_count(0, timeout=SLOW)
    expect(page.locator("#row-form #row-type, #row-form #row-new-parent")).to_have_count(0)
    page.screenshot(path=str(tmp_path / "map-made-parent-form.png"))
    page.keyboard.press("Control+A")
    page.keyboard.type("Vehicle")
    page.keyboard.press("Enter")
    expect(status).to_have_text(
        "Saved: “Utilities:Car” is now “Utilities:Vehicle”, with its accounts.", timeout=SLOW
    )
    expect(tree.locator("tr[data-account='Utilities:Vehicle:Gas']")).to_be_visible()
    expect(tree.locator("tr[data-account^='Utilities:Car']")).to_have_count(0)
    expect(page.locator("#tree-balance")).to_contain_text("The tree balances")
    assert page.evaluate("() => document.documentElement.scrollWidth") <= NARROW["width"]
    page.screenshot(path=str(tmp_path / "map-made-parent-renamed.png"))

    # its own Move…: picked up where it is (under Utilities), Home: the top level, Enter
    vehicle = tree.locator("tr[data-account='Utilities:Vehicle']")
    vehicle.locator("button.move").focus()
    page.keyboard.press("Enter")
    moving = page.locator("#tree-move")
    expect(moving).to_contain_text("Moving “Utilities:Vehicle”: under “Utilities”?")
    page.keyboard.press("ArrowDown")  # not its own Gas: the rows it may go under skip it
    assert _focused(page) not in (None, "Utilities:Vehicle", "Utilities:Vehicle:Gas")
    page.keyboard.press("Home")
    assert _focused(page) == ""
    page.screenshot(path=str(tmp_path / "map-made-parent-moving.png"))
    page.keyboard.press("Enter")
    expect(status).to_have_text(
        "Saved: “Utilities:Vehicle” is now “Vehicle”, with its accounts.", timeout=SLOW
    )
    top = tree.locator("tr[data-account='Vehicle']")
    expect(top.locator("button.move")).to_be_focused()  # the keyboard stays with it
    expect(top.locator(".origin")).to_have_text("new parent")
    expect(tree.locator("tr[data-account='Vehicle:Gas']")).to_be_visible()
    expect(page.locator("#tree-balance")).to_contain_text("The tree balances")

    # dragged onto its own Gas: refused, nothing moved; then dragged back under Utilities
    top.locator(".account-name").drag_to(
        tree.locator("tr[data-account='Vehicle:Gas'] .account-name")
    )
    expect(page.locator("#messages #error-message")).to_contain_text(
        "“Vehicle” cannot go under “Vehicle:Gas”, one of its own sub-accounts"
    )
    expect(tree.locator("tr[data-account='Vehicle:Gas']")).to_be_visible()
    top.locator(".account-name").drag_to(tree.locator("tr[data-account='Utilities'] .account-name"))
    expect(status).to_have_text(
        "Saved: “Vehicle” is now “Utilities:Vehicle”, with its accounts.", timeout=SLOW
    )
    expect(tree.locator("tr[data-account='Utilities:Vehicle:Gas']")).to_be_visible()
    expect(tree.locator("tr[data-account='Vehicle']")).to_have_count(0)
    expect(page.locator("#messages #error-message")).to_have_count(0)
    page.screenshot(path=str(tmp_path / "map-made-parent-dragged-back.png"))

    book = tmp_path / "made-parent.gnucash"
    import_book(page, book)
    assert errors == []

    snap = read_book(book)  # the engine reopened
    expected = sample_company().expected_balances()
    assert snap.account("Utilities:Gas") is None
    assert snap.account("Vehicle") is None
    assert snap.account("Utilities:Vehicle:Gas").balance == expected["Utilities:Gas"]
    assert snap.account("Utilities:Vehicle").balance == 0
    for kid in ("Utilities:Electric", "Utilities:Water"):
        assert snap.account(kid).balance == expected[kid], kid


def test_choosing_another_type_brings_its_lists(server: str, browser_page) -> None:
    """A row's Change… form: another type chosen, Under and Merge into become that type's
    lists at once (an expense made a bank account: under Checking, not Automobile; merged into
    Checking, not Rent); Cancel leaves the tree as it was."""
    from playwright.sync_api import expect

    page = browser_page
    errors = sample_map(page, server, SLOW, NARROW)
    tree = page.locator("#tree-table")
    tree.locator("tr[data-account='Utilities:Gas'] button.edit").click()
    under, into = page.locator("#row-parent"), page.locator("#row-merge")
    expect(under.locator("option[value='Automobile']")).to_have_count(1, timeout=SLOW)
    expect(into.locator("option", has_text="Rent")).to_have_count(1)
    page.locator("#row-type").select_option("BANK")
    expect(under.locator("option[value='Automobile']")).to_have_count(0, timeout=SLOW)
    expect(under.locator("option[value='Checking']")).to_have_count(1)
    expect(into.locator("option", has_text="Rent")).to_have_count(0)
    expect(into.locator("option", has_text="Checking")).to_have_count(1)
    expect(page.locator("#row-type")).to_have_value("BANK")  # the choice stays
    page.locator("#row-cancel").click()
    expect(tree.locator("tr[data-account='Utilities:Gas'] button.edit")).to_be_visible(timeout=SLOW)
    expect(page.locator("#rules li")).to_have_count(0)
    assert errors == []

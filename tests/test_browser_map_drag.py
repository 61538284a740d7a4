"""An account of the Map step's tree moved with the mouse, in a real Chromium against ``python
run.py`` at 800 px wide (issue 27, item 3): "Telephone" dragged onto "Utilities" (the row
under the pointer highlighted, the one dragged dimmed; a screenshot mid-drag and one after the
drop in the test's tmp folder, looked at when the test was written), dropped: it is under
Utilities, whose subtotal takes its balance, and the tree still balances. A drop of Utilities
onto its own Gas is refused in the page's messages, the tree as it was. The book written then
has the account under its new parent, with its balance."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.support.browser import import_book, sample_map

pytestmark = pytest.mark.browser

NARROW = {"width": 800, "height": 900}
SLOW = 60_000  # a busy CI machine: every state is waited for, not assumed


def test_an_account_is_dragged_onto_its_new_parent_in_the_map_tree(
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
    phone = tree.locator("tr[data-account='Telephone']")
    utilities = tree.locator("tr[data-account='Utilities']")
    expect(phone).to_be_visible()
    expect(page.locator("#tree-drag")).to_be_visible()  # the hint, with the script
    utilities_before = sum(v for a, v in truth.items() if a.startswith("Utilities"))
    expect(utilities.locator(".total")).to_have_text(money(utilities_before))

    # by hand, to see it mid-drag: pressed on Telephone, moved onto Utilities
    phone.scroll_into_view_if_needed()
    phone.locator(".account-name").hover()
    page.mouse.down()
    box = utilities.bounding_box()
    assert box is not None
    for step in range(1, 6):  # several moves: dragover fires on the row under the pointer
        page.mouse.move(box["x"] + 40, box["y"] + box["height"] * step / 6)
    expect(utilities).to_have_class(re.compile(r"\bdrop-target\b"))
    expect(phone).to_have_class(re.compile(r"\bdragging\b"))
    page.screenshot(path=str(tmp_path / "map-mid-drag.png"))
    page.mouse.up()

    expect(page.locator("#map-status")).to_have_text(
        "Saved: Move “Telephone” under “Utilities”.", timeout=SLOW
    )
    moved = tree.locator("tr[data-account='Utilities:Telephone']")
    expect(moved).to_be_visible()
    expect(tree.locator("tr[data-account='Telephone']")).to_have_count(0)
    after = money(utilities_before + truth["Telephone"])
    expect(utilities.locator(".total")).to_have_text(after)
    expect(page.locator("#tree-balance")).to_contain_text("The tree balances")
    expect(tree.locator(".drop-target, .dragging")).to_have_count(0)
    expect(page.locator("#save-state")).to_contain_text("All changes saved")
    expect(page.locator("#save-state")).not_to_have_class("failed")
    moved.scroll_into_view_if_needed()
    page.screenshot(path=str(tmp_path / "map-dropped.png"))
    assert page.evaluate("() => document.documentElement.scrollWidth") <= NARROW["width"]

    # Utilities onto its own Gas: refused, said, nothing moved (Playwright's own drag this time)
    tree.locator("tr[data-account='Utilities'] .account-name").drag_to(
        tree.locator("tr[data-account='Utilities:Gas'] .account-name")
    )
    expect(page.locator("#messages #error-message")).to_contain_text(
        "“Utilities” cannot go under “Utilities:Gas”, one of its own sub-accounts"
    )
    expect(page.locator("#save-state")).to_have_class(re.compile(r"\bfailed\b"))
    expect(tree.locator("tr[data-account='Utilities:Gas']")).to_be_visible()
    expect(utilities.locator(".total")).to_have_text(after)
    rules = page.locator("#rules li")
    expect(rules.filter(has_text="Move “Telephone” under “Utilities”")).to_have_count(1)
    expect(rules.filter(has_text="“Utilities” under")).to_have_count(0)
    page.screenshot(path=str(tmp_path / "map-refused.png"))

    book = tmp_path / "dragged.gnucash"
    import_book(page, book)
    assert errors == []

    snap = read_book(book)  # the engine reopened
    expected = company.expected_balances()
    assert snap.account("Telephone") is None
    assert snap.account("Utilities:Telephone").balance == expected["Telephone"]
    for kid in ("Utilities:Gas", "Utilities:Electric", "Utilities:Water"):
        assert snap.account(kid).balance == expected[kid], kid
    print(f"screenshots in {tmp_path}")

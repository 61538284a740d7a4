"""An account of the Map step's tree dragged onto another row (issue 27, item 3): the drop posts
what the row's Change… form posts for choosing that parent (its account and parent only, to
the same address), so it saves the same move rule, and the tree re-renders with the account
under its new parent. A drop that makes no sense (onto itself, onto an account under it, onto
one the form's "Under" list would not offer) is refused with one message and saves nothing.
The browser's side: tests/test_browser_map_drag.py."""

from __future__ import annotations

import json

import pytest

from app import sample
from app.model import money
from tests.support.sample import sample_company
from tests.support.web import HX, new_migration, soup, upload


def _migration(client):
    prefix, csrf = new_migration(client)
    for path in sample.files():
        upload(client, prefix, csrf, path.name, data=path.read_bytes())
    return prefix, csrf


def _drop(client, prefix, csrf, account: str, parent: str):
    """What static/app.js posts when ``account``'s row is dropped on ``parent``'s ("": the
    table's header, the top level)."""
    data = {"account": account, "parent": parent}
    return client.post(f"{prefix}/map/edit", data=data, headers=csrf | HX)


def _plan(client, prefix) -> dict:
    return json.loads(client.get(f"{prefix}/plan.json").data)


def _totals(page) -> dict[str, str]:
    out = {}
    for tr in page.select("#tree-table tbody tr[data-account]"):
        total = tr.select("td")[3].select_one(".total")
        out[tr["data-account"]] = total.text if total else tr.select("td")[3].text.strip()
    return out


def test_the_tree_rows_are_dragged_to_the_change_forms_address(client):
    prefix, _ = _migration(client)
    page = soup(client.get(f"{prefix}/map"))
    table = page.select_one("#tree-table")
    form = soup(client.get(f"{prefix}/map/edit", query_string={"account": "Utilities:Gas"}))
    assert table["data-move"] == form.select_one("#row-form")["hx-post"]
    gas = table.select_one("tr[data-account='Utilities:Gas']")
    assert gas["draggable"] == "true" and gas["data-origin"] == "Utilities:Gas"
    assert table.select_one("thead tr").has_attr("data-top")  # dropped on: the top level
    assert "Drag an account onto another" in page.select_one("#tree-drag").text


def test_a_drop_saves_the_rule_the_form_saves_and_moves_the_subtotals(client):
    truth = sample_company().trial_balance()
    prefix, csrf = _migration(client)
    r = _drop(client, prefix, csrf, "Utilities:Gas", "Automobile")
    assert r.status_code == 200
    page = soup(r)
    said = page.select_one("#map-status").text
    assert said == "Saved: Move “Utilities:Gas” under “Automobile”."
    totals = _totals(page)
    assert "Utilities:Gas" not in totals and "Automobile:Gas" in totals
    auto = sum(v for a, v in truth.items() if a == "Automobile" or a.startswith("Automobile:"))
    assert totals["Automobile"] == money(auto + truth["Utilities:Gas"])
    utilities = sum(v for a, v in truth.items() if a.startswith("Utilities"))
    assert totals["Utilities"] == money(utilities - truth["Utilities:Gas"])
    assert "ok" in page.select_one("#tree-balance")["class"]
    dropped = _plan(client, prefix)

    # the same choice made in the row's Change… form, in another migration: the same plan
    other, csrf2 = _migration(client)
    form = {"account": "Utilities:Gas", "name": "Gas", "type": "EXPENSE", "parent": "Automobile"}
    r = client.post(f"{other}/map/edit", data=form, headers=csrf2 | HX)
    assert soup(r).select_one("#map-status").text == said
    assert _plan(client, other) == dropped
    move = {"kind": "move", "account": "Utilities:Gas", "target": "Automobile"}
    assert dropped["rules"] == [move]

    # onto the header: the top level; onto the parent it has: nothing changed, nothing saved
    page = soup(_drop(client, prefix, csrf, "Utilities:Gas", ""))
    assert page.select_one("#map-status").text == "Saved: Move “Utilities:Gas” to the top level."
    assert "Gas" in _totals(page)
    before = _plan(client, prefix)
    page = soup(_drop(client, prefix, csrf, "Utilities:Gas", ""))
    assert page.select_one("#map-status").text == "Nothing changed."
    assert _plan(client, prefix) == before


@pytest.mark.parametrize(
    ("account", "parent", "message"),
    [
        ("Utilities:Gas", "Utilities:Gas", "“Utilities:Gas” cannot go under itself: nothing"),
        ("Utilities", "Utilities:Gas", "“Utilities” cannot go under “Utilities:Gas”, one of its"),
        ("Automobile", "Automobile:Fuel", "cannot go under “Automobile:Fuel”, one of its own"),
        ("Utilities:Gas", "Nowhere", "There is no account “Nowhere” in the tree to put"),
        ("Utilities:Gas", "Utilities:Gas:", "There is no account “Utilities:Gas:” in the tree"),
        # GnuCash's own rule: income and expense apart from the balance sheet, equity alone
        (
            "Advertising",
            "Checking",
            "“Advertising” (an Expense account) cannot go under “Checking” (a Bank account)",
        ),
        ("Checking", "Rent", "“Checking” (a Bank account) cannot go under “Rent” (an Expense"),
    ],
)
def test_a_drop_that_makes_no_sense_is_refused_and_saves_nothing(client, account, parent, message):
    prefix, csrf = _migration(client)
    _drop(client, prefix, csrf, "Repairs", "Automobile")  # a plan with a rule already
    before, tree = _plan(client, prefix), _totals(soup(client.get(f"{prefix}/map")))
    r = _drop(client, prefix, csrf, account, parent)
    assert r.status_code == 422
    assert r.headers["HX-Retarget"] == "#messages"  # said in the page's messages
    said = soup(r).select("#error-message p")
    assert len(said) == 1 and message in said[0].text and "nothing changed" in said[0].text
    assert _plan(client, prefix) == before
    assert _totals(soup(client.get(f"{prefix}/map"))) == tree


def test_the_change_form_refuses_a_parent_its_list_does_not_offer(client):
    """One rule for both: the form posted with a parent its "Under" list leaves out."""
    prefix, csrf = _migration(client)
    form = soup(client.get(f"{prefix}/map/edit", query_string={"account": "Utilities"}))
    offered = {o["value"] for o in form.select("#row-parent option")}
    assert "Utilities:Gas" not in offered and "Utilities" not in offered
    data = {"account": "Utilities", "name": "Energy", "type": "EXPENSE", "parent": "Utilities:Gas"}
    r = client.post(f"{prefix}/map/edit", data=data, headers=csrf | HX)
    assert r.status_code == 422 and "one of its own sub-accounts" in r.text
    assert _plan(client, prefix)["rules"] == []  # not even the rename


def test_the_change_form_offers_only_parents_gnucash_takes_for_the_type(client):
    """An expense account is offered expense and income parents (and the top level), no bank
    or equity account; with its type changed to Bank in the same form, Checking is taken."""
    prefix, csrf = _migration(client)
    form = soup(client.get(f"{prefix}/map/edit", query_string={"account": "Advertising"}))
    offered = {o["value"] for o in form.select("#row-parent option")}
    assert {"", "Utilities", "Automobile"} <= offered
    assert not offered & {"Checking", "Accounts Receivable", "Opening Balance Equity"}
    data = {"account": "Advertising", "name": "Advertising", "type": "BANK", "parent": "Checking"}
    r = client.post(f"{prefix}/map/edit", data=data, headers=csrf | HX)
    assert r.status_code == 200, r.text
    rules = _plan(client, prefix)["rules"]
    assert {"kind": "move", "account": "Advertising", "target": "Checking"} in rules


def test_a_drop_onto_a_parent_the_plan_made_under_gnucashs_standard_tree(client):
    """With the standard tree (Assets, ..., Expenses made by the plan): a row the plan made is
    dropped on, never dragged (it is no QuickBooks account), and the names are the tree's."""
    prefix, csrf = _migration(client)
    settings = {"reparent": "1", "currency": "USD", "format": "xml", "mode": "full"}
    page = soup(client.post(f"{prefix}/map/settings", data=settings, headers=csrf | HX))
    made = page.select_one("#tree-table tr[data-account='Expenses']")
    assert made.select_one(".origin").text == "new parent" and not made.has_attr("draggable")
    page = soup(_drop(client, prefix, csrf, "Utilities:Gas", "Expenses"))
    assert page.select_one("#map-status").text == "Saved: Move “Utilities:Gas” under “Expenses”."
    assert "Expenses:Gas" in _totals(page) and "ok" in page.select_one("#tree-balance")["class"]
    r = _drop(client, prefix, csrf, "Utilities", "Expenses:Utilities:Electric")
    assert r.status_code == 422
    assert "“Expenses:Utilities” cannot go under “Expenses:Utilities:Electric”" in r.text
    move = {"kind": "move", "account": "Utilities:Gas", "target": "Expenses"}
    assert _plan(client, prefix)["rules"] == [move]

"""The Map step's tree with money (issue 27, item 3): every account's number, GnuCash type in
GnuCash's words and QuickBooks balance as GnuCash's tree shows it (credit-natured accounts
positive), each parent's subtotal, and the live check that the tree still balances; moving,
retyping and merging chosen from lists, saved as rules of the plan. Figures against the
generator's truth (the sample company)."""

from __future__ import annotations

import json
from decimal import Decimal

from app import sample
from app.gnc import read_book
from app.model import money
from tests.support.sample import sample_company, tree_shown
from tests.support.web import HX, new_migration, soup, token, upload, wait_done


def _migration(client):
    prefix, csrf = new_migration(client)
    for path in sample.files():
        upload(client, prefix, csrf, path.name, data=path.read_bytes())
    return prefix, csrf


def _rows(page) -> dict[str, tuple[str, str, str, str]]:
    out = {}
    for tr in page.select("#tree-table tbody tr[data-account]"):
        cells = tr.select("td")
        total = cells[3].select_one(".total")
        own = total.text if total else cells[3].text.strip()
        out[tr["data-account"]] = (cells[1].text, cells[2].text, own, tr.select_one(".origin").text)
    return out


def test_the_tree_shows_numbers_types_balances_and_subtotals(client):
    company = sample_company()
    truth = company.trial_balance()
    prefix, _ = _migration(client)
    page = soup(client.get(f"{prefix}/map"))
    rows = _rows(page)
    numbers = {a[0]: a[2] for a in company.accounts}
    for account, value in truth.items():
        if company.account_type(account) == "NONPOSTING":
            continue
        children = [a for a in truth if a.startswith(account + ":")]
        expected = value + sum((truth[c] for c in children), Decimal(0))
        code, _type, shown, _origin = rows[account]
        assert code == numbers[account], account
        if value or children:
            assert shown == tree_shown(company, account, expected), account
    assert rows["Checking"][1] == "Bank" and rows["Accounts Receivable"][1] == "A/Receivable"
    assert rows["CalOil Card"][1] == "Credit Card" and rows["Design Income"][1] == "Income"
    debits = sum((v for v in truth.values() if v > 0), Decimal(0))
    check = page.select_one("#tree-balance")
    assert "ok" in check["class"]
    assert f"debits {money(debits)} = credits {money(debits)}" in check.text
    assert "without a minus sign" in page.select_one("#tree-sign").text


def test_moving_retyping_and_merging_are_chosen_from_lists_and_kept_in_the_plan(client):
    company = sample_company()
    truth = company.trial_balance()
    prefix, csrf = _migration(client)
    form = soup(client.get(f"{prefix}/map/edit", query_string={"account": "Utilities:Gas"}))
    parents = [o["value"] for o in form.select("#row-parent option")]
    assert parents[0] == "" and "Automobile" in parents and "Utilities:Gas" not in parents
    assert form.select_one("#row-parent option[selected]")["value"] == "Utilities"
    types = {o["value"]: o.text for o in form.select("#row-type option")}
    assert types["RECEIVABLE"] == "A/Receivable" and types["EXPENSE"] == "Expense"
    # merged only into an account of its own kind, as QuickBooks merges: expenses, no bank
    into = {o.text for o in form.select("#row-merge option") if o["value"]}
    assert "Utilities:Water" in into and "Rent" in into and "Utilities:Gas" not in into
    assert not into & {"Checking", "Accounts Receivable", "Sales", "Owner's Equity"}
    assert all(company.account_type(a) in ("EXP", "EXEXP", "COGS") for a in into), into
    # another type chosen in the form: its lists are those of that type (what the form swaps in)
    form = soup(
        client.get(f"{prefix}/map/edit", query_string={"account": "Utilities:Gas", "type": "BANK"})
    )
    under = [o["value"] for o in form.select("#row-parent option")]
    assert "Automobile" not in under and "Checking" in under
    assert "Utilities" in under  # (its parent now stays offered; the tree's check says more)
    into = {o.text for o in form.select("#row-merge option") if o["value"]}
    assert "Checking" in into and "Rent" not in into
    assert all(company.account_type(a) in ("BANK", "OCASSET", "AR", "FIXASSET") for a in into)

    # retype and merge from the change card's lists (no type or path typed)
    retype = {"account": "Savings", "kind": "retype", "type": "ASSET"}
    page = soup(client.post(f"{prefix}/map/rules", data=retype, headers=csrf | HX))
    assert _rows(page)["Savings"][1] == "Asset"
    merge = {"account": "Repairs", "kind": "merge", "merge": "Automobile:Repairs and Maintenance"}
    page = soup(client.post(f"{prefix}/map/rules", data=merge, headers=csrf | HX))
    rows = _rows(page)
    assert "Repairs" not in rows
    merged = truth["Repairs"] + truth["Automobile:Repairs and Maintenance"]
    assert rows["Automobile:Repairs and Maintenance"][2] == money(merged)
    assert "ok" in page.select_one("#tree-balance")["class"]
    # back to the top level
    top = {"account": "Utilities:Gas", "kind": "move", "parent": ""}
    page = soup(client.post(f"{prefix}/map/rules", data=top, headers=csrf | HX))
    assert "Gas" in _rows(page)
    assert "Move “Utilities:Gas” to the top level" in page.select_one("#map-status").text


def test_an_account_moves_into_a_new_parent_made_under_the_one_chosen(client):
    company = sample_company()
    truth = company.trial_balance()
    prefix, csrf = _migration(client)
    form = soup(client.get(f"{prefix}/map/edit", query_string={"account": "Utilities:Gas"}))
    assert form.select_one("#row-new-parent")["name"] == "new_parent"
    data = {
        "account": "Utilities:Gas",
        "name": "Gas",
        "type": "EXPENSE",
        "parent": "Utilities",
        "new_parent": " Energy ",
    }
    page = soup(client.post(f"{prefix}/map/edit", data=data, headers=csrf | HX))
    assert "Move “Utilities:Gas” under “Utilities:Energy”" in page.select_one("#map-status").text
    rows = _rows(page)
    assert "Utilities:Energy:Gas" in rows and "Utilities:Gas" not in rows
    fuel = rows["Utilities:Energy"]  # made here: a parent with the one account's balance
    assert fuel[3] == "new parent" and fuel[1] == "Expense"
    assert fuel[2] == money(truth["Utilities:Gas"])
    assert "ok" in page.select_one("#tree-balance")["class"]
    rules = json.loads(client.get(f"{prefix}/plan.json").data)["rules"]
    assert {"kind": "move", "account": "Utilities:Gas", "target": "Utilities:Energy"} in rules

    # at the top level, two levels at once; an empty level is refused, nothing saved
    data |= {"parent": "", "new_parent": "Car:Fuel"}
    assert "Car:Fuel:Gas" in _rows(
        soup(client.post(f"{prefix}/map/edit", data=data, headers=csrf | HX))
    )
    data |= {"new_parent": "Car::Fuel"}
    r = client.post(f"{prefix}/map/edit", data=data, headers=csrf | HX)
    assert r.status_code == 422 and "“Car::Fuel” has a level without a name" in r.text
    rules = json.loads(client.get(f"{prefix}/plan.json").data)["rules"]
    assert {"kind": "move", "account": "Utilities:Gas", "target": "Car:Fuel"} in rules


def test_a_parent_made_on_the_map_step_is_renamed_and_moved_with_its_accounts(client, tmp_path):
    company = sample_company()
    truth = company.trial_balance()
    prefix, csrf = _migration(client)
    gas = {"account": "Utilities:Gas", "name": "Gas", "type": "EXPENSE", "parent": ""}
    client.post(f"{prefix}/map/edit", data=gas | {"new_parent": "Car:Fuel"}, headers=csrf | HX)
    page = soup(client.get(f"{prefix}/map"))
    made = page.select('#tree-table tr[data-account="Car"] .edit')
    assert made and "path=Car" in made[0]["hx-get"]  # a made parent has its Change… button
    own = page.select_one('#tree-table tr[data-account="Utilities"] .edit')["hx-get"]
    assert "account=Utilities" in own and "path=" not in own  # a QuickBooks account's own
    form = soup(client.get(f"{prefix}/map/edit", query_string={"path": "Car"}))
    assert form.select_one('input[name="path"]')["value"] == "Car"
    assert form.select_one('input[name="name"]')["value"] == "Car"
    assert not form.select("#row-type, #row-merge, #row-new-parent")  # its name and place only
    parents = [o["value"] for o in form.select("#row-parent option")]
    assert "Automobile" in parents and "Car" not in parents and "Car:Fuel" not in parents

    # renamed: everything under it goes along; the plan's moves say the new path
    data = {"path": "Car", "name": "Vehicle", "parent": ""}
    page = soup(client.post(f"{prefix}/map/edit", data=data, headers=csrf | HX))
    assert (
        "Saved: “Car” is now “Vehicle”, with its accounts." in page.select_one("#map-status").text
    )
    rows = _rows(page)
    assert "Vehicle:Fuel:Gas" in rows and not any(a.startswith("Car") for a in rows)
    assert rows["Vehicle"][2] == money(truth["Utilities:Gas"])
    # moved: a level of it under a QuickBooks account; the emptied parent is gone
    data = {"path": "Vehicle:Fuel", "name": "Car Fuel", "parent": "Automobile"}
    page = soup(client.post(f"{prefix}/map/edit", data=data, headers=csrf | HX))
    rows = _rows(page)
    assert "Automobile:Car Fuel:Gas" in rows and "Vehicle" not in rows
    assert "ok" in page.select_one("#tree-balance")["class"]
    rules = json.loads(client.get(f"{prefix}/plan.json").data)["rules"]
    assert {"kind": "move", "account": "Utilities:Gas", "target": "Automobile:Car Fuel"} in rules

    # to the top level and back: the plan's moves as they were
    top = {"path": "Automobile:Car Fuel", "name": "Car Fuel", "parent": ""}
    assert "Car Fuel:Gas" in _rows(
        soup(client.post(f"{prefix}/map/edit", data=top, headers=csrf | HX))
    )
    back = {"path": "Car Fuel", "name": "Car Fuel", "parent": "Automobile"}
    client.post(f"{prefix}/map/edit", data=back, headers=csrf | HX)

    # refused, nothing saved: a colon, an account already there, a place GnuCash would not take
    # it, a QuickBooks account
    fuel = {"path": "Automobile:Car Fuel", "name": "Car Fuel", "parent": "Automobile"}
    for data, says in [
        (fuel | {"name": "A:B"}, "without a colon"),
        (fuel | {"name": "Fuel"}, "There is already an account “Automobile:Fuel”"),  # the sample's
        (fuel | {"parent": "Checking"}, "cannot go under “Checking” (a Bank account)"),
        ({"path": "Utilities", "name": "Power", "parent": ""}, "no new account “Utilities”"),
    ]:
        r = client.post(f"{prefix}/map/edit", data=data, headers=csrf | HX)
        assert r.status_code == 422 and says in r.text, data
    assert json.loads(client.get(f"{prefix}/plan.json").data)["rules"] == rules
    r = client.get(f"{prefix}/map/edit", query_string={"path": "Car"})
    assert r.status_code == 422 and "reload the page" in r.text

    # the book written has the account where the tree shows it, with its money
    csrf = {"X-CSRF-Token": token(client)}
    assert client.post(f"{prefix}/import", headers=csrf | HX).status_code == 200
    assert wait_done(client, prefix, timeout=300).select_one("#job")["data-state"] == "done"
    book = tmp_path / "book.gnucash"
    with client.get(f"{prefix}/download/book") as got:
        book.write_bytes(got.data)
    snap = read_book(book)
    gas = company.expected_balances()["Utilities:Gas"]  # all time (truth: this year)
    assert snap.account("Automobile:Car Fuel:Gas").balance == gas
    assert snap.account("Automobile:Car Fuel").balance == 0
    assert "Utilities:Gas" not in {a.full_name for a in snap.accounts}

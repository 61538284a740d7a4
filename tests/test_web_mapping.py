"""Step 3, Map: rules and the resulting tree, inline validation, click-to-edit, settings, the
plan file.

Through Flask's test client with real files and the real app; pages are checked by element id
and text with BeautifulSoup, and htmx requests (``HX-Request``) must get the swapped region alone.
"""

from __future__ import annotations

import io
import json

from tests.support.web import HX, is_fragment, new_migration, soup, upload


def test_map_rules_tree_and_inline_validation(client):
    prefix, csrf = new_migration(client)
    upload(client, prefix, csrf, "lists.iif", "txns.iif")
    r = client.post(
        f"{prefix}/map/rules",
        data={"account": "Checking", "kind": "rename", "target": "Main Checking"},
        headers=csrf | HX,
    )
    assert r.status_code == 200 and is_fragment(r)
    tree = [tr["data-account"] for tr in soup(r).select("#tree-table tbody tr")]
    assert "Main Checking" in tree and "Checking" not in tree
    check = client.post(
        f"{prefix}/map/check",
        data={"account": "Sales", "kind": "rename", "target": "Main Checking"},
        headers=csrf | HX,
    )
    assert "would be named" in check.get_data(as_text=True) or "Main Checking" in check.text
    colon = client.post(
        f"{prefix}/map/check",
        data={"account": "Sales", "kind": "rename", "target": "A:B"},
        headers=csrf | HX,
    )
    assert "must not contain “:”" in soup(colon).text
    bad = client.post(
        f"{prefix}/map/rules",
        data={"account": "Sales", "kind": "rename", "target": "A:B"},
        headers=csrf | HX,
    )
    assert bad.status_code == 422 and "must not contain “:”" in soup(bad).text
    nul = client.post(
        f"{prefix}/map/rules",
        data={"account": "Sales", "kind": "rename", "target": "Sa\x00les"},
        headers=csrf | HX,
    )
    assert nul.status_code == 422 and "must not contain a control character" in soup(nul).text
    r = client.post(
        f"{prefix}/map/settings",
        data={
            "reparent": "1",
            "currency": "usd",
            "format": "sqlite",
            "mode": "full",
            "fiscal_year_start": "7-1",
        },
        headers=csrf | HX,
    )
    tree = [tr["data-account"] for tr in soup(r).select("#tree-table tbody tr")]
    assert "Assets:Current Assets:Main Checking" in tree
    plan = json.loads(client.get(f"{prefix}/plan.json").data)
    assert plan["reparent"] is True and plan["currency"] == "USD" and plan["format"] == "sqlite"
    assert plan["cutover"]["fiscal_year_start"] == "07-01"
    assert plan["rules"] == [{"account": "Checking", "kind": "rename", "target": "Main Checking"}]
    r = client.post(f"{prefix}/map/rules/0/delete", headers=csrf | HX)
    assert "Checking" in [tr["data-account"] for tr in soup(r).select("#tree-table tbody tr")][
        :5
    ] or "Assets:Current Assets:Checking" in r.get_data(as_text=True)
    assert client.post(f"{prefix}/map/rules/5/delete", headers=csrf | HX).status_code == 422
    full = client.get(f"{prefix}/map")
    assert not is_fragment(full) and soup(full).select_one("#to-import")


def test_map_settings_refuse_bad_values(client):
    prefix, csrf = new_migration(client)
    upload(client, prefix, csrf, "lists.iif")
    cases = [
        ({"currency": "dollars"}, "three-letter"),
        ({"currency": "XYZ"}, "Unknown currency “XYZ”: GnuCash keeps books in ISO codes"),
        ({"currency": "USD", "fiscal_year_start": "13-40"}, "fiscal year start"),
        ({"currency": "USD", "mode": "balances_only"}, "cutover date"),
        (  # one reading or the other: never guessed, so no day is suggested
            {"currency": "USD", "mode": "balances_only", "date": "01/02/2024"},
            "(got “01/02/2024”).",
        ),
        (
            {"currency": "USD", "mode": "balances_only", "date": "12/31/2023"},
            "The cutover date is a date like 2024-01-02 (got “12/31/2023”: for that day "
            "write 2023-12-31).",
        ),
    ]
    for form, words in cases:
        r = client.post(f"{prefix}/map/settings", data=form, headers=csrf | HX)
        assert r.status_code == 422 and words in r.get_data(as_text=True)
    r = client.post(
        f"{prefix}/map/settings",
        data={"currency": "USD", "mode": "balances_only", "date": "2024-01-01"},
        headers=csrf | HX,
    )
    assert r.status_code == 200


def test_balances_only_is_prefilled_with_the_export_date(client):
    """Choosing "Only the balances" on the form as it is shown saves: the cutover date is
    prefilled with the day QuickBooks' figures are from (before, it was empty and the choice
    was refused at once)."""
    prefix, csrf = new_migration(client)
    upload(client, prefix, csrf, "lists.iif", "txns.iif")
    form = soup(client.get(f"{prefix}/map")).select_one("#settings-form")
    day = form.select_one("#cutover-date")["value"]
    assert day == form.select_one("#export-date")["value"] and day
    data = {
        i["name"]: i.get("value", "")
        for i in form.select("input[name]")
        if i.get("type") not in ("checkbox", "radio")
    } | {"mode": "balances_only", "format": "xml"}
    r = client.post(f"{prefix}/map/settings", data=data, headers=csrf | HX)
    assert r.status_code == 200, r.get_data(as_text=True)
    assert json.loads(client.get(f"{prefix}/plan.json").data)["cutover"]["date"] == day
    # one way of writing a day on every page: a text field in YYYY-MM-DD, not the browser's
    # own date field (which shows the computer's 12/15/2026 beside the text's 2026-12-15)
    for field in form.select("#cutover-date, #export-date"):
        assert field["type"] == "text" and field["placeholder"] == "YYYY-MM-DD"
    assert not soup(client.get(f"{prefix}/map")).select("input[type=date]")
    r = client.post(f"{prefix}/map/settings", data=data | {"date": "2024-1-5"}, headers=csrf | HX)
    assert r.status_code == 200, r.get_data(as_text=True)
    assert json.loads(client.get(f"{prefix}/plan.json").data)["cutover"]["date"] == "2024-01-05"


def test_a_plan_file_with_an_unknown_currency_is_an_error_on_preview_and_map(client):
    """A plan file is not the settings form: its currency is checked with the rest (validate),
    so Preview and Map say it and the import is refused before anything is written."""
    prefix, csrf = new_migration(client)
    upload(client, prefix, csrf, "lists.iif")
    plan = json.loads(client.get(f"{prefix}/plan.json").data) | {"currency": "XYZ"}
    file = (io.BytesIO(json.dumps(plan).encode()), "plan.json")
    r = client.post(f"{prefix}/plan", data={"plan": file}, headers=csrf | HX)
    assert r.status_code == 200
    words = "unknown currency “XYZ”"
    fix = "set “Currency” on the Map step to an ISO code such as USD"
    preview = client.get(f"{prefix}/preview").get_data(as_text=True)
    assert words in preview and fix in preview
    assert "1 problem to fix before importing" in client.get(f"{prefix}/map").get_data(as_text=True)
    r = client.post(f"{prefix}/import", headers=csrf | HX)
    assert r.status_code == 422 and words in r.get_data(as_text=True)


def test_a_change_naming_no_account_says_where_to_undo_it_in_the_wizard_s_words(client):
    """A change naming an account none of the files lists (a plan file's, or one saved before
    its file was removed) is said on the Map step with the undo beside it and the name the files
    have; never a command-line flag."""
    prefix, csrf = new_migration(client)
    upload(client, prefix, csrf, "lists.iif")
    plan = json.loads(client.get(f"{prefix}/plan.json").data) | {
        "rules": [{"kind": "retype", "account": "Chequing", "target": "BANK"}]
    }
    file = (io.BytesIO(json.dumps(plan).encode()), "plan.json")
    assert client.post(f"{prefix}/plan", data={"plan": file}, headers=csrf | HX).status_code == 200
    said = soup(client.get(f"{prefix}/map")).select_one("#tree-problems").text
    assert (
        "the change retype “Chequing” names account “Chequing”, which none of the files lists "
        "(they list “Checking”); to fix: choose “undo” beside the change under “Your changes” "
        "on the Map step, or add the file that lists the account again on the Files step"
    ) in said
    assert "--" not in said


def test_plan_download_and_upload(client):
    prefix, csrf = new_migration(client)
    upload(client, prefix, csrf, "lists.iif")
    r = client.get(f"{prefix}/plan.json")
    assert r.headers["Content-Disposition"].startswith("attachment")
    plan = json.loads(r.data) | {
        "reparent": True,
        "rules": [{"kind": "rename", "account": "Sales", "target": "Revenue"}],
    }
    r = client.post(
        f"{prefix}/plan",
        data={"plan": (io.BytesIO(json.dumps(plan).encode()), "mine.json")},
        headers=csrf | HX,
    )
    assert r.status_code == 200 and "Income:Revenue" in r.get_data(as_text=True)
    assert json.loads(client.get(f"{prefix}/plan.json").data)["reparent"] is True
    r = client.post(
        f"{prefix}/plan", data={"plan": (io.BytesIO(b"{nope"), "bad.json")}, headers=csrf | HX
    )
    assert r.status_code == 422 and "bad.json:1: not valid JSON" in r.get_data(as_text=True)
    assert "Expecting" not in r.get_data(as_text=True)  # (Python's words: hunt 28)
    # wrong types, unknown settings, another encoding: refused, nothing saved, every step up
    # (they were 500s, and a numeric cutover date saved first left Map, Files, Preview and
    # Import failing: hunt 15)
    for bad, said in (
        (b'{"cutover": {"mode": "balances_only", "date": 20191225}}', "cutover.date must be"),
        (b'{"files": {"x.csv": {"columns": {"Date": 5}}}}', "files.x.csv.columns.Date must"),
        (b'{"rulez": []}', "unknown setting “rulez”"),
        ('{"reparent": false, "currency": "Miète"}'.encode("latin-1"), "its text is not UTF-8"),
        # (hunt 20: a lone surrogate was saved, then every Map page a 500; a long number a 500)
        (b'{"currency": "\\ud800"}', "currency holds a character that is no text"),
        (b'{"account_map": {"\\udc00": "Sales"}}', "a name in account_map holds a character"),
        (b'{"reparent": ' + b"1" * 5000 + b"}", "not a plan (it holds a number too long to read)"),
    ):
        r = client.post(
            f"{prefix}/plan", data={"plan": (io.BytesIO(bad), "odd.json")}, headers=csrf | HX
        )
        assert r.status_code == 422 and said in r.get_data(as_text=True), r.get_data(as_text=True)
    assert json.loads(client.get(f"{prefix}/plan.json").data)["reparent"] is True
    for step in ("map", "files", "preview", "import"):
        assert client.get(f"{prefix}/{step}").status_code == 200, step
    # a plan over 2 MiB (a large chart's account_map) was cut and called "not valid JSON"
    labels = {f"Report label {n:06d} with a long name": "Sales" for n in range(60_000)}
    big = json.dumps(plan | {"account_map": labels}).encode()
    assert len(big) > 2 * 1024 * 1024
    r = client.post(
        f"{prefix}/plan", data={"plan": (io.BytesIO(big), "big.json")}, headers=csrf | HX
    )
    assert r.status_code == 200, r.get_data(as_text=True)[:300]
    assert len(json.loads(client.get(f"{prefix}/plan.json").data)["account_map"]) == 60_000


def test_inline_validation_of_type_families_and_merges(client):
    prefix, csrf = new_migration(client)
    upload(client, prefix, csrf, "lists.iif", "txns.iif")
    form = {"account": "Utilities:Gas", "kind": "retype", "target": "BANK"}
    r = client.post(f"{prefix}/map/check", data=form, headers=csrf | HX)
    assert r.status_code == 200 and "field-error" in soup(r).select_one("#rule-check")["class"]
    assert "cannot sit under “Utilities”" in soup(r).text
    ok = client.post(f"{prefix}/map/check", data=form | {"target": "EXPENSE"}, headers=csrf | HX)
    assert soup(ok).select_one("#rule-check")["class"] == ["field-ok"]
    plain = client.post(f"{prefix}/map/check", data=form, headers=csrf)  # no htmx: no 500
    assert plain.status_code == 200 and "cannot sit under “Utilities”" in soup(plain).text
    # what the live check says breaks the tree is refused on Apply too, nothing saved (a walk
    # had "cannot move" said, then "Saved: Move “Utilities” under “Utilities:Gas”")
    before = client.get(f"{prefix}/plan.json").data
    cycle = {"account": "Utilities", "kind": "move", "parent": "Utilities:Gas"}
    r = client.post(f"{prefix}/map/rules", data=cycle, headers=csrf | HX)
    assert r.status_code == 422, r.get_data(as_text=True)
    said = r.get_data(as_text=True)
    assert "Not saved: Cannot move “Utilities” under “Utilities:Gas”" in said
    assert client.get(f"{prefix}/plan.json").data == before
    merge = {"account": "Utilities:Gas", "kind": "merge", "target": "Utilities"}
    r = client.post(f"{prefix}/map/rules", data=merge, headers=csrf | HX)
    tree = {
        tr["data-account"]: tr.select_one(".origin").text
        for tr in soup(r).select("#tree-table tr[data-account]")
    }
    assert "Utilities:Gas" not in tree and tree["Utilities"] == "from Utilities + Utilities:Gas"
    assert (
        client.post(
            f"{prefix}/map/rules", data=merge | {"account": "Nope"}, headers=csrf | HX
        ).status_code
        == 422
    )


def test_click_to_edit_a_tree_row(client):
    prefix, csrf = new_migration(client)
    upload(client, prefix, csrf, "lists.iif", "txns.iif")
    page = soup(client.get(f"{prefix}/map"))
    edit = page.select_one("#tree-table tr[data-account='Utilities:Gas'] button.edit")
    r = client.get(edit["hx-get"], headers=HX)
    assert is_fragment(r)
    row = soup(r).select_one("tr.editing")
    assert row["data-account"] == "Utilities:Gas"
    assert row.select_one("input[name=name]")["value"] == "Gas"
    assert row.select_one("select[name=type] option[selected]")["value"] == "EXPENSE"
    account = row.select_one("input[name=account]")["value"]
    r = client.post(
        f"{prefix}/map/edit",
        data={"account": account, "name": "Heating", "type": "EXPENSE"},
        headers=csrf | HX,
    )
    tree = [tr["data-account"] for tr in soup(r).select("#tree-table tr[data-account]")]
    assert "Utilities:Heating" in tree and "Utilities:Gas" not in tree
    assert soup(r).select_one("#map-status").text == "Saved: Rename “Utilities:Gas” to “Heating”."
    bad = client.post(
        f"{prefix}/map/edit", data={"account": account, "name": "A:B"}, headers=csrf | HX
    )
    assert bad.status_code == 422
    gone = client.get(f"{prefix}/map/edit", query_string={"account": "Nope"}, headers=HX)
    assert gone.status_code == 422
    # income made an expense: said with how its balance then reads (it went by silently)
    form = {"account": "Sales", "type": "EXPENSE", "csrf_token": csrf["X-CSRF-Token"]}
    check = soup(
        client.post(f"{prefix}/map/check", data=form | {"kind": "retype"}, headers=csrf | HX)
    )
    said = check.select_one("#rule-moves").text
    assert "its balance, 100.00 as an income account, reads -100.00 as an expense account" in said
    r = client.post(f"{prefix}/map/edit", data=form, headers=csrf | HX)
    assert "reads -100.00 as an expense account" in soup(r).select_one("#map-status").text


def test_a_retype_is_said_with_its_article(client):
    prefix, csrf = new_migration(client)
    upload(client, prefix, csrf, "lists.iif", "txns.iif")
    form = {"account": "Checking", "kind": "retype", "target": "ASSET"}
    r = client.post(f"{prefix}/map/rules", data=form, headers=csrf | HX)
    assert (
        soup(r).select_one("#map-status").text.startswith("Saved: Make “Checking” an asset account")
    )


def test_a_retype_says_where_the_standard_tree_moves_it(client):
    prefix, csrf = new_migration(client)
    upload(client, prefix, csrf, "lists.iif", "txns.iif")
    settings = {"currency": "USD", "mode": "full", "opening_balances": "1", "reparent": "1"}
    client.post(f"{prefix}/map/settings", data=settings, headers=csrf | HX)
    form = {"account": "Checking", "kind": "retype", "target": "ASSET"}
    check = soup(
        client.post(f"{prefix}/map/check", data=form | {"kind": "retype"}, headers=csrf | HX)
    )
    assert check.select_one("#rule-moves").text == (
        "If you make this change, it moves under “Assets” (GnuCash's standard tree)."
    )
    r = client.post(f"{prefix}/map/rules", data=form, headers=csrf | HX)
    assert soup(r).select_one("#map-status").text == (
        "Saved: Make “Checking” an asset account; it moves under “Assets” "
        "(GnuCash's standard tree)."
    )
    tree = [tr["data-account"] for tr in soup(r).select("#tree-table tr[data-account]")]
    assert "Assets:Checking" in tree
    same = client.post(f"{prefix}/map/check", data=form | {"target": "BANK"}, headers=csrf | HX)
    assert soup(same).select_one("#rule-moves") is not None  # back under Current Assets


def test_the_map_says_it_is_saving_and_asks_before_a_plan_replaces_it(client):
    """Issue 13, item 31: every change of the #map region shows the indicator outside it (the
    swap would replace one inside); checks as typed and opening a row's form save nothing and
    say so; loading a plan file names what it replaces and asks first (static/app.js)."""
    prefix, csrf = new_migration(client)
    upload(client, prefix, csrf, "lists.iif", "txns.iif")
    page = soup(client.get(f"{prefix}/map"))
    state = page.select_one("#save-state")
    assert state is not None and state.find_parent(id="map") is None
    assert state["role"] == "status" and "All changes saved" in state.text
    assert page.select_one("#map")["hx-indicator"] == "#save-state"
    for quiet in ("#rule-target", "#tree-table button.edit"):
        assert page.select_one(quiet)["hx-indicator"] == "this", quiet
    form = page.select_one("#plan-form")
    assert "your 0 changes to accounts, 0 report accounts placed" in form["data-confirm"]
    assert form.select_one("#plan-input").has_attr("required")
    client.post(
        f"{prefix}/map/rules",
        data={"account": "Checking", "kind": "rename", "target": "Bank"},
        headers=csrf | HX,
    )
    r = client.get(f"{prefix}/map/edit", query_string={"account": "Checking"}, headers=HX)
    row = soup(r)
    assert row.select_one("input[name=name]")["hx-indicator"] == "this"
    assert row.select_one("button[hx-get]")["hx-indicator"] == "this"  # Cancel
    region = soup(client.get(f"{prefix}/map", headers=HX))
    said = region.select_one("#plan-form")["data-confirm"]
    assert "replaces every choice on this page: your 1 change to accounts" in said


def test_changes_posted_at_once_are_each_kept(app, client):
    """Four renames posted at the same moment from four tabs: each is kept (the plan was read,
    changed and saved with no lock on a threaded server: six said "Saved", three were lost,
    hunt 15)."""
    import threading

    from tests.support.web import signed_in, token

    prefix, _csrf = new_migration(client)
    upload(client, prefix, _csrf, "lists.iif", "txns.iif")
    accounts = ["Checking", "Utilities", "Sales", "Opening Bal Equity"]
    tabs = [signed_in(app) for _ in accounts]
    headers = [{"X-CSRF-Token": token(tab)} | HX for tab in tabs]
    start = threading.Barrier(len(accounts))
    said: dict[str, int] = {}

    def rename(i: int) -> None:
        start.wait()
        form = {"account": accounts[i], "kind": "rename", "target": f"{accounts[i]} 2"}
        said[accounts[i]] = (
            tabs[i].post(f"{prefix}/map/rules", data=form, headers=headers[i]).status_code
        )

    threads = [threading.Thread(target=rename, args=(i,)) for i in range(len(accounts))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert said == dict.fromkeys(accounts, 200)
    rules = json.loads(client.get(f"{prefix}/plan.json").data)["rules"]
    assert sorted(r["account"] for r in rules) == sorted(accounts)


def test_the_row_form_refuses_what_the_list_of_changes_refuses(client):
    """A merge into itself, a name another account has, a name of 200,000 characters, through
    the tree row's own form: refused as the list of changes refuses them, nothing saved (they
    were saved, and the Import step refused until they were undone: hunt 15)."""
    prefix, csrf = new_migration(client)
    upload(client, prefix, csrf, "lists.iif", "txns.iif")
    for form, said in (
        ({"account": "Sales", "merge": "Sales"}, "merges go round in a circle"),
        ({"account": "Sales", "name": "Checking"}, "Two accounts would be named"),
        ({"account": "Sales", "name": "X" * 200_000}, "at most 500 characters"),
    ):
        r = client.post(f"{prefix}/map/edit", data=form, headers=csrf | HX)
        assert r.status_code == 422 and said in r.get_data(as_text=True), form
        assert json.loads(client.get(f"{prefix}/plan.json").data)["rules"] == []
    assert client.get(f"{prefix}/map").status_code == 200


def test_an_undo_from_a_stale_tab_takes_away_only_the_change_it_shows(client):
    """Two changes; tab A undoes the first; tab B, still showing both, undoes "the first" as
    it shows it: it took away the second, the one now in first place, which neither tab asked
    for (hunt 24). The form names its change: the stale one is refused, the plan kept."""
    prefix, csrf = new_migration(client)
    upload(client, prefix, csrf, "lists.iif", "txns.iif")
    for account, target in (("Checking", "Main Checking"), ("Sales", "Revenue")):
        data = {"kind": "rename", "account": account, "target": target}
        assert client.post(f"{prefix}/map/rules", data=data, headers=csrf | HX).status_code == 200
    page = soup(client.get(f"{prefix}/map"))
    shown = [i["value"] for i in page.select("#rule-list input[name=rule]")]
    assert shown == ["rename|Checking|Main Checking", "rename|Sales|Revenue"]
    tab_a = client.post(f"{prefix}/map/rules/0/delete", data={"rule": shown[0]}, headers=csrf | HX)
    assert "Undone: " in tab_a.text and "Main Checking" in tab_a.text
    tab_b = client.post(f"{prefix}/map/rules/0/delete", data={"rule": shown[0]}, headers=csrf | HX)
    assert tab_b.status_code == 422 and "no longer in the plan" in tab_b.text
    plan = json.loads(client.get(f"{prefix}/plan.json").data)
    assert plan["rules"] == [{"account": "Sales", "kind": "rename", "target": "Revenue"}]
    # tab B's undo of the change still there, shown second, now first: found by what it is
    # (hunt 25: refused as "no longer in the plan")
    moved = client.post(f"{prefix}/map/rules/1/delete", data={"rule": shown[1]}, headers=csrf | HX)
    assert moved.status_code == 200 and "Undone: " in moved.text
    assert json.loads(client.get(f"{prefix}/plan.json").data)["rules"] == []

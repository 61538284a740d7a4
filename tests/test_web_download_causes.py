"""A history that ends long before the day of QuickBooks' balances (the lists exported later):
every account that moved since differs, for one reason. The Download step says that reason once
above the tables, with both ways out (the missing files on the Files step, or “Only the balances,
on a cutover date” on the Map step), each row keeping a short pointer; with the opening-balance
option ticked, the Import and Download steps say why no opening balance was made (it stands only
for what came before the history, not for what is missing after it). The command line says the
same. Then balances only makes the book match. Real app, real worker, books reopened."""

from __future__ import annotations

import datetime as dt
from dataclasses import replace
from pathlib import Path

from app.gnc import read_book
from tests.support.cli import convert
from tests.support.companygen import make_company
from tests.support.web import HX, new_migration, soup, upload, wait_done

REASON = "the history is incomplete: no file covers"


def ended_early(tmp_path: Path) -> tuple[Path, Path, dt.date, dt.date, int]:
    """The lists of a company (balances as of its last day) and a transaction file holding the
    first half of its history only: (lists, history, history's last day, export day, the
    history's transactions)."""
    whole = make_company(160, seed=31, start=dt.date(2020, 1, 1), years=2)
    half = [t for t in whole.transactions if t.date <= whole.transactions[80].date]
    lists = whole.write_lists_iif(tmp_path / "lists.iif")
    history = replace(whole, transactions=half).write_transactions_iif(tmp_path / "history.iif")
    return lists, history, half[-1].date, whole.transactions[-1].date, len(half)


def write(client, prefix: str, csrf: dict, **form: str):
    data = {"currency": "USD", "format": "xml", **form}
    assert client.post(f"{prefix}/map/settings", data=data, headers=csrf | HX).status_code == 200
    assert client.post(f"{prefix}/import", headers=csrf | HX).status_code == 200
    assert wait_done(client, prefix).select_one("#to-download") is not None
    return soup(client.get(f"{prefix}/download"))


def test_the_download_step_says_the_shared_cause_once_with_both_ways_out(client, tmp_path):
    lists, history, last, exported, n = ended_early(tmp_path)
    gap = f"{last + dt.timedelta(days=1)} to {exported}"
    prefix, csrf = new_migration(client)
    for p in (lists, history):
        assert upload(client, prefix, csrf, p.name, data=p.read_bytes()).status_code == 200
    data = {"currency": "USD", "format": "xml", "mode": "full", "opening_balances": "1"}
    assert client.post(f"{prefix}/map/settings", data=data, headers=csrf | HX).status_code == 200

    before = soup(client.get(f"{prefix}/import"))  # the Import step says it before writing
    assert "opening-balance transaction" not in before.select_one("#import-summary").text
    unmade = before.select_one("#no-opening").text
    assert unmade.startswith(
        f"No opening-balance transaction was made, though it was asked for: no file covers {gap}"
        ", after the history ends, and an opening balance stands only for what happened before "
        "the history starts"
    )
    warned = before.select("#import-warnings li")  # said once: not again among the warnings
    assert not [li for li in warned if "No opening-balance transaction" in li.text]

    page = write(client, prefix, csrf, mode="full", opening_balances="1")
    one = page.select_one("#one-cause")
    assert one.text.startswith(f"Probable cause of every difference: {REASON} {gap}. What to do:")
    assert "“Only the balances, on a cutover date” on the Map step" in one.text
    files, balances = (a["href"] for a in one.select("a.fix"))
    assert files == f"{prefix}/files" and balances == f"{prefix}/map#mode-balances-only"
    control = soup(client.get(balances)).select_one("#mode-balances-only")  # it is there
    assert "Only the balances, on a cutover date" in control.parent.text
    assert page.select_one("#no-opening").text.startswith(unmade.split("; to fix")[0])
    differ = page.select("table.tb tr.account.differs")
    rows = [r.text.strip() for r in page.select("table.tb td.cause")]
    assert len(differ) == len(rows) > 10
    assert set(rows) == {"Probable cause: the history is incomplete (said above the table)."}
    said = page.select_one("#verification").get_text()
    assert said.count(f"no file covers {gap}") == 3  # the cause, why no opening, the note

    # the next steps say it first: the figures there are the book's, not QuickBooks'
    steps = soup(client.get(page.select_one("#to-next-steps")["href"]))
    warning = steps.select_one("#not-matching").text
    assert warning.startswith(f"Needs your attention: {len(differ)} accounts differ.")
    assert "the figures below are the book's, as GnuCash will show them, not QuickBooks'" in warning
    marked = [
        tr
        for tr in steps.select("#expect-trial tbody tr")
        if "differs: see the Download step" in tr.text
    ]
    assert len(marked) >= len(differ) - 1  # (one of them may be Retained Earnings, said apart)

    book = tmp_path / "differs.gnucash"
    with client.get(page.select_one("#download-book")["href"]) as r:
        book.write_bytes(r.data)
    assert read_book(book).transactions == n  # the history alone: no opening transaction

    page = write(client, prefix, csrf, mode="balances_only", date=exported.isoformat())
    assert page.select_one("#summary-line").text.endswith("match QuickBooks to the cent")
    assert not page.select("#why-differ, #no-opening, td.cause")
    steps = soup(client.get(page.select_one("#to-next-steps")["href"]))
    assert steps.select_one("#not-matching") is None
    assert "differs" not in steps.select_one("#expect-trial").text
    with client.get(page.select_one("#download-book")["href"]) as r:
        book.write_bytes(r.data)
    assert read_book(book).transactions == 1  # QuickBooks' balances on the day, nothing else


def test_the_command_line_says_the_shared_cause_once_and_why_no_opening_balance(tmp_path):
    lists, history, last, exported, n = ended_early(tmp_path)
    gap = f"{last + dt.timedelta(days=1)} to {exported}"
    out = tmp_path / "book.gnucash"
    run = convert(lists, history, "-o", out, "--opening-balances")
    assert run.returncode == 0, run.stdout + run.stderr
    tail = run.stdout.split("Needs your attention: ", 1)[1].splitlines()
    assert tail[1] == (
        f"  Probable cause of every difference: {REASON} {gap}; to fix: give the transaction "
        "files that cover that period, or start the book from QuickBooks' balances alone with "
        "--balances-only YYYY-MM-DD (the transactions before that day are then left out)"
    )
    assert tail[2].startswith(
        f"  No opening-balance transaction was made, though it was asked for: no file covers {gap}"
    )
    assert all(line.endswith(" — the history is incomplete (see above)") for line in tail[3:])
    warned = run.stdout.split("Warnings", 1)[1].splitlines()
    assert warned[2].startswith("  No opening-balance transaction was made")  # after the gap
    assert read_book(out).transactions == n


def test_accounts_with_no_quickbooks_balance_are_counted_apart(client, samples_dir, tmp_path):
    """The walker's files: the real lists export (balances as of 2026-12-15) and a 2018 history
    whose Stripe accounts the lists do not have. Those are compared with their transaction
    lines, said so in the QuickBooks column, and counted apart in the headline, never as
    matching QuickBooks."""
    prefix, csrf = new_migration(client)
    for name in (
        "Pewejekubam__qbd-to-gnucash__qbd-all-lists-sample.IIF",
        "minimul__iif-parser__windows-1252.iif",
    ):
        data = (samples_dir / name).read_bytes()
        assert upload(client, prefix, csrf, name, data=data).status_code == 200
    page = write(client, prefix, csrf, mode="full")
    assert page.select_one("#summary-line").text == (
        "66 accounts differ from QuickBooks (38 others match QuickBooks' balances; 9 accounts "
        "with no QuickBooks balance equal their transaction lines)"
    )
    stripe = page.select_one('table.tb tr[data-account="Stripe Account"]')
    cells = [td.text.strip() for td in stripe.select("td.num")]
    assert cells == ["31.74", "31.74", "✓"]  # (a number cell holds a number: 800 px, hunt 23)
    assert stripe.select_one("td.name .hint").text == (
        "(no QuickBooks balance: its transaction lines in QuickBooks' column)"
    )
    # every total that holds such accounts says that their lines stand in QuickBooks' column
    said = {}
    for group in page.select("table.tb tbody.tb-group"):
        for line in [group.select_one("tr.group-total"), *group.select("tr.total, tr.net")]:
            name = line.select("td")[1]
            hint = name.select_one(".hint")
            said[name.contents[0].strip()] = hint.text if hint else ""
    head = "(QuickBooks' column with the transaction lines of "
    lines = (head + "{} accounts that have no QuickBooks balance)").format
    one = head + "1 account that has no QuickBooks balance)"
    assert {k: v for k, v in said.items() if v} == {  # (accounts with no lines at all: not said)
        "Total Assets": lines(2),  # Stripe Account and one more
        "Net Income (this fiscal year)": lines(2),
        "Total Equity": lines(2),  # its net income's
        "Total Income": one,
        "Total Expenses": one,
    }
    assert len(said) == 21  # the other totals hold none
    # the next steps: its figure is the book's, and QuickBooks gives none (not "differs")
    steps = soup(client.get(page.select_one("#to-next-steps")["href"]))
    row = next(
        tr for tr in steps.select("#expect-trial tbody tr") if tr.td.text == "Stripe Account"
    )
    assert [td.text for td in row.select("td.num")] == ["31.74", ""]
    assert row.select_one("td.quickbooks").get_text(" ", strip=True) == (
        "no figure QuickBooks' files give it no balance; its transaction lines are all in the book"
    )
    book = tmp_path / "book.gnucash"
    with client.get(page.select_one("#download-book")["href"]) as r:
        book.write_bytes(r.data)
    assert read_book(book).transactions == 3


def test_lists_alone_written_as_a_whole_history_point_at_balances_only(client, tmp_path):
    """The lists export alone, written with the default whole history: an empty book whose
    every balance differs. The Download step gave "a transaction file may be missing"; it now
    says no transaction file was given, with both ways out (balances only on the Map step, the
    transaction files on the Files step), and balances only then matches."""
    whole = make_company(120, seed=32, start=dt.date(2021, 1, 1), years=1)
    lists = whole.write_lists_iif(tmp_path / "lists.iif")
    prefix, csrf = new_migration(client)
    assert upload(client, prefix, csrf, lists.name, data=lists.read_bytes()).status_code == 200
    page = write(client, prefix, csrf, mode="full")
    one = page.select_one("#one-cause").text
    assert one.startswith(
        "Probable cause of every difference: no transaction file was given, so the book holds "
        "no history to reach QuickBooks' balances. What to do:"
    ), one
    balances, files = (a["href"] for a in page.select_one("#one-cause").select("a.fix"))
    assert balances == f"{prefix}/map#mode-balances-only" and files == f"{prefix}/files"
    assert "a transaction file may be missing" not in page.get_text()
    day = whole.transactions[-1].date.isoformat()
    page = write(client, prefix, csrf, mode="balances_only", date=day)
    assert page.select_one("#summary-line").text.endswith("match QuickBooks to the cent")
    # no documents: the next steps say why the aging reports show nothing (the step was gone)
    steps = soup(client.get(page.select_one("#to-next-steps")["href"]))
    aging = steps.select_one("#step-aging").text
    assert "Aging reports: nothing to run yet." in aging and "Unpaid Bills Detail" in aging


def test_transactions_alone_match_their_lines_not_quickbooks_balances(client, tmp_path):
    """A transaction file without the lists: every account compared with its transaction
    lines, none with a QuickBooks balance. The verdict says so and is amber, on the Download
    step and the home list (it read "Matches QuickBooks to the cent", green, ✓ everywhere)."""
    company = make_company(80, seed=34, start=dt.date(2021, 1, 1), years=1)
    history = company.write_transaction_detail_csv(tmp_path / "detail.csv")
    prefix, csrf = new_migration(client)
    assert upload(client, prefix, csrf, history.name, data=history.read_bytes()).status_code == 200
    page = write(client, prefix, csrf, mode="full")
    line = page.select_one("#summary-line")
    assert "warn" in line["class"] and "ok" not in line["class"], line
    home = soup(client.get("/"))
    state = home.select_one("#migrations .state")
    assert state.text.startswith("Matches QuickBooks' transactions to the cent; no QuickBooks")
    assert "proof-warn" in state["class"], state

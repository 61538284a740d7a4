"""A multicurrency company (issue 22 #11): a lists export whose accounts, customers or vendors
carry another currency than the book's (ACCNT and CUST CURRENCY, VEND NAMECURRENCY) is refused,
naming them and what to do; ``--foreign-as-home`` (the Map step's box, kept in the plan)
converts it at the home-currency values QuickBooks' reports give, said in the proof and in the
notes of each account and name concerned. Books are reopened through GnuCash and compared with
the generator's truth."""

from __future__ import annotations

import io
import json

import pytest

from app import gnc
from app.model import ReadOptions
from app.plan import Plan, plan_from_json
from app.readers.iif import parse
from tests.support.cli import convert
from tests.support.companygen import make_company
from tests.support.web import HX, new_migration, soup

FOREIGN = {
    ("account", "Savings"): "Euro",
    ("customer", "Café Olé"): "Euro",
    ("vendor", "Bayshore CalOil Service"): "CAD",
}


@pytest.fixture(scope="module")
def company():
    company = make_company(400, seed=17)
    company.home_currency = "US Dollar"
    company.currencies = dict(FOREIGN)
    return company


@pytest.fixture(scope="module")
def files(company, tmp_path_factory):
    folder = tmp_path_factory.mktemp("foreign")
    return [
        company.write_lists_iif(folder / "lists.iif"),
        company.write_transaction_detail_csv(folder / "detail.csv"),
    ]


def _line(path, name: str) -> int:
    lines = path.read_text(encoding="utf-8").splitlines()
    return next(i for i, ln in enumerate(lines, 1) if f"\t{name}\t" in ln)


def test_the_lists_reader_keeps_each_ones_currency(files) -> None:
    ledger = parse(files[0], ReadOptions())
    accounts = {a.full_name: a.currency for a in ledger.accounts}
    assert accounts["Savings"] == "Euro" and accounts["Checking"] == "US Dollar"
    assert {c.name: c.currency for c in ledger.customers}["Café Olé"] == "Euro"
    assert {v.name: v.currency for v in ledger.vendors}["Bayshore CalOil Service"] == "CAD"


def test_a_company_in_other_currencies_is_refused(files, tmp_path) -> None:
    lists = files[0]
    book = tmp_path / "book.gnucash"
    run = convert(*files, "-o", book)
    assert run.returncode == 1, run.stdout + run.stderr
    assert not book.exists() and not list(tmp_path.iterdir())
    out = run.stdout + run.stderr
    (said,) = [ln for ln in out.splitlines() if "another currency" in ln]
    assert said.startswith(f"{lists.name}:{_line(lists, 'Savings')}: QuickBooks keeps 1 account, ")
    assert "1 account, 1 customer and 1 vendor in another currency than the book's USD" in said
    for kind, name, cur in (("account", "Savings", "EUR"), ("customer", "Café Olé", "EUR"),
                            ("vendor", "Bayshore CalOil Service", "CAD")):  # fmt: skip
        assert f"{kind} “{name}” ({cur}, line {_line(lists, name)})" in said
    assert "--foreign-as-home" in said and "Map step" in said
    assert "--currency" not in said  # the lists say US Dollar for the others: USD is the home


def test_foreign_as_home_converts_at_home_currency_values(company, files, tmp_path) -> None:
    book = tmp_path / "book.gnucash"
    run = convert(*files, "-o", book, "--foreign-as-home", "--strict")
    assert run.returncode == 0, run.stdout + run.stderr
    back = gnc.read_book(book)
    balances = {a.full_name: a.balance for a in back.accounts}
    want = {k: v for k, v in company.expected_balances().items() if v}  # (Estimates: not posted)
    assert {k: balances[k] for k in want} == want
    notes = {a.full_name: a.notes for a in back.accounts}
    said = "QuickBooks currency: EUR. Converted at its home-currency (USD) values"
    assert notes["Savings"].startswith(said)
    assert [k for k, v in notes.items() if "QuickBooks currency" in v] == ["Savings"]
    customers = {c.name: c.notes for c in back.customers}
    vendors = {v.name: v.notes for v in back.vendors}
    assert said in customers["Café Olé"]
    assert "QuickBooks currency: CAD." in vendors["Bayshore CalOil Service"]
    assert [n for n, v in (customers | vendors).items() if "QuickBooks currency" in v] == [
        "Café Olé",
        "Bayshore CalOil Service",
    ]
    assert back.currency == "USD"
    out = run.stdout
    assert (
        "1 account, 1 customer and 1 vendor kept in another currency in QuickBooks (CAD, EUR) "
        "were converted at their home-currency (USD) values" in out
    )
    assert "match QuickBooks to the cent" in out


def test_home_currency_everywhere_is_no_foreign_company(tmp_path) -> None:
    company = make_company(150, seed=3)
    company.home_currency = "US Dollar"
    files = [
        company.write_lists_iif(tmp_path / "lists.iif"),
        company.write_journal_csv(tmp_path / "journal.csv"),
    ]
    run = convert(*files, "-o", tmp_path / "book.gnucash", "--strict")
    assert run.returncode == 0, run.stdout + run.stderr
    assert "another currency" not in run.stdout and "QuickBooks currency" not in run.stdout
    notes = [a.notes for a in gnc.read_book(tmp_path / "book.gnucash").accounts]
    assert not [n for n in notes if "currency" in n]


def test_one_other_currency_everywhere_says_choose_it(tmp_path) -> None:
    """Every account and name in Canadian dollars and the book in USD: the message says to
    choose CAD; with --currency CAD the company converts as it is."""
    company = make_company(150, seed=3)
    company.home_currency = "Canadian Dollar"
    files = [
        company.write_lists_iif(tmp_path / "lists.iif"),
        company.write_journal_csv(tmp_path / "journal.csv"),
    ]
    run = convert(*files, "-o", tmp_path / "usd.gnucash")
    assert run.returncode == 1
    assert "if CAD is the company's home currency, choose it as the book's currency " \
           "(--currency CAD" in run.stdout + run.stderr  # fmt: skip
    run = convert(*files, "-o", tmp_path / "cad.gnucash", "--currency", "CAD", "--strict")
    assert run.returncode == 0, run.stdout + run.stderr
    assert gnc.read_book(tmp_path / "cad.gnucash").currency == "CAD"


def test_the_plan_keeps_the_choice() -> None:
    plan = Plan(foreign_as_home=True)
    assert plan_from_json(plan.to_json()) == plan
    assert plan_from_json('{"currency": "EUR"}').foreign_as_home is False  # a plan saved before


def test_the_map_step_offers_the_choice_and_keeps_it(client, files) -> None:
    prefix, csrf = new_migration(client)
    for path in files:
        r = client.post(
            f"{prefix}/files",
            data={"files": [(io.BytesIO(path.read_bytes()), path.name)]},
            headers=csrf | HX,
        )
        assert r.status_code == 200
    page = soup(client.get(f"{prefix}/map"))
    box = page.select_one("#foreign-as-home")
    assert box is not None and not box.has_attr("checked")
    assert "another currency" in " ".join(e.get_text() for e in page.select(".problem, li, p"))
    hint = page.select_one("#foreign").get_text(" ", strip=True)
    assert "Savings" in hint and "(EUR)" in hint and "(CAD)" in hint
    form = {"currency": "USD", "mode": "full", "format": "xml", "documents": "all"}
    r = client.post(
        f"{prefix}/map/settings", data=form | {"foreign_as_home": "1"}, headers=csrf | HX
    )
    assert r.status_code == 200
    assert soup(r).select_one("#foreign-as-home").has_attr("checked")
    assert json.loads(client.get(f"{prefix}/plan.json").data)["foreign_as_home"] is True
    assert "another currency than the book's USD (" not in soup(client.get(f"{prefix}/map")).text
    client.post(f"{prefix}/map/settings", data=form, headers=csrf | HX)
    assert json.loads(client.get(f"{prefix}/plan.json").data)["foreign_as_home"] is False

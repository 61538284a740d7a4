"""verify on hand-made ledgers and book snapshots: figures, differences, checks, the CSV."""

from __future__ import annotations

import dataclasses
import datetime as dt
from collections import Counter, defaultdict
from decimal import Decimal
from pathlib import Path

import pytest

from app import gnc, pipeline
from app.as_of import MONTHS, ZERO
from app.book import BookAccount, BookOwner, BookSnapshot
from app.business import Customer, Job
from app.cutover import apply
from app.fixes import with_fix

# the raw bindings, as app.gnc takes them (importing gnucash before app.gnc.bindings sets its
# environment crashed the interpreter on GnuCash 5.10)
from app.model import Account, AccountType, FileInfo, Ledger, Reconcile, Role
from app.openings import OPENING_KIND
from app.plan import Cutover, Plan
from app.source import Source
from app.validate import check
from app.verify import verify
from app.verify_report import CSV_HEADER, Report, Row
from tests.paths import ENTERPRISE
from tests.support.companygen import BALANCE_SHEET, make_company
from tests.support.end_to_end import START, assert_known_answers, convert
from tests.support.gnucash_edits import damage
from tests.support.gnucash_reports import trial_balance
from tests.support.ledgers import HISTORY, ledger, without

D = Decimal
T = AccountType


def book_of(led: Ledger) -> BookSnapshot:
    """What a faithful GnuCash book of ``led`` holds (voided transactions count zero)."""
    daily: dict[str, dict[dt.date, Decimal]] = defaultdict(lambda: defaultdict(Decimal))
    counts: Counter[str] = Counter()
    states: Counter[str] = Counter()
    for t in led.transactions:
        for s in t.splits:
            daily[s.account][t.date] += D(0) if t.voided else s.value
            counts[s.account] += 1
            states["v" if t.voided else s.reconcile.value] += 1
    accounts = tuple(
        BookAccount(
            a.full_name,
            a.type.value if a.type else "ASSET",
            opening_balance=a.role == Role.OPENING_BALANCE,
            balance=sum(daily[a.full_name].values(), D(0)),
            splits=counts[a.full_name],
            daily=tuple(sorted(daily[a.full_name].items())),
        )
        for a in led.accounts
    )
    dates = [t.date for t in led.transactions]
    return BookSnapshot(
        currency="USD",
        accounts=accounts,
        transactions=len(led.transactions),
        splits=sum(counts.values()),
        reconcile=tuple(sorted(states.items())),
        first_date=min(dates, default=None),
        last_date=max(dates, default=None),
        customers=tuple(
            BookOwner(str(i), c.name, jobs=tuple(j.name for j in c.jobs))
            for i, c in enumerate(led.customers)
        ),
    )


def damaged(book: BookSnapshot, account: str, day: dt.date, delta: str) -> BookSnapshot:
    accounts = []
    for b in book.accounts:
        days = dict(b.daily)
        if b.full_name == account:
            days[day] = days.get(day, D(0)) + D(delta)
        total = sum(days.values(), D(0))
        accounts.append(dataclasses.replace(b, daily=tuple(sorted(days.items())), balance=total))
    return dataclasses.replace(book, accounts=tuple(accounts))


def test_full_history_matches_with_fiscal_year_figures() -> None:
    led = apply(ledger(), Cutover())
    report = verify(led, book_of(led), Cutover())
    assert report.ok, report.summary_lines()
    assert report.as_of.date == dt.date(2022, 6, 30) and report.year_start == dt.date(2022, 1, 1)
    rows = {r.account: r for r in report.rows}
    assert rows["Retained Earnings"].gnucash_balance == D("-3800.00")
    assert rows["Retained Earnings"].book_total == 0
    assert rows["Sales"].gnucash_balance == D("-3000.00")
    assert rows["Sales"].book_total == D("-8000.00")
    assert rows["Sales"].basis == "year to date"
    assert report.summary_lines()[0] == "7 of 7 accounts match QuickBooks to the cent"
    assert report.by_family() == [
        ("asset", D("16200.00"), D("16200.00")),
        ("liability", D("-400.00"), D("-400.00")),
        ("equity", D("-13800.00"), D("-13800.00")),
        ("income", D("-3000.00"), D("-3000.00")),
        ("expense", D("1000.00"), D("1000.00")),
    ]


def test_fiscal_year_from_july_moves_the_line() -> None:
    # Fiscal years from July 1: as of 2022-06-30 the year began 2021-07-01.
    tb = {"re": "-5000.00", "sales": "-3000.00", "rent": "2200.00"}
    led = apply(ledger(**tb), Cutover(fiscal_year_start="07-01"))
    assert led.problems == ()
    cut = Cutover(fiscal_year_start="07-01")
    assert verify(led, book_of(led), cut).ok
    # the same figures converted with a calendar fiscal year differ on exactly those two
    calendar = Cutover(fiscal_year_start="01-01")
    led = apply(ledger(**tb), calendar)
    report = verify(led, book_of(led), calendar)
    assert {r.account for r in report.differences} == {"Retained Earnings", "Rent"}


def test_opening_balances_mid_history_match() -> None:
    cut = Cutover(opening_balances=True)
    led = apply(ledger(HISTORY[4:]), cut)
    report = verify(led, book_of(led), cut)
    assert report.ok, report.summary_lines()
    rows = {r.account: r for r in report.rows}
    assert rows["Checking"].opening == D("16800.00")
    assert rows["Checking"].lines == D("16200.00")
    assert rows["Checking"].uploaded == D("-600.00")
    assert [r.family for r in report.rows] == [
        "asset",
        "liability",
        "equity",
        "equity",
        "equity",
        "income",
        "expense",
    ]


def test_without_opening_balances_the_report_names_the_gap() -> None:
    led = apply(ledger(HISTORY[3:]), Cutover())
    report = verify(led, book_of(led), Cutover())
    assert not report.ok
    assert [r.account for r in report.differences] == [
        "Checking",
        "Owner's Equity",
        "Retained Earnings",
    ]
    lines = report.summary_lines()
    assert lines[0] == "3 accounts differ from QuickBooks (4 others match)"
    assert lines[1] == (  # the cause of all three said once, each row pointing to it
        "Probable cause of every difference: the history starts on 2022-02-01, after the "
        "company did: what came before, or a transaction of the files, is missing; to fix: add "
        "--opening-balances"
    )
    assert lines[2] == (
        "Checking: QuickBooks 16,200.00, GnuCash 2,400.00 (all time), difference -13,800.00"
        " — the history starts on 2022-02-01, after the company did (see above)"
    )
    wizard = report.summary_lines("wizard")[1]
    assert "--" not in wizard.replace(" — ", "")
    assert wizard.endswith("tick “an opening-balance transaction” on the Map step")


def test_damaged_book_names_account_and_amount() -> None:
    led = apply(ledger(), Cutover())
    book = damaged(book_of(led), "Checking", dt.date(2022, 2, 1), "-10.00")
    book = damaged(book, "Sales", dt.date(2022, 2, 1), "10.00")
    report = verify(led, book, Cutover())
    assert not report.ok
    damage = "the book's transactions differ from the files' (please report this)"
    seen = f" — {damage} (see above)"
    assert report.summary_lines()[:4] == [
        "2 accounts differ from QuickBooks (5 others match)",
        f"Probable cause of every difference: {damage}",
        f"Checking: QuickBooks 16,200.00, GnuCash 16,190.00 (all time), difference -10.00{seen}",
        f"Sales: QuickBooks -3,000.00, GnuCash -2,990.00 (year to date), difference 10.00{seen}",
    ]
    rows = {r.account: r for r in report.differences}
    assert rows["Checking"].history_difference == D("-10.00")


def test_balances_only_with_and_without_ytd_to_retained() -> None:
    for folded in (False, True):
        cut = Cutover(mode="balances_only", date="2022-06-30", ytd_to_retained=folded)
        led = apply(ledger(), cut)
        report = verify(led, book_of(led), cut)
        assert report.ok, report.summary_lines()
        assert report.as_of.date == dt.date(2022, 6, 30)
        rows = {r.account: r for r in report.rows}
        assert rows["Sales"].quickbooks_balance == (0 if folded else D("-3000.00"))
        assert rows["Retained Earnings"].quickbooks_balance == D("-5800.00" if folded else "-3800")
        assert len(report.notes) == 1 + folded  # the Trial Balance note, then the folding
        assert report.notes[-1].startswith("The GnuCash figures are the ones GnuCash's own")


def test_made_opening_balance_account_is_checked_on_history() -> None:
    cut = Cutover(opening_balances=True)
    led = apply(
        Ledger(accounts=without(Role.OPENING_BALANCE, owner=None), transactions=HISTORY[3:]), cut
    )
    report = verify(led, book_of(led), cut)
    assert report.ok
    row = report.rows[-1]
    assert (row.account, row.basis, row.quickbooks_balance) == (
        "Opening Balances",
        "history",
        D("-10000.00"),
    )


def test_csv_exactly() -> None:
    led = apply(ledger(), Cutover())
    merged = dataclasses.replace(
        led.accounts[0], origin=("Checking", "Checking, Main"), full_name="Assets:Checking"
    )
    led = dataclasses.replace(led, accounts=(merged, *led.accounts[1:]))
    led = dataclasses.replace(
        led,
        transactions=tuple(
            dataclasses.replace(
                t,
                splits=tuple(
                    dataclasses.replace(s, account="Assets:Checking")
                    if s.account == "Checking"
                    else s
                    for s in t.splits
                ),
            )
            for t in led.transactions
        ),
    )
    book = damaged(book_of(led), "Assets:Checking", dt.date(2022, 2, 1), "-1403.99")
    book = damaged(book, "Accounts Payable", dt.date(2022, 2, 1), "1403.99")
    book = dataclasses.replace(
        book, accounts=(*book.accounts, BookAccount("Imbalance-USD", "BANK"))
    )
    at = "2022-06-30 (the export date in lists.iif:2)"
    bad = "the book's transactions differ from the files' (please report this)"
    assert verify(led, book, Cutover()).to_csv() == (
        f"{CSV_HEADER}\n"
        'Assets:Checking,"Checking + Checking, Main",16200.00,14796.01,-1403.99,'
        f"all time,{at},{bad}\n"
        f"Accounts Payable,Accounts Payable,-400.00,1003.99,1403.99,all time,{at},{bad}\n"
        f"Opening Balance Equity,Opening Balance Equity,0.00,0.00,0.00,all time,{at},\n"
        f"Owner's Equity,Owner's Equity,-10000.00,-10000.00,0.00,all time,{at},\n"
        f"Retained Earnings,Retained Earnings,-3800.00,-3800.00,0.00,retained earnings,{at},\n"
        f"Sales,Sales,-3000.00,-3000.00,0.00,year to date,{at},\n"
        f"Rent,Rent,1000.00,1000.00,0.00,year to date,{at},\n"
        f"Imbalance-USD,,0.00,0.00,0.00,not in the input,{at},\n"
    )


def test_checks_counts_states_and_strays() -> None:
    led = apply(ledger(), Cutover())
    first = led.transactions[0]
    cleared = dataclasses.replace(
        first,
        splits=(
            dataclasses.replace(first.splits[0], reconcile=Reconcile.RECONCILED),
            first.splits[1],
        ),
    )
    void = dataclasses.replace(led.transactions[3], voided=True)  # counts zero everywhere
    led = dataclasses.replace(
        led,
        transactions=(cleared, *led.transactions[1:], void),
        customers=(
            Customer("Acme", Source("lists.iif", 50), jobs=(Job("Roof", Source("lists.iif", 51)),)),
        ),
    )
    book = book_of(led)
    assert {c.name: c.ok for c in verify(led, book, Cutover()).checks} == {
        "accounts": True,
        "transactions": True,
        "splits": True,
        "splits not reconciled": True,
        "splits reconciled": True,
        "splits voided": True,
        "customers": True,
        "jobs": True,
        "vendors": True,
        "employees": True,
        "terms": True,
        "Imbalance/Orphan accounts": True,
        "opening-balance account": True,
        "first transaction date": True,
        "last transaction date": True,
    }
    bad = dataclasses.replace(
        book,
        accounts=(*book.accounts, BookAccount("Orphan-USD", "BANK")),
        reconcile=(("n", 12), ("v", 2)),
        customers=(BookOwner("1", "Acme"),),
        last_date=dt.date(2022, 7, 1),
    )
    report = verify(led, bad, Cutover())
    failed = {c.name: (c.input, c.book) for c in report.checks if not c.ok}
    assert failed == {
        "accounts": (7, 8),
        "splits not reconciled": (11, 12),
        "splits reconciled": (1, 0),
        "jobs": (1, 0),
        "Imbalance/Orphan accounts": (0, 1),
        "last transaction date": (dt.date(2022, 6, 30), dt.date(2022, 7, 1)),
    }
    assert not report.ok
    lines = report.summary_lines()
    assert lines[:2] == [  # the book's own Orphan account is not one of the input's
        "7 of 7 accounts match QuickBooks to the cent",
        "Not counted above, GnuCash's own accounts for amounts it could not place: Orphan-USD",
    ]
    said = (
        "Imbalance and Orphan accounts (where GnuCash puts what it cannot place; none "
        "expected): QuickBooks 0, GnuCash 1 — DIFFERS (Orphan-USD). Probable cause: "
    )
    assert any(line.startswith(said) for line in lines)


def test_account_missing_from_the_book() -> None:
    led = apply(ledger(), Cutover())
    book = book_of(led)
    book = dataclasses.replace(
        book, accounts=tuple(b for b in book.accounts if b.full_name != "Rent")
    )
    report = verify(led, book, Cutover())
    # Rent's 2021 lines are gone from the earlier years' net income as well
    assert [r.account for r in report.differences] == ["Retained Earnings", "Rent"]
    assert report.summary_lines()[3] == "Rent: missing from the book (expected 1,000.00)"
    # the files make QuickBooks' Retained Earnings: the book is what differs there too
    assert report.summary_lines()[1] == (
        "Probable cause of every difference: the book's transactions differ from the files' "
        "(please report this)"
    )


def test_accounts_without_figures_compare_history() -> None:
    accounts = tuple(Account(a.full_name, a.type, a.source) for a in ledger().accounts)
    led = Ledger(accounts=accounts, transactions=HISTORY)
    report = verify(led, book_of(led), Cutover())
    assert report.ok
    assert {r.basis for r in report.rows} == {"history"}
    assert {r.account: r.quickbooks_balance for r in report.rows}["Sales"] == D("-8000.00")


# ---------------------------------------------------------------- end to end, real engine


@pytest.mark.parametrize(
    ("fiscal", "mmdd"), [((1, 1), "01-01"), ((7, 1), "07-01")], ids=["calendar", "july"]
)
def test_full_history_book_matches_quickbooks(tmp_path: Path, fiscal, mmdd: str) -> None:
    company = make_company(240, seed=5, start=START, years=4, fiscal_year_start=fiscal)
    plan = Plan(cutover=Cutover(fiscal_year_start=mmdd))
    prepared, outcome = convert(tmp_path, company, plan)
    assert prepared.warnings == ()
    report = outcome.report
    assert report.ok, report.summary_lines()
    assert report.year_start == company.fiscal_year_begin()
    assert_known_answers(report, company.trial_balance())
    assert report.summary_lines()[0] == (
        f"{len(report.rows)} of {len(report.rows)} accounts match QuickBooks to the cent"
    )
    # the same book judged with the wrong fiscal year start differs (the check can fail), and
    # the warning names the start that fits
    wrong = Cutover(fiscal_year_start="04-01")
    again = pipeline.prepare(prepared.parsed, Plan(cutover=wrong))
    assert not verify(again.ledger, outcome.snapshot, wrong).ok
    day, month = company.fiscal_year_start[1], MONTHS[company.fiscal_year_start[0] - 1]
    assert [p.message for p in again.warnings if p.fix == "fiscal_year_start" and not p.source] == [
        "the fiscal year start given (1 April) does not explain QuickBooks' income and expense "
        f"figures; a fiscal year starting {day} {month} does"
    ]


@pytest.mark.parametrize(
    "history_from", [dt.date(2020, 7, 1), dt.date(2022, 3, 15)], ids=["earlier-year", "this-year"]
)
def test_history_from_the_middle_with_opening_balances(tmp_path: Path, history_from) -> None:
    company = make_company(240, seed=6, start=START, years=4, history_from=history_from)
    assert company.fiscal_year_begin() == dt.date(2022, 1, 1)
    plan = Plan(cutover=Cutover(opening_balances=True))
    prepared, outcome = convert(tmp_path, company, plan)
    assert prepared.warnings == ()
    assert outcome.report.ok, outcome.report.summary_lines()
    assert_known_answers(outcome.report, company.trial_balance())
    first = company.history[0].date
    opening = prepared.ledger.transactions[0]
    assert (opening.kind_label, opening.date) == (OPENING_KIND, first - dt.timedelta(days=1))
    assert outcome.snapshot.first_date == opening.date
    # QuickBooks' balance is never added on top of what the history explains
    tb, history = company.trial_balance(), company.history_balances()
    this_year: dict[str, Decimal] = defaultdict(Decimal)
    for t in company.history:
        for name, value, _memo, _clr in t.splits:
            this_year[name] += value if t.date >= company.fiscal_year_begin() else ZERO
    assert opening.splits
    for s in opening.splits:
        if s.account != "Retained Earnings":  # with earlier years' net income: known answers
            pnl = company.account_type(s.account) not in BALANCE_SHEET
            explained = this_year[s.account] if pnl else history[s.account]
            assert s.value == tb[s.account] - explained, s


def test_history_from_the_middle_without_opening_balances(tmp_path: Path) -> None:
    company = make_company(240, seed=6, start=START, years=4, history_from=dt.date(2020, 7, 1))
    prepared, outcome = convert(tmp_path, company, Plan())
    report = outcome.report
    assert not report.ok
    history = company.history_balances()
    tb = company.trial_balance()
    gaps = {r.account: r.difference for r in report.differences}
    expected = {
        name: history[name] - tb[name]
        for name in tb
        if company.account_type(name) in BALANCE_SHEET
        and name != "Retained Earnings"
        and history[name] != tb[name]
    }
    assert {k: v for k, v in gaps.items() if k != "Retained Earnings"} == expected
    warned = {p.message.split(": QuickBooks balance ")[0] for p in prepared.warnings}
    assert set(gaps) == warned
    assert all(r.history_difference == 0 for r in report.rows)


@pytest.mark.parametrize("folded", [False, True], ids=["own-accounts", "ytd-to-retained"])
def test_balances_only_book_matches_the_trial_balance(tmp_path: Path, folded: bool) -> None:
    company = make_company(240, seed=8, start=START, years=3, fiscal_year_start=(7, 1))
    cut = Cutover(
        mode="balances_only",
        date=company.export_date.isoformat(),
        fiscal_year_start="07-01",
        ytd_to_retained=folded,
    )
    prepared, outcome = convert(tmp_path, company, Plan(cutover=cut))
    notice, *lumps = prepared.warnings  # (and A/R, A/P: no open-items report behind them)
    assert [w.message.split(" (")[0] for w in lumps] == ["Accounts Receivable", "Accounts Payable"]
    assert notice.message.startswith(
        "only the balances, on a cutover date: 240 transactions of the history left out"
    )
    report = outcome.report
    assert report.ok, report.summary_lines()
    assert outcome.snapshot.transactions == 1
    tb = company.trial_balance()
    if folded:
        ytd = sum(v for n, v in tb.items() if company.account_type(n) not in BALANCE_SHEET)
        tb = {n: ZERO if company.account_type(n) not in BALANCE_SHEET else v for n, v in tb.items()}
        tb["Retained Earnings"] += ytd
    assert_known_answers(report, tb)


def test_damaged_book_is_caught(tmp_path: Path) -> None:
    company = make_company(120, seed=9, start=START, years=2)
    prepared, outcome = convert(tmp_path, company, Plan())
    assert outcome.report.ok
    book = tmp_path / "book.gnucash"
    other = damage(book, "Checking", 1234)
    report = verify(prepared.ledger, gnc.read_book(book), Cutover())
    assert not report.ok
    assert {r.account: r.difference for r in report.differences} == {
        "Checking": D("12.34"),
        other: D("-12.34"),
    }
    lines = report.summary_lines()
    assert any(
        line.startswith("Checking: QuickBooks ") and "difference 12.34 — " in line
        for line in lines[1:3]
    )
    assert lines[0] == f"2 accounts differ from QuickBooks ({len(report.rows) - 2} others match)"
    assert ",12.34,all time," in report.to_csv() and ",-12.34," in report.to_csv()
    # a first conversion's book: a fault of qb2gnucash; an update's: the user's change in GnuCash
    rows = {r.account: r for r in report.differences}
    assert rows["Checking"].cause.endswith("(please report this)")
    snapshot = gnc.read_book(book)
    updated = verify(prepared.ledger, snapshot, Cutover(), update=True)
    assert {r.cause for r in updated.differences} == {
        "the book's transactions differ from the files' (a change since the last run, listed above)"
    }


@pytest.mark.samples
def test_enterprise_sample_balances_only(tmp_path: Path, samples_dir: Path) -> None:
    """The real Enterprise lists export alone becomes an opening book that matches its TB."""
    sample = samples_dir / ENTERPRISE.name
    for reparent in (False, True):
        cut = Cutover(mode="balances_only", date="2026-12-15")
        plan = Plan(reparent=reparent, cutover=cut)
        prepared = pipeline.prepare(pipeline.read([sample], plan), plan)
        assert prepared.errors == ()
        out = tmp_path / f"book-{reparent}.gnucash"
        outcome = pipeline.write(prepared, out, plan)
        report = outcome.report
        assert report.ok, report.summary_lines()
        figured = [a for a in prepared.ledger.accounts if a.balance is not None]
        assert sum(a.balance for a in figured) == 0
        assert len(figured) >= 100
        checking = next(r for r in report.rows if r.quickbooks_account == "Checking")
        assert checking.gnucash_balance == D("99250.02")
        assert outcome.snapshot.transactions == 1
        # no invoice and no Sales Tax Liability report: no sales tax proof of "0 invoices and
        # bills" and a tax owed to "no agency named" (a walk's)
        assert report.sales_tax is None
        assert not [x for x in report.summary_lines() if "Subtotal, tax and total" in x]
        # GnuCash's own Trial Balance report (gnucash-cli) agrees with QuickBooks' figures
        expected = {a.full_name: a.balance for a in figured}  # the book's (mapped) names
        assert_trial_balance_report(out, tmp_path / "home", expected)


def assert_trial_balance_report(book: Path, home: Path, expected: dict[str, Decimal]) -> None:
    """GnuCash's own Trial Balance report on ``book`` shows each account at its ``expected``
    figure (book's full name → debit-positive balance), every other account blank, and totals
    that balance."""
    tb = trial_balance(book, home)
    assert {name: tb.balances.get(name, ZERO) for name in expected} == expected
    named = {name for name, value in expected.items() if value}
    assert set(tb.nonzero()) == named, set(tb.nonzero()) ^ named
    debit = sum((v for v in expected.values() if v > 0), ZERO)
    assert (tb.total_debit, tb.total_credit) == (debit, debit)


@pytest.mark.parametrize("mode", ["balances only", "full history"])
def test_gnucash_trial_balance_report_shows_quickbooks_figures(tmp_path: Path, mode: str) -> None:
    """GnuCash's own Trial Balance report (not our reader) on a generated company's book: with
    balances only at the export date it shows QuickBooks' own Trial Balance figures; with the
    full history, the all-time balance of each account (GnuCash posts no closing entries). A
    book damaged by 12.34 shows it."""
    company = make_company(160, seed=21, start=START, years=2)
    if mode == "balances only":
        cut = Cutover(mode="balances_only", date=company.export_date.isoformat())
        expected = company.trial_balance()
    else:
        cut = Cutover()
        expected = company.expected_balances()
    _prepared, outcome = convert(tmp_path, company, Plan(cutover=cut))
    assert outcome.report.ok, outcome.report.summary_lines()
    expected.pop("Estimates")  # a non-posting account QuickBooks lists: not in the book
    assert sum(expected.values()) == 0 and sum(1 for v in expected.values() if v) > 30
    book = tmp_path / "book.gnucash"
    assert {r.account for r in outcome.report.rows if r.quickbooks_account} == set(expected)
    assert_trial_balance_report(book, tmp_path / "home", expected)
    if mode == "full history":
        other = damage(book, "Checking", 1234)
        with pytest.raises(AssertionError):
            assert_trial_balance_report(book, tmp_path / "home", expected)
        tb = trial_balance(book, tmp_path / "home")
        assert tb.balances["Checking"] - expected["Checking"] == D("12.34")
        assert tb.balances[other] - expected[other] == D("-12.34")


GOLDEN_PLANS = (
    ("full history", Plan()),
    ("full history, opening balances", Plan(cutover=Cutover(opening_balances=True))),
    (
        "full history, opening balances, reparented",
        Plan(reparent=True, cutover=Cutover(opening_balances=True)),
    ),
    ("balances only at 2022-06-30", Plan(cutover=Cutover(mode="balances_only", date="2022-06-30"))),
    (
        "balances only at 2022-06-30, year to date into Retained Earnings",
        Plan(cutover=Cutover(mode="balances_only", date="2022-06-30", ytd_to_retained=True)),
    ),
)


@pytest.mark.parametrize("name", ["mid-history.iif"])
def test_golden_reports(tmp_path: Path, data_dir: Path, golden, name: str) -> None:
    """A hand-written IIF (chart with OBAMOUNTs + history from February) in every cutover mode:
    problems, summary and CSV report of the book written and read back."""
    source = data_dir / "verify" / name
    out: list[str] = []
    for i, (title, plan) in enumerate(GOLDEN_PLANS):
        prepared = pipeline.prepare(pipeline.read([source], plan), plan)
        outcome = pipeline.write(prepared, tmp_path / f"book-{i}.gnucash", plan)
        out += [
            f"## {title}",
            *(f"{p.severity}: {with_fix(str(p), p.fix, 'cli')}" for p in prepared.problems),
        ]
        out += [*outcome.report.summary_lines(), outcome.report.to_csv()]
    golden(source.with_name(name + ".expected"), "\n".join(out))


def test_damage_in_an_earlier_fiscal_year_shows_in_retained_earnings(tmp_path: Path) -> None:
    company = make_company(160, seed=10, start=START, years=3, fiscal_year_start=(7, 1))
    cut = Cutover(fiscal_year_start="07-01")
    prepared, outcome = convert(tmp_path, company, Plan(cutover=cut))
    assert outcome.report.ok, outcome.report.summary_lines()
    book = tmp_path / "book.gnucash"
    other = damage(book, "Checking", -500, pnl=True, before=company.fiscal_year_begin())
    report = verify(prepared.ledger, gnc.read_book(book), cut)
    rows = {r.account: r for r in report.differences}
    assert set(rows) == {"Checking", other, "Retained Earnings"}
    assert rows["Checking"].difference == D("-5.00")
    # the income/expense account's year to date is untouched; its history is not
    assert (rows[other].difference, rows[other].history_difference) == (0, D("5.00"))
    assert rows["Retained Earnings"].difference == D("5.00")
    assert rows["Retained Earnings"].history_difference == 0
    # the files make QuickBooks' Retained Earnings, the book does not: the book is what differs
    # (it was said "transactions are probably in the files twice", from the book's figures)
    assert rows["Retained Earnings"].cause == rows["Checking"].cause
    assert "book's transactions differ from the files'" in rows["Retained Earnings"].cause
    # (said as the wizard says it: whose lines, and that its balance this year matches)
    assert f"{other}: the files' transaction lines " in "\n".join(report.summary_lines())


def test_sqlite_book_verifies(tmp_path: Path) -> None:
    company = make_company(120, seed=11, start=START, years=2, history_from=dt.date(2020, 2, 1))
    plan = Plan(format="sqlite", cutover=Cutover(opening_balances=True))
    _prepared, outcome = convert(tmp_path, company, plan)
    assert (tmp_path / "book.gnucash").read_bytes()[:16] == b"SQLite format 3\0"
    assert outcome.report.ok, outcome.report.summary_lines()
    assert_known_answers(outcome.report, company.trial_balance())


def test_history_only_account_damage_is_described_by_its_lines() -> None:
    accounts = tuple(Account(a.full_name, a.type, a.source) for a in ledger().accounts)
    led = Ledger(accounts=accounts, transactions=HISTORY)
    book = damaged(book_of(led), "Rent", dt.date(2022, 3, 1), "0.01")
    report = verify(led, book, Cutover())
    assert report.summary_lines()[1] == (
        "Rent: QuickBooks' transaction lines (no QuickBooks balance for it) 2,200.00, GnuCash "
        "2,200.01 (all time), difference 0.01"
        " — the book's transactions differ from the files' (please report this)"
    )
    assert report.to_csv().splitlines()[-1].startswith("Rent,,2200.00,2200.01,0.01,history,")


def test_voided_transaction_through_the_engine(tmp_path: Path) -> None:
    """GnuCash zeroes a voided transaction and marks its splits "v": verify expects exactly
    that (QuickBooks' figures do not count voided transactions either)."""
    void = dataclasses.replace(HISTORY[3], voided=True, source=Source("trns.iif", 30))
    led = apply(ledger((*HISTORY, void)), Cutover())
    assert led.problems == ()
    path = tmp_path / "void.gnucash"
    gnc.write_book(led, path)
    snapshot = gnc.read_book(path)
    report = verify(led, snapshot, Cutover())
    assert report.ok, report.summary_lines()
    checks = {c.name: (c.input, c.book) for c in report.checks}
    assert checks["splits voided"] == (2, 2)
    assert checks["transactions"] == (7, 7)


@pytest.mark.parametrize("layout", ["find", "journal", "transaction_detail", "general_ledger"])
def test_csv_history_from_the_middle_with_opening_balances(tmp_path: Path, layout: str) -> None:
    company = make_company(150, seed=12, start=START, years=3, history_from=dt.date(2020, 9, 1))
    plan = Plan(reparent=True, cutover=Cutover(opening_balances=True))
    prepared, outcome = convert(tmp_path, company, plan, layout=layout)
    report = outcome.report
    assert report.ok, report.summary_lines()
    rows = [r for r in report.rows if r.quickbooks_account]
    tb = company.trial_balance()
    assert {r.quickbooks_account: r.gnucash_balance for r in rows} == {
        n: v for n, v in tb.items() if n != "Estimates"
    }
    assert prepared.ledger.transactions[0].kind_label == OPENING_KIND


@pytest.mark.parametrize(
    ("seed", "fiscal", "shift"),
    [(21, (1, 1), 0), (22, (1, 1), 1), (23, (7, 1), 0), (24, (7, 1), 1), (25, (10, 1), -1)],
)
def test_history_starting_at_the_fiscal_year_boundary(tmp_path: Path, seed, fiscal, shift) -> None:
    """History that starts on the fiscal year's first day (or one day off either way): the
    opening transaction falls on either side of the boundary and the proof still holds."""
    base = make_company(200, seed=seed, start=START, years=3, fiscal_year_start=fiscal)
    begin = base.fiscal_year_begin() + dt.timedelta(days=shift)
    company = dataclasses.replace(base, history_from=begin)
    assert company.history and company.history[0].date >= begin
    mmdd = f"{fiscal[0]:02d}-{fiscal[1]:02d}"
    plan = Plan(cutover=Cutover(opening_balances=True, fiscal_year_start=mmdd))
    prepared, outcome = convert(tmp_path, company, plan)
    assert prepared.warnings == ()
    assert outcome.report.ok, outcome.report.summary_lines()
    assert_known_answers(outcome.report, company.trial_balance())


def test_two_book_accounts_with_one_number_never_pass() -> None:
    """Issue 13: one code, two accounts: each balance wrong, their sum right; never checked."""
    led = apply(ledger(), Cutover())
    book = book_of(led)
    coded = tuple(
        dataclasses.replace(b, code="1222") if b.full_name in ("Checking", "Rent") else b
        for b in book.accounts
    )
    report = verify(led, dataclasses.replace(book, accounts=coded), Cutover())
    failed = [c for c in report.checks if not c.ok]
    assert [(c.name, c.input, c.book, c.detail) for c in failed] == [
        ("account numbers used twice", 0, 1, "1222: Checking, Rent")
    ]
    assert not report.ok
    said = (
        "account numbers used by two accounts: QuickBooks 0, GnuCash 1 — DIFFERS "
        "(1222: Checking, Rent). "
    )
    line = next(x for x in report.summary_lines() if x.startswith(said))
    assert "What to do: run the conversion again (a new book); or in GnuCash, give one of " in line
    assert "account numbers used twice" not in {c.name for c in verify(led, book, Cutover()).checks}
    # QuickBooks' own list gives the two accounts one number (the real gitpan sample does):
    # a warning before writing, and the book keeping it on both is what QuickBooks has
    both = dataclasses.replace(
        led,
        accounts=tuple(
            dataclasses.replace(a, code="1222") if a.full_name in ("Checking", "Rent") else a
            for a in led.accounts
        ),
    )
    (warned,) = [p for p in check(both) if "account number 1222" in p.message]
    assert warned.severity == "warning" and "“Checking” and “Rent” (" in warned.message
    same = verify(both, dataclasses.replace(book, accounts=coded), Cutover())
    (found,) = [c for c in same.checks if c.name == "account numbers used twice"]
    assert found.ok and (found.input, found.book) == (1, 1) and same.ok
    # ... and a book that drops it from one of them differs
    apart = verify(both, book, Cutover())
    assert not apart.ok and [c.name for c in apart.checks if not c.ok] == [
        "account numbers used twice"
    ]


def test_the_proof_names_the_period_a_cut_file_leaves_out() -> None:
    journal = FileInfo(
        "journal.csv",
        "CSV Journal",
        "journal",
        first_date=dt.date(2021, 1, 5),
        last_date=dt.date(2022, 3, 1),
        cut=True,
    )
    led = apply(dataclasses.replace(ledger(HISTORY[:5]), files=(journal,)), Cutover())
    report = verify(led, book_of(led), Cutover())
    assert not report.ok
    assert report.notes[0] == (
        "journal.csv is cut at QuickBooks' export cap: its history stops on 2022-03-01, so the "
        "book has no history from 2022-03-01 on (that day perhaps incomplete)."
    )
    cause = (
        "the history is incomplete: no history from 2022-03-01 on (journal.csv is cut at the "
        "export cap)"
    )
    assert {r.account: (r.cause, r.fix) for r in report.differences} == {
        "Accounts Payable": (cause, "history_gap"),
        "Rent": (cause, "history_gap"),
    }
    assert report.notes[0] in report.summary_lines()
    assert report.no_opening == ""  # the opening balance was not asked for
    wizard = report.difference_lines("wizard")[0]  # the one cause, with both ways out
    assert wizard == (
        f"Probable cause of every difference: {cause}; to fix: add the transaction files that "
        "cover that period on the Files step, or choose “Only the balances, on a cutover date” "
        "on the Map step (the book then starts from QuickBooks' balances on that day, without "
        "the transactions before it)"
    )
    asked = Cutover(opening_balances=True)
    led = apply(dataclasses.replace(ledger(HISTORY[:5]), files=(journal,)), asked)
    said = verify(led, book_of(led), asked).difference_lines()
    assert said[1] == (
        "No opening-balance transaction was made, though it was asked for: no history from "
        "2022-03-01 on (journal.csv is cut at the export cap), after the history ends, and an "
        "opening balance stands only for what happened before the history starts (it is dated "
        "2021-01-04, the day before its first transaction)"
    )


def test_the_notes_say_how_the_gnucash_column_reads_in_gnucash_s_trial_balance() -> None:
    led = apply(ledger(), Cutover())
    report = verify(led, book_of(led), Cutover())
    assert report.notes[-1] == (
        "The GnuCash figures are the ones GnuCash's own Trial Balance report (Reports › "
        "Income & Expense › Trial Balance, Date of Report 2022-06-30) shows: each account on "
        "its own row with its own balance (subaccounts are not added into their parents), a "
        "positive figure here in its Debit column, a negative one in its Credit column "
        "without the minus sign; but that report counts income and expense from the first "
        "transaction, this one from 2022-01-01, the start of the fiscal year, and shows Retained "
        "Earnings as posted, where this one adds every earlier fiscal year's net income to it as "
        "QuickBooks does (the next steps in GnuCash list that report's own figures)."
    )
    assert report.summary_lines()[-1] == report.notes[-1]


def test_parents_qb2gnucash_created_are_not_counted_but_listed_apart() -> None:
    """Issue 13: "79 of 79 accounts" counted 13 parents the tool made itself."""
    led = apply(ledger(), Cutover())
    made = Account("Expenses", T.EXPENSE, Source("lists.iif", 1), placeholder=True)
    led = dataclasses.replace(led, accounts=(*led.accounts, made))
    report = verify(led, book_of(led), Cutover())
    assert report.ok
    assert report.summary_lines()[:2] == [
        "7 of 7 accounts match QuickBooks to the cent",
        "Not counted above: 1 parent account qb2gnucash created for the tree, not in QuickBooks, "
        "nothing posted to them: Expenses",
    ]
    assert [r.account for r in report.rows if r.created == "parent"] == ["Expenses"]


def test_accounts_without_a_quickbooks_balance_are_counted_apart() -> None:
    """An account only in the transaction files is compared with its lines: counted apart,
    never as matching QuickBooks."""

    def row(name: str, value: str, basis: str) -> Row:
        return Row(name, name, D(value), D(value), basis, lines=D(value), book_total=D(value))

    both = Report((row("Stripe", "31.74", "history"), row("Checking", "5.00", "all time")), ())
    assert both.headline() == (
        "1 of 1 account match QuickBooks' balances; 1 account with no QuickBooks balance "
        "equals its transaction lines"
    )
    alone = Report((row("Stripe", "31.74", "history"), row("Fees", "1.85", "history")), ())
    assert alone.headline() == (
        "no QuickBooks balance to compare: 2 accounts with no QuickBooks balance equal their "
        "transaction lines"
    )
    assert Report((row("Checking", "5.00", "all time"),), ()).headline() == (
        "1 of 1 account match QuickBooks to the cent"
    )

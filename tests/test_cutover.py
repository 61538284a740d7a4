"""Cutover modes on small hand-made ledgers: opening balances, balances-only, fiscal years."""

from __future__ import annotations

import datetime as dt
from dataclasses import replace
from decimal import Decimal

from app.business import OpenItem
from app.cutover import apply
from app.fixes import with_fix
from app.model import Account, AccountType, FileInfo, Ledger, Role, money, plain
from app.openings import OPENING_KIND
from app.plan import Cutover
from app.source import Source
from tests.support.ledgers import EXPORTED, HISTORY, LISTS, chart, ledger, txn, without

T = AccountType
D = Decimal


def test_tb_sums_to_zero() -> None:
    assert sum(a.balance for a in ledger().accounts) == 0


def test_full_history_that_explains_everything_changes_nothing() -> None:
    for option in (False, True):
        before = ledger()
        after = apply(before, Cutover(opening_balances=option))
        assert after.as_of is not None
        assert (after.as_of.date, after.as_of.basis) == (EXPORTED, "export header")
        assert replace(after, as_of=None) == before


def test_history_from_mid_year_without_option_warns_per_account() -> None:
    after = apply(ledger(HISTORY[3:]), Cutover())
    assert after.transactions == HISTORY[3:]
    messages = [(p.severity, str(p)) for p in after.problems]
    assert (
        "warning",
        "lists.iif:1: Checking: QuickBooks balance 16,200.00, imported history explains "
        "2,400.00; difference 13,800.00: the history starts on 2022-02-01, after this "
        "account's first activity, or one of its transactions is missing from the files (an "
        "opening balance would hide that: check the files first)",
    ) in messages
    assert {p.fix for p in after.problems} == {"opening_balances"}
    assert {m.split(": ")[1] for _, m in messages} == {
        "Checking",
        "Owner's Equity",
        "Retained Earnings",
    }


def test_opening_balances_post_only_what_history_does_not_explain() -> None:
    after = apply(ledger(HISTORY[3:]), Cutover(opening_balances=True))
    assert after.problems == ()
    opening, *rest = after.transactions
    assert tuple(rest) == HISTORY[3:]
    assert opening.kind_label == OPENING_KIND
    assert opening.date == dt.date(2022, 1, 31)
    assert opening.total == 0
    assert [(s.account, s.value) for s in opening.splits] == [
        ("Checking", D("13800.00")),
        ("Owner's Equity", D("-10000.00")),
        ("Retained Earnings", D("-3800.00")),
    ]


def test_opening_balances_for_history_starting_mid_fiscal_year_include_pnl() -> None:
    # History from 2022-03-01: January's and February's sales are this fiscal year's.
    after = apply(ledger(HISTORY[4:]), Cutover(opening_balances=True))
    assert after.problems == ()
    opening = after.transactions[0]
    assert opening.date == dt.date(2022, 2, 28)
    got = {s.account: s.value for s in opening.splits}
    assert got == {
        "Checking": D("16800.00"),
        "Owner's Equity": D("-10000.00"),
        "Retained Earnings": D("-3800.00"),
        "Sales": D("-3000.00"),
    }


def test_pnl_difference_with_history_covering_the_year_is_reported_not_posted() -> None:
    # QuickBooks knows a 100.00 sale this year that the history (from 2021-09-01) lacks.
    base = ledger(HISTORY[2:], sales="-3100.00", checking="16300.00")
    after = apply(base, Cutover(opening_balances=True))
    warnings = [str(p) for p in after.problems]
    assert [p.severity for p in after.problems] == ["warning", "warning"]
    assert warnings[0] == (
        "lists.iif:6: Sales: QuickBooks balance -3,100.00, imported history explains -3,000.00 "
        "for the fiscal year from 2022-01-01; difference -100.00 — the history covers the whole "
        "year, so it is not posted"
    )
    assert warnings[1].startswith(
        "lists.iif:3: Opening Balance Equity: the opening balances leave -100.00 beyond its own "
        "QuickBooks difference of 0.00"
    )
    opening = after.transactions[0]
    assert opening.total == 0
    assert {s.account: s.value for s in opening.splits} == {
        "Checking": D("15100.00"),
        "Owner's Equity": D("-10000.00"),
        "Retained Earnings": D("-5000.00"),
        "Opening Balance Equity": D("-100.00"),
    }


def test_no_opening_balance_account_is_made_when_nothing_needs_it() -> None:
    base = Ledger(
        accounts=without(Role.OPENING_BALANCE), transactions=HISTORY[3:], files=ledger().files
    )
    after = apply(base, Cutover(opening_balances=True))
    assert after.accounts == base.accounts and after.problems == ()
    assert after.transactions[0].total == 0


def test_opening_balance_account_is_made_when_the_chart_has_none() -> None:
    # Owner's Equity without a QuickBooks figure: its 10,000 must come from somewhere.
    base = Ledger(
        accounts=without(Role.OPENING_BALANCE, owner=None),
        transactions=HISTORY[3:],
        files=ledger().files,
    )
    after = apply(base, Cutover(opening_balances=True))
    made = after.accounts[-1]
    assert made.full_name == "Opening Balances"
    assert (made.type, made.role) == (T.EQUITY, Role.OPENING_BALANCE)
    opening = after.transactions[0]
    assert {s.account: s.value for s in opening.splits} == {
        "Checking": D("13800.00"),
        "Retained Earnings": D("-3800.00"),
        "Opening Balances": D("-10000.00"),
    }
    assert [p.severity for p in after.problems] == ["warning"]  # beyond its own figure (none)


def test_made_account_goes_under_equity_when_reparented() -> None:
    top = Account("Equity", T.EQUITY, Source(LISTS, 0), placeholder=True)
    base = Ledger(
        accounts=(top, *without(Role.OPENING_BALANCE, owner=None)), transactions=HISTORY[3:]
    )
    after = apply(base, Cutover(opening_balances=True))
    assert after.accounts[-1].full_name == "Equity:Opening Balances"
    assert after.account("Opening Balances") is None


def test_voided_transactions_count_zero() -> None:
    void = txn("2022-05-01", ("Checking", "50.00"), ("Sales", "-50.00"), voided=True)
    after = apply(ledger((*HISTORY, void)), Cutover(opening_balances=True))
    assert after.transactions == (*HISTORY, void)
    assert after.problems == ()


def test_full_mode_without_transactions() -> None:
    lists_only = ledger(())
    warned = apply(lists_only, Cutover())
    assert [p.severity for p in warned.problems] == ["warning"]
    assert warned.problems[0].fix == "balances_only"  # each front end words it (--balances-only)
    refused = apply(lists_only, Cutover(opening_balances=True))
    assert [p.severity for p in refused.problems] == ["error"]


def test_balances_only_needs_a_valid_date() -> None:
    for bad in ("", "2022-13-01", "6/30/2022"):
        after = apply(ledger(), Cutover(mode="balances_only", date=bad))
        assert [p.severity for p in after.problems] == ["error"], bad
        assert "YYYY-MM-DD" in after.problems[0].message


def test_balances_only_posts_the_trial_balance_on_the_date() -> None:
    after = apply(ledger(), Cutover(mode="balances_only", date="2022-06-30"))
    assert [str(p) for p in after.problems] == [
        "only the balances, on a cutover date: 6 transactions of the history left out; the book "
        "starts from QuickBooks' trial "
        "balance on 2022-06-30",
        "lists.iif:2: Accounts Payable (400.00) opens as one amount on 2022-06-30: no Unpaid "
        "Bills Detail report was given, so no vendor's open bills stand behind it in GnuCash (its "
        "aging shows none, and the next payment has no bill to be applied to). Add QuickBooks' "
        "Unpaid Bills Detail report as of 2022-06-30 (Reports › Vendors & Payables › Unpaid Bills "
        "Detail, exported as CSV) to the files to bring them as documents",
    ]
    (opening,) = after.transactions
    assert opening.date == dt.date(2022, 6, 30) and opening.kind_label == OPENING_KIND
    assert {s.account: s.value for s in opening.splits} == {
        "Checking": D("16200.00"),
        "Accounts Payable": D("-400.00"),
        "Owner's Equity": D("-10000.00"),
        "Retained Earnings": D("-3800.00"),
        "Sales": D("-3000.00"),
        "Rent": D("1000.00"),
    }


def test_an_unpaid_bills_report_that_lists_nothing_is_said_as_given() -> None:
    """The Unpaid Bills report was given and lists no bill (hunt 11): A/P opens as one amount,
    said so, with the report to export again; it said the report was not given."""
    from app.model import FileInfo

    given = replace(ledger(), files=(FileInfo("ub.csv", "CSV Unpaid Bills", "unpaid bills"),))
    after = apply(given, Cutover(mode="balances_only", date="2022-06-30"))
    said = str(after.problems[-1])
    assert "opens as one amount on 2022-06-30: the Unpaid Bills Detail report given lists " in said
    assert "none, so no vendor's open bills" in said and "was given" not in said, said
    assert said.endswith("exported as CSV) again, and give it to bring them as documents"), said


def test_balances_only_ytd_to_retained() -> None:
    after = apply(
        ledger(()), Cutover(mode="balances_only", date="2022-06-30", ytd_to_retained=True)
    )
    assert [p.message.split(" (")[0] for p in after.problems] == ["Accounts Payable"]
    # with the Unpaid Bills Detail report, the vendors' bills stand behind A/P: nothing to say
    bill = OpenItem("vendor", "Acme", "Bill", dt.date(2022, 6, 1), D("400"), Source("ub.csv", 4))
    cut = Cutover(mode="balances_only", date="2022-06-30", ytd_to_retained=True)
    assert apply(replace(ledger(()), open_items=(bill,)), cut).problems == ()
    (opening,) = after.transactions
    assert {s.account: s.value for s in opening.splits} == {
        "Checking": D("16200.00"),
        "Accounts Payable": D("-400.00"),
        "Owner's Equity": D("-10000.00"),
        "Retained Earnings": D("-5800.00"),
    }


def test_balances_only_ytd_to_retained_makes_the_account_when_missing() -> None:
    base = Ledger(accounts=without(Role.RETAINED_EARNINGS, owner="-13800.00"), chart=True)
    cut = Cutover(mode="balances_only", date="2022-06-30", ytd_to_retained=True)
    after = apply(base, cut)
    assert [p.message.split(" (")[0] for p in after.problems] == ["Accounts Payable"]
    made = after.accounts[-1]
    assert (made.full_name, made.type, made.role) == (
        "Retained Earnings",
        T.EQUITY,
        Role.RETAINED_EARNINGS,
    )
    (opening,) = after.transactions
    assert {s.account: s.value for s in opening.splits}["Retained Earnings"] == D("-2000.00")


def test_balances_only_refuses_a_trial_balance_that_does_not_sum_to_zero() -> None:
    after = apply(ledger(checking="16200.01"), Cutover(mode="balances_only", date="2022-06-30"))
    errors = [str(p) for p in after.errors]
    assert errors == [
        "lists.iif:1: QuickBooks' trial balance does not sum to zero (off by 0.01); no opening "
        "transaction is made — check the lists export"
    ]
    assert after.transactions == ()


def test_balances_only_needs_balances() -> None:
    bare = Ledger(accounts=tuple(Account(a.full_name, a.type, a.source) for a in chart()))
    after = apply(bare, Cutover(mode="balances_only", date="2022-06-30"))
    assert [p.severity for p in after.problems] == ["error"]


def test_money() -> None:
    assert money(D("-98250.5")) == "-98,250.50"
    assert money(D("0")) == money(D("-0.00")) == "0.00"
    # every place kept, never rounded: a six-decimal currency's difference shows
    assert money(D("-98250.025")) == "-98,250.025"
    assert money(D("0.000001")) == "0.000001"
    assert plain(D("-1403.990000")) == "-1403.990000" and plain(D("12")) == "12.00"


def test_opening_balances_without_any_quickbooks_figure_warn() -> None:
    bare = Ledger(
        accounts=tuple(Account(a.full_name, a.type, a.source) for a in chart()),
        transactions=HISTORY[3:],
    )
    after = apply(bare, Cutover(opening_balances=True))
    assert after.transactions == HISTORY[3:]
    assert [p.severity for p in after.problems] == ["warning"]
    assert "IIF lists export" in after.problems[0].message
    assert replace(apply(bare, Cutover()), as_of=None) == bare


def test_ytd_to_retained_is_ignored_with_a_warning_in_full_mode() -> None:
    after = apply(ledger(), Cutover(ytd_to_retained=True))
    assert after.transactions == HISTORY
    assert [p.severity for p in after.problems] == ["warning"]
    assert "balances-only" in after.problems[0].message


def test_a_history_with_a_gap_posts_no_opening_balances() -> None:
    """A file cut at the export cap (accepted): what is missing after the cut is not what came
    before the history; nothing is posted, each difference is reported, and once, first, that
    the opening balance asked for is not made and why; each with both ways out: the missing
    files, or a book from the balances alone."""
    journal = FileInfo(
        "journal.csv",
        "CSV Journal",
        "journal",
        first_date=dt.date(2021, 1, 5),
        last_date=dt.date(2022, 3, 1),
        cut=True,
    )
    base = replace(ledger(HISTORY[:5]), files=(*ledger().files, journal))
    after = apply(base, Cutover(opening_balances=True))
    assert after.transactions == base.transactions  # no opening transaction
    assert [(p.message, p.fix, p.topic) for p in after.problems] == [
        (
            "No opening-balance transaction was made, though it was asked for: no history from "
            "2022-03-01 on (journal.csv is cut at the export cap), after the history ends, and "
            "an opening balance stands only for what happened before the history starts (it is "
            "dated 2021-01-04, the day before its first transaction)",
            "history_gap",
            "opening",
        ),
        (
            "Accounts Payable: QuickBooks balance -400.00, imported history explains 0.00; "
            "difference -400.00, not posted as an opening balance: the history is incomplete, "
            "no history from 2022-03-01 on (journal.csv is cut at the export cap)",
            "history_gap",
            "difference",
        ),
        (
            "Rent: QuickBooks balance 1,000.00, imported history explains 600.00; difference "
            "400.00, not posted as an opening balance: the history is incomplete, no history "
            "from 2022-03-01 on (journal.csv is cut at the export cap)",
            "history_gap",
            "difference",
        ),
    ]
    assert with_fix("", "history_gap", "cli") == (
        "; to fix: give the transaction files that cover that period, or start the book from "
        "QuickBooks' balances alone with --balances-only YYYY-MM-DD (the transactions before "
        "that day are then left out)"
    )
    without = apply(base, Cutover())  # not asked for: nothing said of it
    assert [p.topic for p in without.problems] == ["difference", "difference"]


def test_a_history_that_explains_more_than_quickbooks_is_never_absorbed() -> None:
    """Issue 22 (4): the history twice (no Trans # to catch it) explains twice QuickBooks'
    balances; an opening balance would take the second copy back and every account would
    match. It is never posted: each difference is reported, with the probable cause."""
    twice = ledger((*HISTORY, *HISTORY))
    for option in (True, False):
        after = apply(twice, Cutover(opening_balances=option))
        assert after.transactions == twice.transactions  # no opening transaction
        assert {p.fix for p in after.problems} == {"repeated"}
        head, *rows = after.problems
        assert str(head) == (
            "the imported history explains more than QuickBooks' balance on every account that "
            "differs (6 accounts: Checking 32,400.00 where QuickBooks has 16,200.00, Accounts "
            "Payable -800.00 where it has -400.00 and 4 more): transactions are probably in the "
            "files twice (such as trns.iif:1 and trns.iif:1, alike); nothing is posted as an "
            "opening balance, which would hide the difference"
        )
        assert str(rows[0]) == (
            "lists.iif:1: Checking: QuickBooks balance 16,200.00, imported history explains "
            "32,400.00; difference -16,200.00: not posted, the history explains more than "
            "QuickBooks' balance"
        )
        assert len(rows) == 6
    # a history that starts late explains less of some accounts: its opening is posted
    late = apply(ledger(HISTORY[3:]), Cutover(opening_balances=True))
    assert late.transactions[0].kind_label == OPENING_KIND and late.problems == ()

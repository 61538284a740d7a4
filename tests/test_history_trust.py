"""A history the files give wrongly (the same transactions twice, a report cut short, figures of
another fiscal year) is never called matching, and the advice names the real cause (issue 22).

Each case starts from the issue's reproduction: a generated company's exports, damaged as a
user's files were, converted with ``run.py convert`` and the book reopened with the bindings.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from tests.support.cli import convert
from tests.support.companygen import Company, make_company

NEXT_YEAR = dt.date(2022, 1, 5)  # the lists exported in a new fiscal year: P&L figures at 0.00


def read_book(path: Path):
    from app.gnc import read_book as read

    return read(path)


def twice(path: Path, keep: int) -> Path:
    """``path`` with its lines after the first ``keep`` appended again (the blocks twice)."""
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    path.write_text("".join(lines + lines[keep:]), encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def small() -> Company:
    company = make_company(40, 1, exported=NEXT_YEAR)
    assert company.transactions[-1].date < NEXT_YEAR
    return company


# ---------------------------------------------------------------- 4: the same transactions twice


def test_an_iif_file_holding_its_transactions_twice_is_imported_once(small, tmp_path):
    """The issue's reproduction: the TRNS blocks appended twice to one IIF file. Following the
    old advice (--opening-balances) gave 81 transactions for 40 and every account matching."""
    lists = small.write_lists_iif(tmp_path / "lists.iif")
    txns = twice(small.write_transactions_iif(tmp_path / "txns.iif"), keep=3)
    out = tmp_path / "book.gnucash"
    run = convert(lists, txns, "-o", out, "--opening-balances", "--strict")
    assert run.returncode == 0, run.stdout + run.stderr
    assert (
        "txns.iif:168: 40 transactions of this file (2019-01-01 to 2021-12-17) are in it twice, "
        "with the same Trans # and lines (lines 168, 174, 177, 182, 187 and 35 more repeat "
        "lines 4, 10, 13, 18, 23 and 35 more): each is imported once"
    ) in run.stdout
    assert "  40 transactions with" in run.stdout
    book = read_book(out)
    assert book.transactions == 40  # no opening transaction: the history explains everything
    truth = small.expected_balances()
    assert {a.full_name: a.balance for a in book.accounts if a.full_name in truth} == {
        n: v for n, v in truth.items() if n != "Estimates"
    }


def test_a_history_twice_without_trans_numbers_is_never_absorbed(small, tmp_path):
    """The same Find export appended to itself (no Trans # to tell the copies apart): every
    account's history is twice QuickBooks' balance. An opening balance would take the second
    copy back and call the book matching; it is refused and the cause named."""
    lists = small.write_lists_iif(tmp_path / "lists.iif")
    find = twice(small.write_find_csv(tmp_path / "find.csv"), keep=1)
    out = tmp_path / "book.gnucash"
    run = convert(lists, find, "-o", out, "--opening-balances", "--strict")
    assert run.returncode == 3, run.stdout + run.stderr
    assert "accounts match" not in run.stdout
    assert (
        "  the imported history explains more than QuickBooks' balance on every account that "
        "differs (15 accounts: Checking -8,497.88 where QuickBooks has -4,248.94"
    ) in run.stdout
    assert "add --opening-balances" not in run.stdout
    assert (  # said once for every account, each pointing to it
        "  Probable cause of every difference: the history explains more than QuickBooks' "
        "balance, as on every account that differs: transactions are probably in the files "
        "twice (such as find.csv:"
    ) in run.stdout
    assert (
        "alike); to fix: give each transaction file once, each holding its report once (export "
        "again a file that holds a report twice)"
    ) in run.stdout
    assert (
        "  Checking: QuickBooks -4,248.94, GnuCash -8,497.88 (all time), difference -4,248.94 — "
        "the history explains more than QuickBooks' balance, as on every account that differs "
        "(see above)\n"
    ) in run.stdout
    assert read_book(out).transactions == 80  # the history as given, no opening transaction
    # without the option the advice is the same: not "add --opening-balances"
    plain = convert(lists, find, "-o", tmp_path / "plain.gnucash")
    assert "add --opening-balances" not in plain.stdout
    assert "transactions are probably in the files twice" in plain.stdout


def test_an_amount_changed_in_the_files_is_not_called_a_file_given_twice(small, tmp_path):
    """One check's amount 18.00 higher on both its lines (edited by hand, or changed in
    QuickBooks after the report was exported): the history explains more on both accounts that
    differ, as a file given twice would, but no transaction is in the files twice; the cause
    said was "transactions are probably in the files twice"."""
    from dataclasses import replace

    lists = small.write_lists_iif(tmp_path / "lists.iif")
    txns = list(small.transactions)
    at = next(
        i for i, t in enumerate(txns) if t.type == "Check" and len(t.splits) == 2 and t.splits[0][1]
    )
    check = txns[at]
    sign = [1 if v > 0 else -1 for _a, v, *_ in check.splits]
    splits = [(a, v + s * 18, m, c) for (a, v, m, c), s in zip(check.splits, sign, strict=True)]
    txns[at] = replace(check, splits=splits)
    journal = replace(small, transactions=txns).write_journal_csv(tmp_path / "journal.csv")
    run = convert(lists, journal, "-o", tmp_path / "book.gnucash", "--strict")
    assert run.returncode == 3, run.stdout + run.stderr
    assert "in the files twice (such as" not in run.stdout
    assert (
        "the history explains more than QuickBooks' balance, as on every account that differs: "
        "no transaction is in the files twice, so one of theirs is probably counted otherwise by "
        "QuickBooks"
    ) in run.stdout, run.stdout
    assert (
        "to fix: export the lists and the transaction report again, the same day, from the "
        "company's file as it is now, and give those"
    ) in run.stdout


def test_a_history_that_starts_with_the_company_is_not_said_to_start_late(tmp_path):
    """The files begin with QuickBooks' own opening balances (on Opening Balance Equity), and
    1.00 of it was moved from Savings to Checking by hand: Checking explains more than
    QuickBooks, Savings less. The cause was "the history starts on 2019-01-01, after the
    company did" with "add --opening-balances", which would plug the edit; it is a transaction
    of the files that QuickBooks counts otherwise."""
    from dataclasses import replace

    company = make_company(120, seed=3)
    txns = list(company.transactions)
    opening = txns[0]
    assert [a for a, *_ in opening.splits][:2] == ["Checking", "Savings"]
    assert "Opening Balance Equity" in {a for a, *_ in opening.splits}
    (a, va, ma, ca), (b, vb, mb, cb), *rest = opening.splits
    txns[0] = replace(opening, splits=[(a, va + 1, ma, ca), (b, vb - 1, mb, cb), *rest])
    edited = replace(company, transactions=txns)
    lists = company.write_lists_iif(tmp_path / "lists.iif")
    journal = edited.write_journal_csv(tmp_path / "journal.csv")
    run = convert(lists, journal, "-o", tmp_path / "book.gnucash", "--strict")
    assert run.returncode == 3, run.stdout + run.stderr
    assert "Needs your attention: 2 accounts differ" in run.stdout
    assert "add --opening-balances" not in run.stdout + run.stderr
    assert "after the company did" not in run.stdout
    assert "after this account's first activity" not in run.stdout  # (the warnings neither)
    # the two differences cancel: one transaction between Checking and Savings, said on both
    # (hunt 28), in the warnings and in the proof, with the files to check
    for name, other in (("Checking", "Savings"), ("Savings", "Checking")):
        said = f"{name}: QuickBooks balance"
        (line,) = [ln for ln in run.stdout.splitlines() if said in ln]
        assert f"its difference is the opposite of {other}'s, 1.00: one transaction" in line
    assert run.stdout.count("QuickBooks counts it otherwise (an opening balance would hide it); "
                            "to fix: check that every transaction file is given") == 4  # fmt: skip


# ---------------------------------------------------------------- 6: the same history, two layouts


def test_a_find_export_and_the_general_ledger_of_one_history_match(tmp_path):
    """A Find export whose day's transactions are not in Trans # order (sorted by type) with
    the General Ledger: same-day deposits the Find reads as one group doubled, accounts off and
    "a transaction file may be missing". Now every account matches."""
    company = make_company(2000, 1)
    lists = company.write_lists_iif(tmp_path / "lists.iif")
    find = company.write_find_csv(tmp_path / "find.csv", by_type=True)
    ledger = company.write_general_ledger_csv(tmp_path / "general_ledger.csv")
    run = convert(lists, find, ledger, "-o", tmp_path / "book.gnucash", "--strict")
    assert run.returncode == 0, run.stdout + run.stderr
    assert "51 of 51 accounts match QuickBooks to the cent" in run.stdout
    assert f"  {len(company.history):,} transactions with" in run.stdout
    assert "read as one; imported once, as those 2" in run.stdout


def test_a_find_export_taken_wholly_from_another_file_says_its_grouping_once(tmp_path):
    """A Find export (no Trans #) beside the General Ledger of the same history: every one of
    its transactions is taken from the ledger, so its warnings about how its own rows group
    ("ambiguous grouping", one per place) are one line that says they do not matter (a browser
    walk found 165 of them leading the Import step's "read these first"); alone, the Find
    export keeps each of them, since its grouping is then what the book gets."""
    from app import pipeline
    from app.plan import Plan

    company = make_company(300, seed=5, years=3)
    lists = company.write_lists_iif(tmp_path / "lists.iif")
    find = company.write_find_csv(tmp_path / "find.csv")
    ledger = company.write_general_ledger_csv(tmp_path / "general_ledger.csv")
    alone = pipeline.read([lists, find], Plan()).problems
    moot = [p for p in alone if p.message.startswith("ambiguous grouping")]
    assert len(moot) > 3
    both = pipeline.read([lists, find, ledger], Plan())
    assert not [p for p in both.problems if p.message.startswith("ambiguous grouping")]
    said = [p for p in both.problems if "do not matter" in p.message]
    assert [str(p.source) for p in said] == [str(moot[0].source)]
    assert said[0].message.startswith(
        f"{len(moot)} warnings about how this file's lines group into transactions "
        "(ambiguous grouping, first at find.csv:"
    )
    run = convert(lists, find, ledger, "-o", tmp_path / "book.gnucash")
    assert run.returncode == 0, run.stdout + run.stderr
    assert "Matches QuickBooks to the cent" in run.stdout
    assert "ambiguous grouping: the running balance" not in run.stdout
    from app.gnc import read_book

    snap = read_book(tmp_path / "book.gnucash")  # reopened: the ledger's transactions, once
    assert snap.transactions == len(company.history)
    for account, value in company.expected_balances().items():
        if company.account_type(account) != "NONPOSTING":
            assert snap.account(account).balance == value, account


# ---------------------------------------------------------------- 8: another fiscal year


def test_differences_of_one_fiscal_year_name_the_fiscal_year_start(tmp_path):
    """A company whose fiscal year starts on 07-01, its lists exported on 2022-03-01 (the year
    from 2021-07-01 to date in QuickBooks' income and expense figures), converted without
    --fiscal-year-start. Its history has no income or expense in June and July, so 1 June,
    1 July and 1 August all explain the figures and January 1st was assumed: every difference
    was "check that every transaction file is given". Now the fiscal year start is named."""
    company = make_company(60, 3, fiscal_year_start=(7, 1), exported=dt.date(2022, 3, 1))
    lists = company.write_lists_iif(tmp_path / "lists.iif")
    journal = company.write_journal_csv(tmp_path / "journal.csv")
    run = convert(lists, journal, "-o", tmp_path / "book.gnucash", "--strict")
    assert run.returncode == 3, run.stdout + run.stderr
    assert "check that every transaction file is given" not in run.stdout
    assert (
        "  QuickBooks' income and expense figures do not fit a fiscal year starting 1 January, "
        "the one assumed; they fit one starting 1 June, 1 July or 1 August (the history has no "
        "income or expense between those days to tell which): the company's fiscal year start "
        "is in QuickBooks' Company Information; to fix: give --fiscal-year-start MM-DD"
    ) in run.stdout
    assert (
        "fiscal year start: QuickBooks' figures fit a fiscal year starting 1 June, 1 July or "
        "1 August; to fix: give --fiscal-year-start MM-DD"
    ) in run.stdout
    assert (
        "  Rent: QuickBooks 2,137.61, GnuCash 0.00 (year to date), difference -2,137.61 — the "
        "fiscal year start (see above)"
    ) in run.stdout
    assert (
        "lists.iif:25: Retained Earnings: QuickBooks balance -31,669.81, imported history "
        "explains -26,513.33; difference -5,156.48: QuickBooks' figures fit a fiscal year "
        "starting 1 June, 1 July or 1 August; to fix: give --fiscal-year-start MM-DD"
    ) in run.stdout
    fixed = convert(
        lists, journal, "-o", tmp_path / "fixed.gnucash", "--strict", "--fiscal-year-start", "07-01"
    )
    assert fixed.returncode == 0, fixed.stdout + fixed.stderr
    assert "51 of 51 accounts match QuickBooks to the cent" in fixed.stdout


# ---------------------------------------------------------------- 7: a report that stops early


@pytest.fixture(scope="module")
def mid() -> Company:
    return make_company(1500, 5)  # 2019-01-01 to 2021-12-30, its lists exported on the last day


def cut(path: Path, lines: int) -> Path:
    """``path`` with only its first ``lines`` lines, as a report cut short."""
    kept = path.read_text(encoding="utf-8").splitlines(keepends=True)[:lines]
    path.write_text("".join(kept), encoding="utf-8")
    return path


def test_a_journal_cut_before_a_totals_row_is_named(mid, tmp_path):
    """The issue's reproduction: a Journal cut just before a transaction's totals row ends on a
    whole transaction, without the report's TOTAL row. It was "add --opening-balances"."""
    lists = mid.write_lists_iif(tmp_path / "lists.iif")
    journal = cut(mid.write_journal_csv(tmp_path / "journal.csv"), 3006)
    assert journal.read_text().splitlines()[-1].endswith(",4120 · Labor,,")
    out = tmp_path / "book.gnucash"
    run = convert(lists, journal, "-o", out, "--opening-balances")
    assert run.returncode == 1, run.stdout + run.stderr
    assert not out.exists()
    assert (
        "journal.csv:3006: journal.csv stops early: it does not end with the TOTAL row a whole "
        "Journal report ends with, and its title says it runs through 2021-12-30: its history "
        "stops on 2020-03-01, and what follows in the report's period is missing; to fix: "
        "export it again by date range (a year at a time) and give every file, or add "
        "--accept-truncated journal.csv if the cut is expected"
    ) in run.stderr
    accepted = convert(lists, journal, "-o", out, "--opening-balances", "--accept-truncated",
                       journal.name)  # fmt: skip
    assert accepted.returncode == 0, accepted.stdout + accepted.stderr
    assert "add --opening-balances" not in accepted.stdout
    assert "match QuickBooks to the cent" not in accepted.stdout
    assert (
        "the history is incomplete: no history from 2020-03-01 on (journal.csv is cut short)"
    ) in accepted.stdout
    assert read_book(out).transactions == 609  # the history as given: no opening balance


def test_a_find_export_cut_inside_a_transaction_is_named(mid, tmp_path):
    """A Find export cut at line 3,000, inside a transaction (no TOTAL row to miss there)."""
    lists = mid.write_lists_iif(tmp_path / "lists.iif")
    find = cut(mid.write_find_csv(tmp_path / "find.csv"), 3001)
    run = convert(lists, find, "-o", tmp_path / "book.gnucash")
    assert run.returncode == 1, run.stdout + run.stderr
    assert (
        "find.csv:3001: find.csv stops early: its last transaction (Check of 2021-01-24, line "
        "3001) stops in the middle, its lines not balancing: its history stops on 2021-01-24, "
        "and what follows in the report's period is missing; to fix:"
    ) in run.stderr


def test_a_history_ending_long_before_the_export_date_is_named(mid, tmp_path):
    """A Find export cut at line 3,000 between two transactions: nothing in the file says it
    stops early but its last day, 2021-01-23, eleven months before the lists' export date."""
    lists = mid.write_lists_iif(tmp_path / "lists.iif")
    find = cut(mid.write_find_csv(tmp_path / "find.csv"), 3000)
    out = tmp_path / "book.gnucash"
    run = convert(lists, find, "-o", out, "--opening-balances", "--strict")
    assert run.returncode == 3, run.stdout + run.stderr
    assert (
        "find.csv:2999: no file covers 2021-01-24 to 2021-12-30 (find.csv ends 2021-01-23; "
        "QuickBooks' figures are as of 2021-12-30, the export date in lists.iif:2); if "
        "transactions happened then, export them and add the file"
    ) in run.stdout
    assert "add --opening-balances" not in run.stdout
    assert "the history is incomplete: no file covers 2021-01-24 to 2021-12-30" in run.stdout
    assert read_book(out).transactions == 1020  # no opening balance absorbed the rest


def test_an_opening_balance_posted_across_days_between_two_find_exports_is_said(tmp_path):
    """Two Find exports (no title gives their periods) and the one transaction of the day
    between them in neither: with --opening-balances it went into the opening balance, the
    book "Matches QuickBooks to the cent", and nothing said so (hunt 19). The balances do match
    QuickBooks', and the book is written; the warning and the proof's note name the day."""
    from dataclasses import replace

    company = make_company(300, 13, history_from=dt.date(2020, 1, 1))
    history = company.history
    at = next(
        i
        for i in range(len(history) // 2, len(history) - 1)
        if history[i - 1].date < history[i].date < history[i + 1].date
        and (history[i + 1].date - history[i - 1].date).days == 2
    )
    day = history[at].date
    first = replace(company, transactions=history[:at], history_from=None)
    second = replace(company, transactions=history[at + 1 :], history_from=None)
    files = [
        company.write_lists_iif(tmp_path / "lists.iif"),
        first.write_find_csv(tmp_path / "h1.csv", split=True),
        second.write_find_csv(tmp_path / "h2.csv", split=True),
    ]
    run = convert(*files, "-o", tmp_path / "book.gnucash", "--opening-balances")
    assert run.returncode == 0, run.stdout + run.stderr
    said = (
        f"the opening balance takes in what the history does not explain, and no file covers "
        f"{day} (h1.csv ends {day - dt.timedelta(days=1)}, h2.csv starts "
        f"{day + dt.timedelta(days=1)}): a transaction there missing from both files would be in "
        "the opening balance, not on its day, and the proof cannot tell"
    )
    assert f"  {said}" in run.stdout, run.stdout
    assert f"  {said[0].upper()}{said[1:]}" in run.stdout.split("Verification:")[1]
    # the same files without --opening-balances: the difference is shown, nothing to say
    run = convert(*files, "-o", tmp_path / "plain.gnucash")
    assert "takes in what the history does not explain" not in run.stdout
    assert "Needs your attention" in run.stdout

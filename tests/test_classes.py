"""QuickBooks classes (issue 26, docs/CLASSES.md): a company with three classes (one nested) over
four fiscal years converted in each mode (memo, accounts, none) into XML and SQLite books from
IIF and from each CSV report's Class column, each book reopened with the engine and compared
with the generator's truth: the split's slot and memo prefix, the class sub-accounts and their
balances, the P&L by class adding up to the P&L every year; the proof never calls a book
matching when a line sits in another class; the command line's option and its reports."""

from __future__ import annotations

import csv
import datetime as dt
import html
import io
from dataclasses import replace
from decimal import Decimal
from pathlib import Path

import pytest

from app import classes_pnl, classes_proof, classes_stage, gnc, pipeline
from app.classes import SLOT, class_name, memo_with
from app.plan import Cutover, FileOptions, Plan, plan_from_json
from tests.support.cli import convert
from tests.support.companygen import BALANCE_SHEET, make_company
from tests.support.companygen_classes import class_totals, pnl_by_class

ZERO = Decimal(0)
CLASSES = ("Design", "Landscaping", "Landscaping:Residential")
# (mode, book format, the history's file): every mode in XML and SQLite, every reader's Class
CASES = [
    ("memo", "xml", "transactions_iif"),
    ("memo", "sqlite", "transaction_detail"),
    ("accounts", "xml", "general_ledger"),
    ("accounts", "sqlite", "transactions_iif"),
    ("none", "xml", "journal"),
    ("none", "sqlite", "find"),
]


@pytest.fixture(scope="module")
def company_files(tmp_path_factory):
    company = make_company(300, seed=26, years=4, classes=True)
    folder = tmp_path_factory.mktemp("classes")
    return company, folder, company.write_all(folder)


ACCOUNTS = [c for c in CASES if c[0] == "accounts"]


@pytest.fixture(scope="module")
def books(company_files):
    """Each case converted once (on first use): case → (company, mode, outcome, book read
    back with every transaction)."""
    company, folder, files = company_files
    done: dict = {}

    def made(case: tuple[str, str, str]):
        if case not in done:
            mode, fmt, history = case
            plan = replace(Plan(), format=fmt, classes=mode)
            parsed = pipeline.read([files["lists"], files[history]], plan)
            prepared = pipeline.prepare(parsed, plan)
            assert not prepared.errors, prepared.errors
            out = folder / f"{mode}-{history}.gnucash"
            outcome = pipeline.write(prepared, out, plan)
            back = gnc.read_book(out, transactions=True)  # the engine reopened
            done[case] = (company, mode, outcome, back)
        return done[case]

    return made


@pytest.fixture(params=CASES, ids=["-".join(c) for c in CASES])
def book(request, books):
    return books(request.param)


@pytest.fixture(params=ACCOUNTS, ids=["-".join(c) for c in ACCOUNTS])
def accounts_book(request, books):
    return books(request.param)


def test_the_generator_has_three_classes_over_four_fiscal_years(company_files) -> None:
    company, _folder, _files = company_files
    truth = pnl_by_class(company)
    assert sorted(truth) == [dt.date(y, 1, 1) for y in (2019, 2020, 2021, 2022)]
    used = {t.class_of(i) for t in company.history for i in range(len(t.splits))}
    assert used == {"", *CLASSES}
    types = {a[0]: a[1] for a in company.accounts}
    funds = [
        t.class_of(i)
        for t in company.history
        for i, s in enumerate(t.splits)
        if types[s[0]] in BALANCE_SHEET
    ]
    assert any(funds)  # a nonprofit's fund on a balance-sheet line


def test_the_book_matches_and_nothing_of_the_classes_is_lost(book) -> None:
    _company, mode, outcome, _back = book
    report = outcome.report
    assert report.ok, report.summary_lines()
    listed = [n for n in outcome.written.not_imported if n.what == "Classes"]
    if mode == "none":  # said, never silent
        assert sorted(n.name for n in listed) == sorted(CLASSES)
        assert all("--classes none" in n.reason for n in listed)
        assert report.classes is None
    else:
        assert listed == []


def _sums(pairs) -> dict:
    out: dict = {}
    for key, value in pairs:
        out[key] = out.get(key, ZERO) + value
    return {k: v for k, v in out.items() if v}


def test_each_split_keeps_its_class_as_the_mode_says(book) -> None:
    """Summed per account and class (the documents pass cuts a payment's A/R and A/P line into
    pieces, each keeping the class), the book's lines are the generator's."""
    company, mode, _outcome, back = book
    own = {a.full_name for a in back.accounts if ":" not in a.full_name or a.full_name in
           {x[0] for x in company.accounts}}  # fmt: skip
    subs = {}
    if mode == "accounts":
        for account in {s[0] for t in company.history for s in t.splits}:
            for klass in CLASSES:
                subs[f"{account}:{klass}"] = account
    got = []
    for t in back.transaction_list:
        for s in t.splits:
            account = subs.get(s.account, s.account)
            assert account in own, s
            got.append(((account, s.klass), s.value))
            if mode == "none":
                assert not s.klass and not s.memo.startswith("["), s
            elif s.klass and s.account == account:  # memo mode, or a balance-sheet line
                assert s.memo.startswith(f"[{s.klass}]"), s
            elif s.klass:  # moved to its class's sub-account: the memo is QuickBooks'
                assert s.account == f"{account}:{s.klass}" and not s.memo.startswith("["), s
    keep = mode != "none"
    want = [
        ((acc, t.class_of(i) if keep else ""), v)
        for t in company.history
        for i, (acc, v, _m, _c) in enumerate(t.splits)
    ]
    assert _sums(got) == _sums(want)
    if mode == "memo":
        assert sum(1 for _k, _v in got if _k[1]) > 300


def test_accounts_mode_has_a_sub_account_per_class_with_its_balance(accounts_book) -> None:
    company, _mode, outcome, back = accounts_book
    balances = {a.full_name: a for a in back.accounts}
    types = {a[0]: a[1] for a in company.accounts}
    made = 0
    for account, kind in types.items():
        if kind in BALANCE_SHEET:
            assert not [n for n in balances if n.startswith(f"{account}:Design")]
            continue
        for klass in CLASSES:
            want = class_totals(company, account, klass)
            got = balances.get(f"{account}:{klass}")
            if want or (got is not None and got.splits):
                assert got is not None and got.balance == want, (account, klass)
                assert got.type == balances[account].type
                made += 1
        unclassed = class_totals(company, account, "")
        if account in balances:
            assert balances[account].balance == unclassed, account
    assert made > 20
    check = next(c for c in outcome.report.checks if c.name == "class sub-accounts")
    assert check.ok and check.input == check.book
    # the proof compared QuickBooks' own accounts: no row for a class sub-account
    assert not [r for r in outcome.report.rows if r.account.endswith(CLASSES)]
    nested = balances["Rent:Landscaping:Residential"]
    assert balances["Rent:Landscaping"].full_name == nested.full_name.rpartition(":")[0]


def test_the_pnl_by_class_adds_up_to_the_pnl_every_year_and_is_the_truth(book) -> None:
    company, mode, outcome, _back = book
    proof = outcome.report.classes
    if mode == "none":
        assert proof is None
        return
    truth = pnl_by_class(company)
    assert proof.ok and proof.classes == CLASSES
    assert [y.start for y in proof.years] == sorted(truth)
    for y in proof.years:
        assert y.end == dt.date(y.start.year, 12, 31)
        rows = {r.account: r for r in y.rows}
        for account, per in truth[y.start].items():
            r = rows[account]
            sign = -1 if r.family == "income" else 1
            want = tuple(sign * per.get(c, ZERO) for c in (*CLASSES, ""))
            assert r.amounts == want, (y.start, account)
            assert r.total == r.book  # the columns add up to the book's P&L
        net = y.net(len(proof.columns))
        assert sum(net[:-2], ZERO) == net[-2] == net[-1]
    text = proof.to_csv()
    rows = list(csv.reader(io.StringIO(text)))
    assert rows[0][4:9] == [*CLASSES, "unclassed", "total"]
    assert sum(1 for r in rows if r[2] == "Net income") == 4


def test_a_line_in_another_class_is_never_called_matching(accounts_book) -> None:
    """The book with two class sub-accounts' figures swapped (each account's total unchanged):
    the folded per-account proof alone would match; the sub-account check and the P&L by class
    must not."""
    _company, _mode, outcome, _back = accounts_book
    snap = outcome.snapshot
    by = {b.full_name: b for b in snap.accounts}
    a, b = by["Rent:Design"], by["Rent:Landscaping"]
    assert a.balance != b.balance
    swapped = tuple(
        replace(x, balance=b.balance, daily=b.daily)
        if x is a
        else replace(x, balance=a.balance, daily=a.daily)
        if x is b
        else x
        for x in snap.accounts
    )
    wrong = replace(snap, accounts=swapped)
    meant, held, detail = classes_stage.sub_account_check(outcome.written, wrong)
    assert held == meant - 2 and "Rent:Design" in detail
    for update, said in ((False, "please report this"), (True, "moved in GnuCash since")):
        proven = classes_proof.verified(outcome.written, wrong, Cutover(), update=update)
        check = next(c for c in proven.checks if c.name == "class sub-accounts")
        assert not check.ok and check.again is not update  # with why, and what to do
        assert check.cause.startswith("lines in another class's sub-account"), check
        assert said in check.cause
    folds = classes_stage.folds(outcome.written)
    folded = classes_stage.folded_snapshot(wrong, folds)
    right = classes_stage.folded_snapshot(snap, folds)
    assert {x.full_name: x.balance for x in folded.accounts} == {
        x.full_name: x.balance for x in right.accounts
    }  # folded, the swap is invisible per QuickBooks account: hence the sub-account check
    # and a book whose P&L lacks a line is a difference in the P&L by class
    less = replace(
        right,
        accounts=tuple(
            replace(x, daily=x.daily[1:]) if x.full_name == "Rent" else x for x in right.accounts
        ),
    )
    assert not classes_pnl.proof(outcome.written, less, folds).ok


def test_the_plan_and_names() -> None:
    assert Plan().classes == "memo"
    assert plan_from_json('{"classes": "accounts"}').classes == "accounts"
    with pytest.raises(Exception, match="classes must be accounts, memo or none \\(got "):
        plan_from_json('{"classes": "columns"}')
    assert class_name(" Landscaping : Residential ") == "Landscaping:Residential"
    assert memo_with("East", "Rent") == "[East] Rent" and memo_with("East", "") == "[East]"
    chart = {"Rent", "Rent:East"}  # a real sub-account already named like the class
    assert classes_stage.sub_account_name("Rent", "East:North", chart) == "Rent:East (class):North"
    assert classes_stage.sub_account_name("Rent", "West", chart) == "Rent:West"
    assert SLOT == "qb-class"


def test_a_split_history_in_accounts_mode_proves_its_archive(company_files, tmp_path) -> None:
    """Classes as sub-accounts and the history split at a fiscal year start: the archive's own
    figures count each class sub-account's lines in its account, as the proof folds the book
    (they were its account's unclassed lines alone: 23 accounts "differed", a missing
    transaction blamed); both books reopened: the archive's accounts, folded, are the history's
    before the day."""
    company, _folder, files = company_files
    day = company.year_ends()[-1] + dt.timedelta(days=1)
    work, old = tmp_path / "work.gnucash", tmp_path / "archive.gnucash"
    run = convert(
        files["lists"], files["transaction_detail"], "-o", work, "--archive", old,
        "--split-at", day, "--classes", "accounts", "--strict",
    )  # fmt: skip
    assert run.returncode == 0, run.stdout + run.stderr
    assert "differ" not in run.stdout.split("Archive verification:")[1].split("\n")[1]
    book = gnc.read_book(old)
    folded: dict[str, Decimal] = {}
    for a in book.accounts:  # a class sub-account's description: "QuickBooks class NAME"
        klass = a.description.removeprefix("QuickBooks class ")
        name = a.full_name
        if klass != a.description:
            name = ":".join(name.split(":")[: -(klass.count(":") + 1)])
        folded[name] = folded.get(name, ZERO) + a.balance
    want: dict[str, Decimal] = {}
    for t in company.transactions:
        if t.date < day:
            for account, amount, _memo, _clr in t.splits:
                want[account] = want.get(account, ZERO) + amount
    assert {k: v for k, v in folded.items() if v} == {k: v for k, v in want.items() if v}


def test_the_command_line_option_and_its_reports(company_files, tmp_path: Path) -> None:
    _company, _folder, files = company_files
    out = tmp_path / "book.gnucash"
    report = tmp_path / "report.csv"
    run = convert(
        files["lists"], files["transaction_detail"], "-o", out, "--classes", "accounts",
        "--report", report,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    assert "class sub-accounts" in run.stdout
    assert "P&L by class written to" in run.stdout
    table = (tmp_path / "report.classes.csv").read_text(encoding="utf-8")
    assert table.startswith("fiscal year start,fiscal year end,account,type,Design,")
    page = html.unescape((tmp_path / "report.classes.html").read_text(encoding="utf-8"))
    assert "adds up to the book's P&L in every fiscal year" in page
    assert "<title>P&L by class: book.gnucash</title>" in page
    assert page.count('<section class="year"') == 4
    bad = convert(files["lists"], "-o", tmp_path / "x.gnucash", "--classes", "columns")
    assert bad.returncode == 2 and "--classes" in bad.stderr


def _read(tmp_path: Path, name: str, text: str, plan: Plan | None = None):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return pipeline.read([path], plan or Plan())


def test_the_class_list_is_read_with_its_lines_not_listed_as_not_imported(tmp_path: Path) -> None:
    ledger = _read(
        tmp_path,
        "lists.iif",
        "!CLASS\tNAME\tHIDDEN\nCLASS\tEast\tN\nCLASS\t East : North \tY\nCLASS\tEast\tN\n",
    )
    assert [(c.name, c.hidden, str(c.source)) for c in ledger.classes] == [
        ("East", False, "lists.iif:2"),
        ("East:North", True, "lists.iif:3"),
    ]
    assert ledger.not_imported == ()
    assert [str(p) for p in ledger.problems] == [
        "lists.iif:4: class “East” is listed twice (first at line 2); the first is kept"
    ]


def test_a_csv_class_column_is_read_where_it_is_and_never_required(tmp_path: Path) -> None:
    head = "Trans #,Type,Date,Account,Class,Debit,Credit\n"
    rows = "1,Check,01/02/2024,Rent,West : Shop,10.00,\n1,Check,01/02/2024,Checking,,,10.00\n"
    ledger = _read(tmp_path, "detail.csv", head + rows)
    assert [s.klass for s in ledger.transactions[0].splits] == ["West:Shop", ""]
    assert [c.name for c in ledger.classes] == ["West:Shop"]  # used, though no list has it
    plain = _read(
        tmp_path,
        "plain.csv",
        head.replace("Class,", "") + rows.replace("West : Shop,", "").replace(",,,", ",,"),
    )
    assert [s.klass for s in plain.transactions[0].splits] == ["", ""]
    mapped = {"date": "When", "account": "Acct", "amount": "Amt", "class": "Dept"}
    plan = replace(Plan(), files={"hand.csv": FileOptions(columns=mapped)})
    hand = _read(tmp_path, "hand.csv", "When,Acct,Amt,Dept\n01/02/2024,Rent,5.00,East\n"
                 "01/02/2024,Checking,-5.00,\n", plan)  # fmt: skip
    assert [s.klass for s in hand.transactions[0].splits] == ["East", ""]


def test_a_class_the_lines_use_that_the_list_lacks_is_warned_at_its_first_line(
    company_files, tmp_path: Path
) -> None:
    """A class renamed in QuickBooks between the lists export and the report's: the lines'
    name is carried (the book has both), and said once at its first line with the list's."""
    company, _folder, _files = company_files
    lists = company.write_lists_iif(tmp_path / "lists.iif")
    detail = company.write_transaction_detail_csv(tmp_path / "detail.csv")
    text = detail.read_text(encoding="utf-8")
    assert text.count(",Design,") > 1
    detail.write_text(text.replace(",Design,", ",Design Studio,"), encoding="utf-8")
    first = next(n for n, line in enumerate(text.splitlines(), 1) if ",Design," in line)
    ledger = pipeline.read([lists, detail], Plan())
    said = [str(p) for p in ledger.problems if "class list" in p.message]
    assert said == [
        f"detail.csv:{first}: class “Design Studio” is on this line but not in the class list "
        "of lists.iif (3: Design, Landscaping, Landscaping:Residential): renamed or added in "
        "QuickBooks between the two exports? The book carries it as the lines name it; export "
        "the lists and the transactions again on the same day to have them agree"
    ]
    assert "Design Studio" in [c.name for c in ledger.classes]
    alone = pipeline.read([detail], Plan())  # no list given: nothing to disagree with
    assert not [p for p in alone.problems if "class list" in p.message]


def test_a_class_the_list_implies_is_not_warned_one_in_other_letters_is(tmp_path) -> None:
    """A listed sub-class implies its parent: not "not in the class list". The same class in
    other letters (one class to QuickBooks) would be two in the book: said so."""
    lists = tmp_path / "lists.iif"
    lists.write_text("!CLASS\tNAME\tHIDDEN\nCLASS\tEast:North\tN\n", encoding="utf-8")
    detail = tmp_path / "detail.csv"
    detail.write_text(
        "Trans #,Type,Date,Account,Class,Debit,Credit\n"
        "1,Check,01/02/2024,Rent,East,10.00,\n1,Check,01/02/2024,Checking,EAST : north,,10.00\n"
        "2,Check,01/03/2024,Rent,West,5.00,\n2,Check,01/03/2024,Checking,,,5.00\n",
        encoding="utf-8",
    )
    ledger = pipeline.read([lists, detail], Plan())
    assert [str(p) for p in ledger.problems if "class list" in p.message] == [
        "detail.csv:3: class “EAST:north” is “East:North” in the class list of lists.iif, in "
        "other letters: the book would carry the two spellings as two classes; export the lists "
        "and the transactions again on the same day, or spell them alike",
        "detail.csv:4: class “West” is on this line but not in the class list of lists.iif (1: "
        "East:North): renamed or added in QuickBooks between the two exports? The book carries "
        "it as the lines name it; export the lists and the transactions again on the same day "
        "to have them agree",
    ]
    assert [c.name for c in ledger.classes] == ["East:North", "East", "EAST:north", "West"]


@pytest.mark.samples
def test_the_real_samples_classes(samples_dir: Path) -> None:
    lists = samples_dir / "Pewejekubam__qbd-to-gnucash__qbd-all-lists-sample.IIF"
    ledger = pipeline.read([lists], Plan())
    assert [c.name for c in ledger.classes] == ["Design", "Landscaping", "Maintenance", "Overhead"]
    assert not [n for n in ledger.not_imported if n.what == "Classes"]
    deposits = samples_dir / "minimul__iif-parser__quoted-amounts.iif"  # a CLASS column, empty
    read = pipeline.read([deposits], Plan())
    assert read.transactions and not any(s.klass for t in read.transactions for s in t.splits)

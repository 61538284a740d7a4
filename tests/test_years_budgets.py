"""Issue 26 (but classes): budgets, a proof for every year, the last reconciliations and the
memorized transactions, through the real pipeline into books in XML and SQLite, each book
reopened with the engine and compared with the generator's truth; GnuCash's own Budget Report
run on the book; bad input refused with its file and line."""

from __future__ import annotations

import csv
import datetime as dt
import html
import os
import re
import subprocess
from dataclasses import replace
from decimal import Decimal
from pathlib import Path

import pytest

from app import gnc, pipeline, readers
from app.extras import budget_name
from app.plan import Plan
from tests.support.cli import convert
from tests.support.companygen import make_company

D = Decimal
EXPORTED = dt.date(2023, 3, 31)
CARD = "CalOil Card"


def _company(**kw):
    return make_company(600, seed=4, years=4, exported=EXPORTED, budgets=True, memorized=True, **kw)


@pytest.fixture(scope="module")
def company_files(tmp_path_factory):
    """A company over four fiscal years (2019-2022) with budgets and memorized transactions,
    its lists exported on 2023-03-31, a Trial Balance report for every year end, the
    reconciliation of its checking account and credit card, its memorized transaction list."""
    company = _company()
    folder = tmp_path_factory.mktemp("years")
    files = company.write_all(folder)
    ends = company.year_ends()
    assert ends == [dt.date(y, 12, 31) for y in (2019, 2020, 2021, 2022)]
    tbs = [company.write_trial_balance_csv(folder / f"tb-{d}.csv", as_of=d) for d in ends]
    statements = [company.statement("Checking"), company.statement(CARD)]
    recs = company.write_reconciliation_csv(folder / "reconciliation.csv", statements)
    memorized = company.write_memorized_csv(folder / "memorized.csv")
    paths = [files["lists"], files["transaction_detail"], *tbs, recs, memorized]
    return company, folder, paths, statements


def _write(paths, out: Path, fmt: str) -> pipeline.Outcome:
    plan = replace(Plan(), format=fmt)
    prepared = pipeline.prepare(pipeline.read(paths, plan), plan)
    assert not prepared.errors, prepared.errors
    return pipeline.write(prepared, out, plan)


@pytest.fixture(scope="module", params=["xml", "sqlite"])
def book(request, company_files):
    company, folder, paths, statements = company_files
    out = folder / f"book-{request.param}.gnucash"
    outcome = _write(paths, out, request.param)
    return company, out, outcome, statements


def test_every_year_end_matches_and_is_said_once(book) -> None:
    company, _out, outcome, _s = book
    report = outcome.report
    assert report.ok, report.summary_lines()
    years = report.extras.years
    assert [y.date for y in years] == company.year_ends()
    for y in years:
        truth = company.trial_balance(y.date)
        assert y.compared and y.ok
        got = {r.account: (r.quickbooks, r.gnucash) for r in y.rows}
        for account, value in truth.items():
            if account != "Estimates":  # non-posting: not an account of the book
                assert got[account] == (value, value), (y.date, account)
    line = report.extras.lines()[0]
    assert line.startswith("Every year end from 2019 to 2022 matches QuickBooks' trial balance")
    assert sum("year end" in x.lower() for x in report.summary_lines()) == 1


def test_budgets_are_in_the_book_as_quickbooks_has_them(book) -> None:
    company, out, outcome, _s = book
    back = gnc.read_book(out)  # the engine reopened
    found = {b.name: b for b in back.budgets}
    names = {budget_name(b.start, b.klass, b.customer) for b in company.budgets}
    assert set(found) == names and len(names) >= 4
    assert "Budget FY2019 (class Design)" in names
    assert "Budget FY2019 (customer Cook, Brian:Kitchen)" in names
    for b in company.budgets:
        got = found[budget_name(b.start, b.klass, b.customer)]
        assert (got.start, got.periods, got.period, got.natural_signs) == (
            b.start,
            12,
            ("month", 1),
            True,
        )
        values = dict(got.values).get(b.account, (D(0),) * 12)
        assert values == b.amounts, (got.name, b.account)
    assert outcome.stats.budgets == len(names)
    assert not [n for n in outcome.written.not_imported if n.what == "Budgets"]
    assert f"Budgets: {len(names)} budgets" in " ".join(outcome.report.summary_lines())


def test_reconcile_dates_and_balances_are_quickbooks_statements(book) -> None:
    _company, out, outcome, statements = book
    back = {r.account: r for r in gnc.read_book(out).reconciled}
    assert set(back) == {"Checking", CARD}
    for s in statements:
        assert (back[s.account].last_date, back[s.account].balance) == (s.date, s.balance)
    assert statements[0].uncleared > 0  # marks prove it, with uncleared lines up to its date
    assert outcome.stats.reconciled == 2


def test_memorized_transactions_become_disabled_schedules(book) -> None:
    company, out, outcome, _s = book
    back = {s.name: s for s in gnc.read_book(out).schedules}
    meant = {m.name: m for m in company.memorized if m.lines}
    assert set(back) == set(meant) == {"Monthly rent", "Loan payment"}
    for name, m in meant.items():
        got = back[name]
        assert not got.enabled and not got.auto_create  # nothing posts by itself
        assert (got.start, got.period) == (m.next_date, m.periods)
        assert dict(got.lines) == m.lines
        assert got.occurrences == (m.remaining or 0)
    left = {n.name: n.reason for n in outcome.written.not_imported if "Memorized" in n.what}
    assert set(left) == {"Month end", "Office cleaning", "Payroll taxes", "Insurance premium"}
    assert "no amount" in left["Office cleaning"]
    assert "twice a month" in left["Payroll taxes"]
    assert "no Check of 612.00 on Checking in the history" in left["Insurance premium"]


def test_gnucash_budget_report_runs_on_the_book(book, tmp_path) -> None:
    company, out, _outcome, _s = book
    page = tmp_path / "budget.html"
    subprocess.run(
        [
            "gnucash-cli",
            "--report",
            "run",
            "--name",
            "Budget Report",
            "--output-file",
            str(page),
            str(out),
        ],
        check=True,
        capture_output=True,
        env={**os.environ, "HOME": str(tmp_path)},
        timeout=300,
    )
    text = re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", page.read_text())))
    latest = max(b.start for b in company.budgets if not b.klass and not b.customer)
    assert f"Budget Report: {budget_name(latest)}" in text  # the book's default budget
    rent = next(b for b in company.budgets if b.start == latest and b.account == "Rent")
    shown = [f"${v:,.2f}" for v in rent.amounts if v]
    row = text[text.index(" Rent ") :][:400]
    assert all(v in row for v in shown[:3]), (row, shown)
    income = next(b for b in company.budgets if b.start == latest and b.account == "Retail Sales")
    first = next(v for v in income.amounts if v)
    assert f"${-first:,.2f}" in text  # an income budget shows positive, as in QuickBooks


def test_a_difference_is_pinned_to_its_fiscal_year(tmp_path) -> None:
    """A transaction of 2021 missing from the history: 2019 and 2020 match, 2021 is the first
    year end that differs, so the difference starts in fiscal 2021; the CLI says it last."""
    company = make_company(400, seed=9, years=4, exported=EXPORTED)
    lists = company.write_lists_iif(tmp_path / "lists.iif")
    ends = company.year_ends()
    tbs = [company.write_trial_balance_csv(tmp_path / f"tb-{d}.csv", as_of=d) for d in ends]
    lost = next(t for t in company.transactions if t.date.year == 2021 and t.type == "Check")
    company.transactions.remove(lost)
    history = company.write_journal_csv(tmp_path / "journal.csv")
    run = convert(
        lists, history, *tbs, "-o", tmp_path / "book.gnucash", "--report", tmp_path / "r.csv"
    )
    assert run.returncode == 0, run.stderr
    out = run.stdout
    assert "The year end 2021-12-31 is the first that differs from QuickBooks' trial balance" in out
    assert (
        "2019-12-31, 2020-12-31 match: the difference starts in the fiscal year from 2021-01-01"
        in out
    )
    assert "The year end 2022-12-31 differs too" in out
    verification = out.split("Book written")[0]  # (said once there; the last lines repeat it)
    assert verification.count("The year end 2021-12-31 is the first that differs") == 1
    # why: the files make the book's figures, not QuickBooks' (a transaction missing from them)
    assert (
        "Probable cause: the files' transactions make the book's figure, not QuickBooks': "
        "QuickBooks counts on 2021-12-31 what the files do not hold"
    ) in out
    tail = out.strip().splitlines()
    assert (
        "the year end 2021-12-31 differs from QuickBooks' trial balance"
        in out.split("Book written")[1]
    )
    assert any("Checking" in line for line in tail[-40:])
    # the verdict names the year end, not "1 other check differs" (the other checks all match)
    (written,) = [line for line in out.splitlines() if line.startswith("Book written")]
    assert "; the year end 2021-12-31 differs from QuickBooks' trial balance" in written, written
    assert written.count("the year end 2021-12-31 differs") == 1, written  # (it was said twice)
    assert "other check" not in written
    table = (tmp_path / "r.years.csv").read_text().splitlines()
    assert table[0].startswith("account,2019-12-31 quickbooks,2019-12-31 gnucash")
    checking = next(r for r in table if r.startswith("Checking,"))
    cells = checking.split(",")
    assert cells[3] == "0.00" and cells[6] == "0.00" and cells[9] != "0.00"  # 2019, 2020; 2021


def test_a_book_that_lost_a_transaction_is_the_cause_of_its_year_end(company_files) -> None:
    """The book damaged after it was written, in 2020: the files still make QuickBooks' figures
    on 2020-12-31, so the year end's probable cause is the book, not the files."""
    from app.plan import Cutover
    from app.verify import verify
    from tests.support.gnucash_edits import damage

    _company, folder, paths, _s = company_files
    out = folder / "damaged.gnucash"
    outcome = _write(paths, out, "xml")
    assert outcome.report.ok
    damage(out, "Checking", 1234, before=dt.date(2020, 1, 1))  # (a line of 2019)
    report = verify(outcome.written, gnc.read_book(out), Cutover())
    line = report.extras.year_lines()[0]
    assert line.startswith("The year end 2019-12-31 is the first that differs"), line
    assert report.summary_lines().count(line) == 1  # (it was listed twice: difference, part)
    assert line.endswith(
        "Probable cause: the book's transactions differ from the files' (please report this)."
    ), line


def test_without_year_end_reports_the_proof_says_its_one_date(tmp_path) -> None:
    company = make_company(120, seed=2, years=2)
    files = company.write_all(tmp_path)
    outcome = _write([files["lists"], files["journal"]], tmp_path / "b.gnucash", "xml")
    lines = outcome.report.summary_lines()
    said = [x for x in lines if x.startswith("Proved on one date only")]
    assert len(said) == 1 and str(company.export_date) in said[0]
    assert outcome.report.ok


def test_journal_history_reconciled_only_where_provable(tmp_path) -> None:
    """A Journal has no cleared marks: the statement that left nothing uncleared marks every
    line up to its date reconciled (and is proven); one that left lines uncleared marks
    nothing and is listed as not imported, with why."""
    company = make_company(300, seed=5, years=2)
    files = company.write_all(tmp_path)
    provable = company.statement("Checking", all_cleared=True)
    assert provable.uncleared == 0
    # a statement that left two lines uncleared, which a Journal cannot tell apart
    savings = company.statement("Savings")
    unprovable = replace(savings, uncleared=2, uncleared_amounts=[D("25.00"), D("-40.00")])
    recs = company.write_reconciliation_csv(tmp_path / "rec.csv", [provable, unprovable])
    outcome = _write([files["lists"], files["journal"], recs], tmp_path / "b.gnucash", "xml")
    assert outcome.report.ok, outcome.report.summary_lines()
    back = {r.account: r for r in outcome.snapshot.reconciled}
    assert set(back) == {"Checking"}
    assert (back["Checking"].last_date, back["Checking"].balance) == (
        provable.date,
        provable.balance,
    )
    marked = sum(
        1
        for t in outcome.written.transactions
        for s in t.splits
        if s.account == "Checking" and s.reconcile.value == "y"
    )
    lines = sum(
        1
        for t in company.transactions
        for s in t.splits
        if s[0] == "Checking" and t.date <= provable.date and not t.memo.startswith("VOID")
    )  # (a voided check stays voided)
    assert marked == lines
    (left,) = [n for n in outcome.written.not_imported if n.what == "Reconciliations"]
    assert left.name.startswith("Savings") and "uncleared" in left.reason


def test_a_reconciliation_the_marks_contradict_is_a_difference(tmp_path) -> None:
    company = make_company(300, seed=5, years=2)
    files = company.write_all(tmp_path)
    truth = company.statement("Checking")
    wrong = replace(truth, balance=truth.balance + D("10.00"))
    recs = company.write_reconciliation_csv(tmp_path / "rec.csv", [wrong])
    history = files["transaction_detail"]
    outcome = _write([files["lists"], history, recs], tmp_path / "b.gnucash", "xml")
    assert not outcome.report.ok
    assert "a reconciliation differs" in outcome.report.headline()
    assert not outcome.snapshot.reconciled  # no reconcile date the statement does not prove


def test_a_budget_the_engine_cannot_write_is_listed_and_the_book_written(
    tmp_path, monkeypatch
) -> None:
    """The guard: an engine without ``gnc_budget_new`` (made to say so) gets no budget; the
    book is still written and proven, the budgets listed as not imported with why."""
    from app.gnc import bindings
    from app.gnc.calls import calls

    c = calls(bindings.engine())
    monkeypatch.setattr(c, "missing", (*c.missing, "gnc_budget_new"))
    company = make_company(200, seed=3, years=2, budgets=True)
    files = company.write_all(tmp_path)
    outcome = _write([files["lists"], files["journal"]], tmp_path / "b.gnucash", "xml")
    assert (tmp_path / "b.gnucash").is_file()
    assert outcome.stats.budgets == 0
    left = [n for n in outcome.written.not_imported if n.what == "Budgets"]
    assert left and all("does not export gnc_budget_new" in n.reason for n in left)
    assert outcome.report.ok


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ("\tMONTH\t", "PERIOD “QUARTER”, where QuickBooks budgets are monthly"),
        ("2021-01-01", "no start date (STARTDATE)"),
        ("Rent\t", "budget of account “Rent Hall”, which is not in the chart of accounts"),
    ],
)
def test_a_bad_budget_row_stops_the_run_at_its_line(tmp_path, change, message) -> None:
    company = make_company(120, seed=3, years=2, budgets=True)
    files = company.write_all(tmp_path)
    text = files["lists"].read_bytes().decode("utf-8")
    at = next(i for i, line in enumerate(text.split("\r\n"), 1) if line.startswith("BUD\tRent\t"))
    lines = text.split("\r\n")
    new = {
        "\tMONTH\t": lines[at - 1].replace("\tMONTH\t", "\tQUARTER\t"),
        "2021-01-01": re.sub(r"\d{4}-\d\d-\d\d", "", lines[at - 1]),
        "Rent\t": lines[at - 1].replace("BUD\tRent\t", "BUD\tRent Hall\t"),
    }[change]
    lines[at - 1] = new
    files["lists"].write_text("\r\n".join(lines), encoding="utf-8")
    out = tmp_path / "b.gnucash"
    run = convert(files["lists"], files["journal"], "-o", out)
    assert run.returncode == 1
    assert f"lists.iif:{at}: " in run.stderr and message in run.stderr
    assert "Traceback" not in run.stderr + run.stdout
    assert not out.exists()


def test_bad_reports_are_refused_at_their_line(tmp_path) -> None:
    company = make_company(200, seed=5, years=2, memorized=True)
    files = company.write_all(tmp_path)
    recs = company.write_reconciliation_csv(tmp_path / "rec.csv", [company.statement("Checking")])
    text = recs.read_text(encoding="utf-8").splitlines()
    at = next(i for i, line in enumerate(text, 1) if line.startswith("Cleared Balance"))
    text[at - 1] = "Cleared Balance,,,,1.00"
    recs.write_text("\r\n".join(text) + "\r\n", encoding="utf-8")
    mem = company.write_memorized_csv(tmp_path / "mem.csv")
    rows = mem.read_text(encoding="utf-8").splitlines()
    rows[2] = re.sub(r"\d\d/\d\d/\d{4}", "13/45/2023", rows[2])
    mem.write_text("\r\n".join(rows) + "\r\n", encoding="utf-8")
    out = tmp_path / "b.gnucash"
    run = convert(files["lists"], files["journal"], recs, mem, "-o", out)
    assert run.returncode == 1
    assert f"rec.csv:{at}: “Checking”: Beginning Balance" in run.stderr.replace("1000 · ", "")
    assert "mem.csv:3: “Monthly rent”: the next date “13/45/2023” is not a date" in run.stderr
    assert "Traceback" not in run.stderr + run.stdout and not out.exists()


def test_the_reports_are_recognised_by_their_content(company_files) -> None:
    _company, _folder, paths, _s = company_files
    from app.model import ReadOptions

    kinds = {p.name: readers.identify(p, ReadOptions()).__name__.rsplit(".", 1)[-1] for p in paths}
    assert kinds["reconciliation.csv"] == "reconciliation"
    assert kinds["memorized.csv"] == "memorized"
    assert {kinds[n] for n in kinds if n.startswith("tb-")} == {"trial_balance"}
    merged = readers.read(paths, Plan())
    assert [y.date for y in merged.year_ends] == [dt.date(y, 12, 31) for y in range(2019, 2023)]
    proofs = [f for f in merged.files if f.layout == "year end"]
    assert len(proofs) == 4  # the lists' figures (exported later) stay the book's


def test_the_real_samples_budgets_are_proven(samples_dir, tmp_path) -> None:
    """QuickBooks Enterprise's own BUD rows (by class, several fiscal years, empty months)."""
    sample = samples_dir / "Pewejekubam__qbd-to-gnucash__qbd-all-lists-sample.IIF"
    plan = Plan()
    plan = replace(plan, cutover=replace(plan.cutover, mode="balances_only", date="2026-12-15"))
    prepared = pipeline.prepare(pipeline.read([sample], plan), plan)
    outcome = pipeline.write(prepared, tmp_path / "s.gnucash", plan)
    assert outcome.report.ok, outcome.report.summary_lines()
    names = [b.name for b in outcome.snapshot.budgets]
    assert names == [
        "Budget FY2021 (class Landscaping)",
        "Budget FY2022 (class Design)",
        "Budget FY2022 (class Landscaping)",
        "Budget FY2026",
    ]
    design = dict(next(b for b in outcome.snapshot.budgets if "Design" in b.name).values)
    assert design["Landscaping Services:Design Services"][:9] == (D("-4000.00"),) * 9
    assert outcome.report.extras.budget_amounts > 400


def test_a_trial_balance_of_another_day_is_not_called_a_year_end() -> None:
    """Year-end reports and the export's own Trial Balance: "every report date", not "every
    year end" (2020-12-28 closes no fiscal year)."""
    from app.extras_proof import ExtrasProof, YearProof, YearRow

    row = (YearRow("Checking", D("1.00"), D("1.00")),)
    ends = YearProof(dt.date(2019, 12, 31), dt.date(2019, 1, 1), row, "tb-2019.csv")
    export = YearProof(dt.date(2020, 12, 28), dt.date(2020, 1, 1), row, "tb.csv")
    assert ends.year_end and not export.year_end
    said = ExtrasProof(years=(ends, export)).year_lines()[0]
    assert said.startswith("Every report date from 2019 to 2020 matches QuickBooks' trial balance")
    said = ExtrasProof(years=(ends,)).year_lines()[0]
    assert said.startswith("The year end 2019-12-31 matches QuickBooks' trial balance")
    off = (YearRow("Checking", D("1.00"), D("2.00"), D("2.00")),)
    said = ExtrasProof(years=(ends, replace(export, rows=off))).year_lines()[0]
    assert said.startswith("The report date 2020-12-28 is the first that differs"), said
    # QuickBooks' figures fit another fiscal year start: every year is cut wrong, said so
    said = ExtrasProof(years=(ends, replace(export, rows=off)), fiscal="1 July").year_lines()[0]
    assert said.endswith(
        "Probable cause: the fiscal year start: QuickBooks' figures fit a fiscal year starting "
        "1 July."
    ), said


def test_two_trial_balances_of_one_date_that_disagree_are_refused(company_files, tmp_path) -> None:
    """Two Trial Balance reports of one date: the same figures, the second is not used (said);
    different figures (a report re-exported after a change), an error at its line, in either
    order (the first given used to win, and the book was called matching)."""
    company, folder, paths, _s = company_files
    end = company.year_ends()[1]
    first = folder / f"tb-{end}.csv"
    same = tmp_path / "tb-again.csv"
    same.write_bytes(first.read_bytes())
    plan = Plan()
    prepared = pipeline.prepare(pipeline.read([*paths, same], plan), plan)
    assert not prepared.errors, prepared.errors
    said = [str(w) for w in prepared.warnings if "a second trial balance" in str(w)]
    assert said == [
        f"tb-again.csv:3: a second trial balance as of {end}, the same as tb-{end}.csv: not used"
    ]
    text = first.read_text(encoding="utf-8")
    lines = text.splitlines()
    debits = [i for i, line in enumerate(lines) if re.fullmatch(r',[^,]*[^,"],"[\d,.]+",', line)]
    for i, delta in ((debits[-1], D(-100)), (debits[-2], D(100))):  # 100.00 moved, as balanced
        label, amount = lines[i].split(",", 2)[1], lines[i].split('"')[1]
        lines[i] = f',{label},"{D(amount.replace(",", "")) + delta:,.2f}",'
    other = tmp_path / "tb-other.csv"
    other.write_text("\n".join(lines) + "\n", encoding="utf-8")
    for order in ([*paths, other], [other, *paths]):
        prepared = pipeline.prepare(pipeline.read(order, plan), plan)
        errors = [str(e) for e in prepared.errors]
        assert (
            len(errors) == 1 and f"a second trial balance as of {end} that disagrees" in errors[0]
        )
        assert "on 2 accounts (" in errors[0], errors


def test_lists_and_a_trial_balance_of_one_day_that_disagree_are_refused(tmp_path) -> None:
    """The Trial Balance and the history exported in the morning, a check entered, the lists
    exported in the afternoon, all of one day: the two sets of figures disagree by the check,
    an error naming both files and the accounts (the report's were taken silently, the check
    missing from the book, "Matches": hunt 13). Exported together, no error."""
    company = make_company(200, seed=4, years=2)
    day = company.export_date
    tb = company.write_trial_balance_csv(tmp_path / "tb.csv")
    history = company.write_transaction_detail_csv(tmp_path / "td.csv")
    together = company.write_lists_iif(tmp_path / "together.iif")
    plan = Plan()
    prepared = pipeline.prepare(pipeline.read([together, history, tb], plan), plan)
    assert not prepared.errors, prepared.errors
    check = next(t for t in company.transactions if t.type == "Check" and t.splits[0][1])
    late = replace(check, trans_no=max(t.trans_no for t in company.transactions) + 1, date=day)
    company.transactions.append(late)
    lists = company.write_lists_iif(tmp_path / "lists.iif")
    prepared = pipeline.prepare(pipeline.read([lists, history, tb], plan), plan)
    errors = [str(e) for e in prepared.errors]
    assert len(errors) == 1, errors
    bank = next(a for a, v, _m, _c in late.splits if v < 0)
    assert errors[0].startswith(
        f"lists.iif:2: lists.iif and tb.csv are both QuickBooks' figures of {day} but disagree on "
        "2 accounts ("
    ), errors
    assert f"{bank}: the lists " in errors[0] and "give only one of them" in errors[0]


def test_a_trial_balance_exported_collapsed_is_said_not_refused(tmp_path) -> None:
    """The lists and their Trial Balance of the same day exported collapsed (each top account's
    total, its subaccounts not listed): no error (the two agree once the subaccounts are added
    up; it was refused as "exported after a change": hunt 14), a warning saying how to export
    it instead."""
    company = make_company(120, seed=4)
    lists = company.write_lists_iif(tmp_path / "lists.iif")
    text = company.write_trial_balance_csv(tmp_path / "tb.csv").read_text(encoding="utf-8")
    rows = list(csv.reader(text.splitlines()))

    def value(r: list[str]) -> Decimal:
        return D((r[2] or "0").replace(",", "")) - D((r[3] or "0").replace(",", ""))

    totals: dict[str, Decimal] = {}
    for r in rows[4:-1]:
        top = r[1].split(":")[0]
        totals[top] = totals.get(top, D(0)) + value(r)
    body = [["", t, f"{v:,.2f}" if v > 0 else "", f"{-v:,.2f}" if v < 0 else ""]
            for t, v in totals.items() if v]  # fmt: skip
    debit = sum((v for v in totals.values() if v > 0), D(0))
    total = [*rows[-1][:2], f"{debit:,.2f}", f"{debit:,.2f}"]  # (it balances)
    collapsed = tmp_path / "collapsed.csv"
    with collapsed.open("w", newline="") as f:
        csv.writer(f).writerows([*rows[:4], *body, total])
    plan = Plan()
    prepared = pipeline.prepare(pipeline.read([lists, collapsed], plan), plan)
    assert not prepared.errors, prepared.errors
    said = [str(w) for w in prepared.warnings if "as a report exported collapsed does" in str(w)]
    assert len(said) == 1 and said[0].startswith("collapsed.csv:"), prepared.warnings
    assert "collapsed.csv gives 6 accounts the total of subaccounts it does not list (" in said[0]


def test_lists_without_their_export_date_keep_their_figures_over_earlier_year_ends(
    tmp_path,
) -> None:
    """The lists exported without their HDR row (no export date) with a Trial Balance for each
    fiscal year end before the history's last: the latest report took the place of the lists'
    figures, so the year after it was never compared, and a check of that year changed by 500.00
    on both lines was called matching (exit 0 with --strict). The lists' figures stay the book's;
    the reports prove their dates."""
    company = make_company(300, 7, years=3, hdr=False)
    ends = company.year_ends()
    last = max(t.date for t in company.transactions)
    assert ends and max(ends) < last
    lists = company.write_lists_iif(tmp_path / "lists.iif")
    tbs = [company.write_trial_balance_csv(tmp_path / f"tb-{d}.csv", as_of=d) for d in ends]
    journal = company.write_journal_csv(tmp_path / "journal.csv")
    clean = convert(lists, journal, *tbs, "-o", tmp_path / "clean.gnucash", "--strict")
    assert clean.returncode == 0, clean.stdout + clean.stderr
    assert "matches QuickBooks' trial balance to the cent" in clean.stdout
    check = next(
        t
        for t in company.transactions
        if t.date > max(ends) and t.type == "Check" and len(t.splits) == 2 and t.splits[0][1]
    )
    changed = [(a, v + (500 if v > 0 else -500), m, c) for a, v, m, c in check.splits]
    txns = [replace(t, splits=changed) if t is check else t for t in company.transactions]
    edited = replace(company, transactions=txns).write_journal_csv(tmp_path / "edited.csv")
    run = convert(lists, edited, *tbs, "-o", tmp_path / "book.gnucash", "--strict")
    assert run.returncode == 3, run.stdout + run.stderr
    assert "Needs your attention: 2 accounts differ" in run.stdout


def test_lists_without_their_export_date_and_the_trial_balance_of_that_day(tmp_path) -> None:
    """The lists without their HDR row and the Trial Balance of their own day, with 9
    transactions post-dated after it: the report's figures are the lists' (placed on the chart,
    equal), so it stays the export-date proof and the book matches, as it did before the rule
    for later lists (the test above) was added."""
    base = make_company(300, 7, years=3)
    export = base.transactions[-1].date - dt.timedelta(days=20)
    company = make_company(300, 7, years=3, exported=export, hdr=False)
    assert company.after_export
    lists = company.write_lists_iif(tmp_path / "lists.iif")
    tb = company.write_trial_balance_csv(tmp_path / "tb.csv", as_of=company.export_date)
    journal = company.write_journal_csv(tmp_path / "journal.csv")
    run = convert(lists, journal, tb, "-o", tmp_path / "book.gnucash", "--strict")
    assert run.returncode == 0, run.stdout + run.stderr
    assert "Matches QuickBooks to the cent" in run.stdout


def test_balances_only_folded_with_a_trial_balance_of_its_day_matches(tmp_path) -> None:
    """Only the balances, this year's income and expense folded into Retained Earnings, and
    QuickBooks' Trial Balance of the cutover day: the accounts matched and the same day's
    report was said to differ (exit 3 with --strict); it is compared folded, as the accounts."""
    company = make_company(300, seed=7, years=3)
    day = company.export_date
    lists = company.write_lists_iif(tmp_path / "lists.iif")
    journal = company.write_journal_csv(tmp_path / "journal.csv")
    tb = company.write_trial_balance_csv(tmp_path / "tb.csv", as_of=day)
    run = convert(
        lists, journal, tb, "-o", tmp_path / "book.gnucash", "--balances-only", day.isoformat(),
        "--ytd-to-retained", "--strict",
    )  # fmt: skip
    assert run.returncode == 0, run.stdout + run.stderr
    assert f"matches QuickBooks' trial balance to the cent (1 report: {day})" in run.stdout

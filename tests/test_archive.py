"""Archive and working book (``run.py convert ... --split-at DAY --archive ARCHIVE``, issue 28):
a generated company with documents and a fiscal year from July 1st, split at its last fiscal
year start; both books reopened through GnuCash and compared with the generator's truth: the
archive holds the history before the day, the working book opens with the books closed on the
day before (``companygen_years.closed``), the same open balances owner by owner, and the rest
of the history; GnuCash's own Trial Balance report runs on the working book."""

from __future__ import annotations

import csv
import datetime as dt
from decimal import Decimal as D

import pytest

from app import archive, gnc, pipeline
from app.errors import BookWriteError
from app.plan import Cutover, Plan
from tests.support.cli import convert
from tests.support.companygen import make_company
from tests.support.companygen_docs import owner_balances
from tests.support.companygen_years import closed
from tests.support.gnucash_reports import trial_balance

DAY = dt.date(2021, 7, 1)  # the start of the company's last fiscal year
LAST = DAY - dt.timedelta(days=1)
ZERO = D(0)


@pytest.fixture(scope="module")
def company(tmp_path_factory):
    company = make_company(900, seed=31, years=3, documents=True, fiscal_year_start=(7, 1))
    assert company.fiscal_year_begin() == DAY
    folder = tmp_path_factory.mktemp("split")
    files = [
        company.write_lists_iif(folder / "lists.iif"),
        company.write_transaction_detail_csv(folder / "detail.csv"),
        company.write_open_invoices_csv(folder / "open_invoices.csv"),
        company.write_unpaid_bills_csv(folder / "unpaid_bills.csv"),
    ]
    return company, files


def _sums(company, keep) -> dict[str, D]:
    out = {a[0]: ZERO for a in company.accounts}
    for t in company.transactions:
        if keep(t.date):
            for account, amount, _memo, _clr in t.splits:
                out[account] += amount
    return out


@pytest.fixture(scope="module", params=["xml", "sqlite"])
def split(company, tmp_path_factory, request):
    generated, files = company
    folder = tmp_path_factory.mktemp(f"split-{request.param}")
    work, old, report = folder / "work.gnucash", folder / "archive.gnucash", folder / "r.csv"
    run = convert(
        *files, "-o", work, "--archive", old, "--split-at", DAY, "--format", request.param,
        "--report", report, "--documents-report", folder / "documents.csv",
    )  # fmt: skip
    assert run.returncode == 0, run.stdout + run.stderr
    return generated, work, old, report, run.stdout.splitlines()


def test_the_archive_holds_the_history_before_the_day(split) -> None:
    generated, _work, old, _report, out = split
    book = gnc.read_book(old, documents=True)
    want = _sums(generated, lambda d: d < DAY)
    assert _nonzero({a.full_name: a.balance for a in book.accounts}) == _nonzero(want)
    assert book.last_date is not None and book.last_date < DAY
    # what it leaves open, owner by owner, is the truth on its last day
    assert book.documents is not None
    assert _nonzero(book.documents.owner_open) == owner_balances(generated, DAY)
    assert "Archive verification:" in out
    at = out.index("Archive verification:")
    # no QuickBooks figures of its last day were given: its own history's, never "QuickBooks'"
    assert out[at + 1].endswith(
        f"accounts equal the archive's history on {LAST}, to the cent: QuickBooks gave no "
        "figures of that day (its Trial Balance report as of that day would prove them)"
    )
    (once,) = [line for line in out[at:] if "Proved on one date only" in line][:1]
    assert once.strip().startswith("Proved on one date only: add")  # (not "QuickBooks' figures")
    (written,) = [line for line in out if line.startswith("Archive written to")]
    assert written.endswith(
        "Matches its history to the cent; QuickBooks gave no figures of its last day"
    )


def test_the_working_book_opens_with_the_books_closed(split) -> None:
    generated, work, _old, report, out = split
    book = gnc.read_book(work, documents=True)
    opening = {a.full_name: a.balance_between(None, LAST) for a in book.accounts}
    want = closed(generated, DAY)
    assert _nonzero(opening) == _nonzero(want)  # Retained Earnings holds the earlier years
    after = _sums(generated, lambda d: d >= DAY)
    every = {a.full_name: a.balance for a in book.accounts}
    assert _nonzero(every) == _nonzero({k: want[k] + after[k] for k in want})
    # every account at the export date as QuickBooks says it: the proof
    at = out.index("Working book verification:")
    assert out[at + 1].endswith("accounts match QuickBooks to the cent")
    # the carried table: one row per account with a balance, every difference zero
    carried = [line for line in out if line.startswith("Carried over:")]
    n = len(_nonzero(want))
    assert carried == [
        f"Carried over: the working book opens on {LAST} with the archive's closing balances: "
        f"{n} of {n} accounts equal to the cent"
    ]
    rows = list(csv.DictReader(report.with_name("r.carried.csv").read_text().splitlines()))
    assert {r["account"]: D(r["working_opening"]) for r in rows} == _nonzero(want)
    assert {r["difference"] for r in rows} == {"0.00"}
    assert report.with_name("r.archive.csv").exists() and report.exists()
    # the working book's reports as a single book's: the documents report, every owner equal
    rows = list(csv.DictReader(report.with_name("documents.csv").read_text().splitlines()))
    assert rows and {r["difference"] for r in rows} == {"0.00"}
    # open documents: the working book's owners end as the truth at the export
    assert book.documents is not None
    assert _nonzero(book.documents.owner_open) == owner_balances(generated)


def test_the_open_documents_are_carried_as_documents(split) -> None:
    """Every document the archive leaves open is in the working book for what is open of it,
    so a payment after the day is applied to it."""
    _generated, work, old, _report, _out = split
    before = gnc.read_documents(old)
    now = gnc.read_documents(work)
    left = {(d.kind, d.owner, d.id): d.open for d in before.documents if d.open}
    assert left
    carried = {(d.kind, d.owner, d.id): d.total for d in now.documents}
    assert {k: carried.get(k) for k in left} == left
    # some of them are paid in the working book, as the generator paid them
    paid = [k for k in left if k in carried and _open(now, k) < left[k]]
    assert paid


def test_gnucash_trial_balance_runs_on_the_working_book(split, tmp_path) -> None:
    _generated, work, _old, _report, _out = split
    tb = trial_balance(work, tmp_path / "home")
    book = gnc.read_book(work)
    assert tb.nonzero() == _nonzero({a.full_name: a.balance for a in book.accounts})
    assert tb.total_debit == tb.total_credit


def test_bad_split_options_are_refused_with_one_message(company, tmp_path) -> None:
    _generated, files = company
    work, old = tmp_path / "w.gnucash", tmp_path / "a.gnucash"
    cases = [
        (["--split-at", "2030-01-01", "--archive", old], 1, "outside the history"),
        # (the history's first day: said as such, not "outside the history": hunt 13)
        (["--split-at", "2019-01-01", "--archive", old], 1, "is the history's first day (the "),
        (["--split-at", DAY, "--archive", work], 2, "is the book -o itself"),
        (["--split-at", DAY], 2, "needs --archive ARCHIVE.gnucash"),
        (["--archive", old], 2, "--archive needs --split-at"),
        (["--split-at", DAY, "--archive", old, "--balances-only", DAY], 2, "--balances-only"),
    ]
    for extra, status, said in cases:
        run = convert(*files, "-o", work, *extra)
        assert run.returncode == status, (extra, run.stderr)
        assert said in run.stderr, (extra, run.stderr)
        assert "Traceback" not in run.stderr
        assert not work.exists() and not old.exists()
        assert not list(tmp_path.iterdir())
    old.write_text("kept")
    run = convert(*files, "-o", work, "--split-at", DAY, "--archive", old)
    assert run.returncode == 2 and f"{old} already exists; add --force" in run.stderr
    assert old.read_text() == "kept" and not work.exists()


def test_the_split_is_suggested_for_a_large_history_on_a_slow_gnucash(
    company, monkeypatch, tmp_path
) -> None:
    """The note names the last fiscal year's start; only for GnuCash 4.x and 5.0-5.6 (whose
    engine opens a large book in minutes), from ``archive.SUGGEST_FROM`` transactions."""
    from app.cli_split import suggestion
    from app.gnc.engine import engine_version

    assert archive.slow_loader((4, 13)) and archive.slow_loader((5, 6))
    assert not archive.slow_loader((5, 7)) and not archive.slow_loader((5, 10))
    _generated, files = company
    plan = Plan()
    prepared = pipeline.prepare(pipeline.read(files, plan), plan)
    assert archive.suggested_day(prepared.ledger.as_of, prepared.ledger.transactions) == DAY
    assert suggestion(prepared, plan) is None  # 900 transactions
    monkeypatch.setattr(archive, "SUGGEST_FROM", 500)
    note = suggestion(prepared, plan)
    if archive.slow_loader(engine_version()):
        assert note is not None and f"--split-at {DAY} --archive ARCHIVE.gnucash" in note
        assert "opens a book of 100,000 transactions in about" in note
    else:
        assert note is None
    split_plan = Plan(cutover=Cutover(split_at=DAY.isoformat()))
    assert suggestion(prepared, split_plan) is None
    # a path that writes one book (convert-many with such a plan) refuses it, nothing written
    split = pipeline.prepare(pipeline.read(files, split_plan), split_plan)
    assert not split.errors
    with pytest.raises(BookWriteError, match="keeps the history in an archive book"):
        pipeline.write(split, tmp_path / "one.gnucash", split_plan)
    assert not list(tmp_path.iterdir())


def _nonzero(figures) -> dict:
    return {k: v for k, v in figures.items() if v}


def _open(docs, key) -> D:
    return next(d.open for d in docs.documents if (d.kind, d.owner, d.id) == key)


def test_years_budgets_statements_and_schedules_go_to_their_book(tmp_path) -> None:
    """A company with budgets, year-end trial balances, reconciled statements and memorized
    transactions (issue 26), split at 2022-01-01: the archive proves the year ends and budgets
    before the day; the working book the later ones, its statements' reconciled balances (the
    opening carries the archive's reconciled part as reconciled) and the scheduled
    transactions."""
    exported = dt.date(2023, 3, 31)
    company = make_company(600, seed=4, years=4, exported=exported, budgets=True, memorized=True)
    files = company.write_all(tmp_path)
    ends = [company.write_trial_balance_csv(tmp_path / f"tb-{d}.csv", as_of=d)
            for d in company.year_ends()]  # fmt: skip
    statements = [company.statement("Checking"), company.statement("CalOil Card")]
    assert all(s.date >= dt.date(2022, 1, 1) for s in statements)
    recs = company.write_reconciliation_csv(tmp_path / "rec.csv", statements)
    memorized = company.write_memorized_csv(tmp_path / "memorized.csv")
    work, old = tmp_path / "w.gnucash", tmp_path / "a.gnucash"
    run = convert(
        files["lists"], files["transaction_detail"], *ends, recs, memorized, "-o", work,
        "--archive", old, "--split-at", "2022-01-01", "--strict",
    )  # fmt: skip
    assert run.returncode == 0, run.stdout + run.stderr
    out = run.stdout
    assert "DIFFERS" not in out
    assert "Every year end from 2019 to 2021 matches QuickBooks' trial balance" in out
    assert "The year end 2022-12-31 matches QuickBooks' trial balance" in out
    assert "Reconciliations: the last reconcile date of 2 accounts" in out
    assert "Scheduled transactions: 2 read back from the book" in out
    book = gnc.read_book(work)
    for s in statements:
        assert book.account(s.account) is not None


def test_a_difference_carried_from_the_archive_is_said_so_in_the_working_book(tmp_path) -> None:
    """A 2021 check's amount changed by hand on both lines, the history split at 2022-01-01 with
    year-end trial balances: the archive's year end 2021-12-31 differs (its proof pins the
    year); the working book opens with the archive's balances, so it differs too, and its rows
    said the history started late; they say the difference is carried from the archive."""
    from dataclasses import replace

    from app import pipeline, split_write
    from app.plan import Cutover, Plan

    exported = dt.date(2023, 3, 31)
    company = make_company(400, seed=4, years=4, exported=exported)
    check = next(
        t
        for t in company.transactions
        if t.date.year == 2021 and t.type == "Check" and len(t.splits) == 2 and t.splits[0][1]
    )
    changed = [(a, v + (10 if v > 0 else -10), m, c) for a, v, m, c in check.splits]
    edited = replace(
        company,
        transactions=[
            replace(t, splits=changed) if t is check else t for t in company.transactions
        ],
    )
    files = [
        company.write_lists_iif(tmp_path / "lists.iif"),
        edited.write_journal_csv(tmp_path / "journal.csv"),
        *(company.write_trial_balance_csv(tmp_path / f"tb-{d}.csv", as_of=d)
          for d in company.year_ends()),
    ]  # fmt: skip
    plan = Plan(cutover=Cutover(split_at="2022-01-01"))
    prepared = pipeline.prepare(pipeline.read(files, plan), plan)
    done = split_write.write(prepared, tmp_path / "w.gnucash", tmp_path / "a.gnucash", plan)
    assert not done.archive.report.ok and not done.working.report.ok
    differing = {r.account: r for r in done.working.report.differences}
    accounts = {a for a, *_ in check.splits} & set(differing)
    assert accounts, differing
    for account in {*accounts, "Retained Earnings"} & set(differing):
        assert differing[account].cause.startswith(
            "carried from the archive: its balance on 2021-12-31 differs from QuickBooks' trial "
            "balance of that date by"
        ), differing[account].cause
    # its year ends too: the difference came with the opening balances
    line = done.working.report.extras.year_lines()[0]
    assert "Probable cause: " in line and "carried from the archive" in line, line
    assert "what the files do not hold" not in line, line


def test_a_working_books_own_difference_is_not_called_carried(tmp_path) -> None:
    """The same 2021 check changed by 10.00 and a 2022 check by 7.00 (the working book's own):
    Checking differs by 17.00, of which 10.00 is carried from the archive and the rest is its
    own, with its own cause; the 2022 expense is the working book's alone (its 2021 difference
    closed into Retained Earnings), never called carried."""
    from dataclasses import replace

    from app import pipeline, split_write
    from app.plan import Cutover, Plan

    company = make_company(400, seed=4, years=4, exported=dt.date(2023, 3, 31))

    def check(year: int):
        return next(
            t
            for t in company.transactions
            if t.date.year == year
            and t.type == "Check"
            and len(t.splits) == 2
            and t.splits[0][1]
            and {a for a, *_ in t.splits} >= {"Checking"}
        )

    edits = {id(check(2021)): 10, id(check(2022)): 7}
    txns = [
        replace(t, splits=[(a, v + (n if v > 0 else -n), m, c) for a, v, m, c in t.splits])
        if (n := edits.get(id(t)))
        else t
        for t in company.transactions
    ]
    files = [
        company.write_lists_iif(tmp_path / "lists.iif"),
        replace(company, transactions=txns).write_journal_csv(tmp_path / "journal.csv"),
        *(company.write_trial_balance_csv(tmp_path / f"tb-{d}.csv", as_of=d)
          for d in company.year_ends()),
    ]  # fmt: skip
    plan = Plan(cutover=Cutover(split_at="2022-01-01"))
    prepared = pipeline.prepare(pipeline.read(files, plan), plan)
    done = split_write.write(prepared, tmp_path / "w.gnucash", tmp_path / "a.gnucash", plan)
    rows = {r.account: r for r in done.working.report.differences}
    cause = rows["Checking"].cause
    assert cause.startswith("carried from the archive") and "; the rest, " in cause, cause
    own = next(a for a, *_ in check(2022).splits if a != "Checking")
    assert own != next(a for a, *_ in check(2021).splits if a != "Checking")
    extras = done.working.report.extras
    year = next(y for y in extras.compared_years if y.date == dt.date(2022, 12, 31))
    off = {r.account: r.difference for r in year.differences}
    assert off[own] and extras.carried.get(own) is None, extras.carried  # (closed: not carried)


def test_an_archive_is_proven_against_quickbooks_where_its_last_day_has_a_trial_balance(
    company, tmp_path
) -> None:
    """With QuickBooks' Trial Balance as of the archive's last day, the archive matches
    QuickBooks; with a transaction of its period missing from the files, it differs there, and
    the working book (opening with its closing) says a transaction is missing, never "add
    --opening-balances" (its opening is the archive's)."""
    generated, files = company
    tb = generated.write_trial_balance_csv(tmp_path / "tb.csv", as_of=LAST)
    run = convert(*files, tb, "-o", tmp_path / "w.gnucash", "--archive", tmp_path / "a.gnucash",
                  "--split-at", DAY)  # fmt: skip
    out = run.stdout.splitlines()
    assert run.returncode == 0, run.stdout + run.stderr
    at = out.index("Archive verification:")
    assert out[at + 1].endswith("accounts match QuickBooks to the cent")
    (written,) = [line for line in out if line.startswith("Archive written to")]
    assert written.endswith(": Matches QuickBooks to the cent")
    # a check of the archive's period missing from the files
    detail = tmp_path / "detail.csv"
    lines = files[1].read_text(encoding="utf-8").splitlines()
    ref = next(
        line.split(",")[1]
        for line in lines
        if ",Check," in line and "/2020," in line and line.split(",")[1]
    )
    detail.write_text(
        "\n".join(line for line in lines if line.split(",")[1:2] != [ref]) + "\n",
        encoding="utf-8",
    )
    run = convert(files[0], detail, *files[2:], "-o", tmp_path / "w2.gnucash", "--archive",
                  tmp_path / "a2.gnucash", "--split-at", DAY, "--strict")  # fmt: skip
    said = run.stdout + run.stderr
    assert run.returncode == 3, said
    assert "Probable cause of every difference: the history" in said
    assert "add --opening-balances" not in said and "after the company did" not in said


def test_a_split_inside_a_fiscal_year_keeps_its_budget_in_the_working_book(tmp_path) -> None:
    """Split in the middle of the last fiscal year: that year's budget is the working book's
    (the year it works in) as well as the archive's; the years over before the day stay in
    the archive alone. Both books reopened; each proves its budgets."""
    from app.extras import budget_name

    generated = make_company(300, seed=3, years=2, budgets=True)
    folder = tmp_path / "files"
    folder.mkdir()
    files = [
        generated.write_lists_iif(folder / "lists.iif"),
        generated.write_transaction_detail_csv(folder / "detail.csv"),
    ]
    latest = max(b.start for b in generated.budgets)
    day = latest.replace(month=7)  # inside the last budget's year
    work, old = tmp_path / "work.gnucash", tmp_path / "archive.gnucash"
    run = convert(*files, "-o", work, "--archive", old, "--split-at", day, "--strict")
    assert run.returncode == 0, run.stdout + run.stderr
    names = {budget_name(b.start, b.klass, b.customer) for b in generated.budgets}
    current = {budget_name(b.start, b.klass, b.customer) for b in generated.budgets
               if b.start == latest}  # fmt: skip
    assert {b.name for b in gnc.read_book(work).budgets} == current != set()
    assert {b.name for b in gnc.read_book(old).budgets} == names

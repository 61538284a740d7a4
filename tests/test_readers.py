"""sources: the reader chooser (none / one / two claims), unreadable files as problems, and the
merge of several files (chart, lists, transactions in date order, overlaps imported once)."""

from __future__ import annotations

import csv
import datetime as dt
import io
from dataclasses import replace
from decimal import Decimal as D
from pathlib import Path
from types import SimpleNamespace

import pytest

from app import fixes, pipeline, readers
from app.business import Customer, Vendor
from app.errors import AmbiguousFormatError, UnknownFormatError
from app.model import (
    Account,
    AccountType,
    FileInfo,
    Ledger,
    NotImported,
    ReadOptions,
    Split,
    Transaction,
)
from app.plan import FileOptions, Plan
from app.source import Source
from tests.support.cut import cut_journal

T = AccountType


def reader(name: str, claims: bool) -> SimpleNamespace:
    return SimpleNamespace(__name__=f"app.readers.{name}", identify=lambda path, options: claims)


def test_identify_picks_the_one_reader_that_claims(tmp_path):
    f = tmp_path / "x.iif"
    f.write_text("!ACCNT\tNAME\n")
    chosen = readers.identify(f, ReadOptions(), [reader("iif", True), reader("qbcsv", False)])
    assert chosen.__name__ == "app.readers.iif"


def test_identify_none_and_two_are_errors(tmp_path):
    f = tmp_path / "x.txt"
    f.write_text("hello\n")
    with pytest.raises(UnknownFormatError) as none:
        readers.identify(f, ReadOptions(), [reader("iif", False), reader("qbcsv", False)])
    assert str(none.value) == f"x.txt: {readers.UNKNOWN}"
    with pytest.raises(
        AmbiguousFormatError,
        match=r"x.txt: it could be read as more than one kind .*an IIF file and a transaction",
    ):
        readers.identify(f, ReadOptions(), [reader("iif", True), reader("qbcsv", True)])


def test_real_readers_claim_nothing_in_a_plain_text_file(tmp_path):
    f = tmp_path / "notes.txt"
    f.write_text("Dear diary,\nnothing to see here\n")
    merged = readers.read([f], Plan())
    (said,) = [str(p) for p in merged.problems]  # plain text, as what it is (app/readers/looks)
    assert said.startswith("notes.txt:1: this is not a QuickBooks export: it looks like plain text")
    assert merged.files == (FileInfo("notes.txt", "Not a QuickBooks export"),)


def test_every_file_is_reported_even_when_one_is_missing(tmp_path):
    a, b = tmp_path / "a.iif", tmp_path / "b.txt"
    b.write_text("hello\n")
    merged = readers.read([a, b], Plan())
    assert [p.source.filename for p in merged.problems] == ["a.iif", "b.txt"]
    assert "cannot read the file" in merged.problems[0].message


def src(name: str, line: int) -> Source:
    return Source(name, line)


def txn(file: str, line: int, day: int, *splits: tuple[str, str], ref: str = "") -> Transaction:
    return Transaction(
        dt.date(2024, 1, day),
        tuple(Split(a, D(v), src(file, line)) for a, v in splits),
        src(file, line),
        ref=ref,
    )


RENT = (("Rent", "10.00"), ("Checking", "-10.00"))


def test_merge_chart_lists_and_company():
    lists = Ledger(
        accounts=(Account("Checking", T.BANK, src("l.iif", 3)),),
        customers=(Customer("Ann", src("l.iif", 9)),),
        vendors=(Vendor("Bob", src("l.iif", 12)),),
        not_imported=(NotImported("Items", "Nails", "no item list", src("l.iif", 20)),),
        files=(FileInfo("l.iif", "IIF lists", "iif lists"),),
        company="Rock Castle",
        chart=True,
    )
    more = Ledger(
        accounts=(
            Account("Checking", T.BANK, src("m.iif", 2)),
            Account("Savings", T.BANK, src("m.iif", 3)),
        ),
        customers=(Customer("Ann", src("m.iif", 5)), Customer("Cy", src("m.iif", 6))),
        files=(FileInfo("m.iif", "IIF lists", "iif lists"),),
        chart=True,
    )
    report = Ledger(
        accounts=(Account("Inferred", T.BANK, src("r.csv", 2)),),
        files=(FileInfo("r.csv", "CSV Journal", "journal"),),
    )
    merged = readers.merge([lists, more, report])
    assert [a.full_name for a in merged.accounts] == ["Checking", "Savings"]
    assert merged.accounts[0].source == src("l.iif", 3)
    assert [c.name for c in merged.customers] == ["Ann", "Cy"]
    assert [v.name for v in merged.vendors] == ["Bob"]
    assert len(merged.not_imported) == 1
    assert merged.chart and merged.company == "Rock Castle"
    assert [f.filename for f in merged.files] == ["l.iif", "m.iif", "r.csv"]
    assert [(str(p), p.severity) for p in merged.problems] == [
        (
            "m.iif:2: account “Checking” appears again (first at l.iif:3); the first is kept",
            "warning",
        ),
        ("m.iif:5: customer “Ann” appears again (first at l.iif:9); the first is kept", "warning"),
    ]


def test_merge_transactions_in_date_order_stable():
    a = Ledger(
        transactions=(txn("a.csv", 2, 5, *RENT), txn("a.csv", 3, 1, ("X", "1"), ("Y", "-1")))
    )
    b = Ledger(transactions=(txn("b.csv", 2, 3, ("X", "2"), ("Y", "-2")),))
    merged = readers.merge([a, b])
    assert [(t.date.day, t.source.filename) for t in merged.transactions] == [
        (1, "a.csv"),
        (3, "b.csv"),
        (5, "a.csv"),
    ]


def test_overlapping_files_import_a_transaction_once():
    a = Ledger(transactions=(txn("a.csv", 10, 5, *RENT, ref="77"), txn("a.csv", 12, 6, *RENT)))
    b = Ledger(
        transactions=(
            txn("b.csv", 4, 5, *reversed(RENT), ref="77"),  # same lines, other order
            txn("b.csv", 6, 6, *RENT, ref="90"),  # a.csv:12 had no Trans #: still the same
            txn("b.csv", 8, 7, *RENT),  # outside the overlap
        )
    )
    merged = readers.merge([a, b])
    assert [str(t.source) for t in merged.transactions] == ["a.csv:10", "a.csv:12", "b.csv:8"]
    assert [(str(p), p.severity, p.topic) for p in merged.problems] == [
        (
            "b.csv:4: 2 transactions of this file (2024-01-05 to 2024-01-06) are also in a.csv; "
            "each is imported once, from a.csv (this file's lines 4, 6)",
            "note",  # each in the book once: nothing to do (hunt 23 M13: "read these first")
            "overlap",
        )
    ]


def test_not_a_duplicate_when_trans_numbers_differ_or_without_one_within_one_file():
    a = Ledger(transactions=(txn("a.csv", 1, 5, *RENT, ref="1"),))
    b = Ledger(transactions=(txn("b.csv", 1, 5, *RENT, ref="2"),))
    merged = readers.merge([a, b])
    assert len(merged.transactions) == 2
    assert merged.problems == ()
    alike = Ledger(transactions=(txn("a.csv", 1, 5, *RENT), txn("a.csv", 2, 5, *RENT)))
    assert len(readers.merge([alike]).transactions) == 2  # two checks alike: nothing says one
    assert readers.merge([alike]).problems == ()


def test_one_trans_number_twice_in_one_file_is_imported_once():
    """Issue 22 (4): the same TRNS blocks appended twice to one IIF file. Each repeated Trans #
    with the same date and lines is imported once, as across files, and said once per file."""
    first = (txn("t.iif", 4, 5, *RENT, ref="1"), txn("t.iif", 7, 6, *RENT, ref="2"))
    again = (txn("t.iif", 10, 5, *RENT, ref="1"), txn("t.iif", 13, 6, *RENT, ref="2"))
    one = Ledger(transactions=(*first, *again), files=(FileInfo("t.iif", "IIF", "iif"),))
    for parts in ([one], [one, Ledger(transactions=(txn("b.csv", 2, 9, *RENT),))]):
        merged = readers.merge(parts)
        assert [str(t.source) for t in merged.transactions][:2] == ["t.iif:4", "t.iif:7"]
        assert len(merged.transactions) == len(parts) + 1
        assert [(str(p), p.severity, p.topic) for p in merged.problems] == [
            (
                "t.iif:10: 2 transactions of this file (2024-01-05 to 2024-01-06) are in it twice, "
                "with the same Trans # and lines (lines 10, 13 repeat lines 4, 7): each is "
                "imported once; if the file was put together from several exports, check that "
                "none was added twice",
                "warning",
                "overlap",
            )
        ]
    single = Ledger(transactions=(first[0], again[0]), files=one.files)
    (said,) = readers.merge([single]).problems
    assert str(said) == (
        "t.iif:10: this transaction of 2024-01-05 (Trans # 1) is in the file twice, with the same "
        "lines (first at line 4): imported once; if the file was put together from several "
        "exports, check that none was added twice"
    )


def test_one_trans_number_for_two_transactions_in_one_file_is_an_error():
    other = (("Rent", "12.00"), ("Checking", "-12.00"))
    one = Ledger(
        transactions=(txn("t.iif", 4, 5, *RENT, ref="1"), txn("t.iif", 9, 5, *other, ref="1"))
    )
    merged = readers.merge([one])
    assert [str(p) for p in merged.errors] == [
        "t.iif:9: Trans # 1 of 2024-01-05 is also at line 4 of this file, with other lines "
        "(there: Rent 10.00, Checking -10.00; here: Rent 12.00, Checking -12.00): QuickBooks "
        "gives each transaction its own number; export the file again from QuickBooks (a file "
        "another program wrote: clear its TRNSID or Trans # column)"
    ]
    halves = Ledger(  # one transaction in two runs (unbalanced each): validation says so
        transactions=(txn("t.iif", 4, 5, RENT[0], ref="1"), txn("t.iif", 9, 5, RENT[1], ref="1"))
    )
    assert readers.merge([halves]).problems == ()


def test_two_identical_transactions_in_both_files_match_pairwise():
    a = Ledger(transactions=(txn("a.csv", 1, 5, *RENT), txn("a.csv", 2, 5, *RENT)))
    b = Ledger(
        transactions=(
            txn("b.csv", 1, 5, *RENT),
            txn("b.csv", 2, 5, *RENT),
            txn("b.csv", 3, 5, *RENT),
        )
    )
    merged = readers.merge([a, b])
    assert [str(t.source) for t in merged.transactions] == ["a.csv:1", "a.csv:2", "b.csv:3"]


def test_plan_file_options_reach_the_reader(tmp_path):
    seen = {}

    def parse(path: Path, options: ReadOptions) -> Ledger:
        seen[path.name] = options
        return Ledger(files=(FileInfo(path.name, "CSV Journal", "journal"),))

    fake = SimpleNamespace(__name__="app.fake", identify=lambda p, o: True, parse=parse)
    for name in ("j.csv", "k.csv"):
        (tmp_path / name).write_text("x")
    plan = Plan(files={"j.csv": FileOptions(date_order="dmy", columns={"date": "When"})})
    readers.read([tmp_path / "j.csv", tmp_path / "k.csv"], plan, [fake])
    assert seen == {
        "j.csv": ReadOptions(date_order="dmy", columns=(("date", "When"),)),
        "k.csv": ReadOptions(),
    }


def test_overlap_found_when_files_label_accounts_differently():
    chart = Ledger(
        accounts=(
            Account("Checking", T.BANK, src("l.iif", 1), code="1000"),
            Account("Utilities:Gas", T.EXPENSE, src("l.iif", 2), code="7751"),
        ),
        chart=True,
    )
    iif = Ledger(
        transactions=(txn("t.iif", 4, 5, ("Utilities:Gas", "25.00"), ("Checking", "-25")),)
    )
    report = Ledger(
        transactions=(txn("r.csv", 9, 5, ("7751 · Gas", "25"), ("1000 · Checking", "-25.00")),)
    )
    merged = readers.merge([chart, iif, report])
    assert [str(t.source) for t in merged.transactions] == ["t.iif:4"]
    assert [p.source for p in merged.problems] == [src("r.csv", 9)]


def test_every_generated_export_is_claimed_by_exactly_one_real_reader(tmp_path):
    from tests.support.companygen import make_company

    files = make_company(transactions=30, seed=5).write_all(tmp_path)
    chosen = {name: readers.identify(path, ReadOptions()).__name__ for name, path in files.items()}
    assert chosen == {
        "lists": "app.readers.iif",
        "transactions_iif": "app.readers.iif",
        "find": "app.readers.qbcsv",
        "journal": "app.readers.qbcsv",
        "transaction_detail": "app.readers.qbcsv",
        "general_ledger": "app.readers.qbcsv",
        "trial_balance": "app.readers.qbcsv.trial_balance",
    }


def test_each_report_fixture_is_claimed_by_exactly_one_real_reader(data_dir):
    reports = sorted((data_dir / "reports").glob("*.csv"))
    csv_reports = sorted((data_dir / "csv").glob("*.csv"))
    assert reports and csv_reports
    for path in reports:
        want = (
            "app.readers.qbcsv.trial_balance"
            if path.name.startswith("tb_")
            else "app.readers.qbcsv.names"
        )
        assert readers.identify(path, ReadOptions()).__name__ == want, path.name
    for path in csv_reports:
        assert readers.identify(path, ReadOptions()).__name__ == "app.readers.qbcsv", path.name


def test_a_hand_mapped_file_is_never_taken_for_a_trial_balance(data_dir):
    from app.readers.qbcsv import trial_balance

    path = data_dir / "reports" / "tb_plain.csv"
    assert trial_balance.identify(path, ReadOptions())
    assert not trial_balance.identify(path, ReadOptions(columns=(("account", "Account"),)))


@pytest.mark.samples
def test_every_real_sample_is_claimed_by_the_iif_reader_alone(samples_dir):
    samples = sorted(p for p in samples_dir.iterdir() if p.suffix.lower() == ".iif")
    assert len(samples) == 5
    for path in samples:
        assert readers.identify(path, ReadOptions()).__name__ == "app.readers.iif", path.name


# ---------------------------------------------------------------- one history in two layouts


def with_fields(t: Transaction, **kw) -> Transaction:
    from dataclasses import replace

    return replace(t, **kw)


def test_the_file_with_trans_numbers_is_kept_and_the_other_matched_by_its_fields():
    find = Ledger(
        transactions=(
            with_fields(txn("f.csv", 2, 5, *RENT), num="101", description="Landlord"),
            with_fields(txn("f.csv", 4, 5, *RENT), num="102", description="Landlord"),
        ),
        files=(FileInfo("f.csv", "CSV Find export", "find"),),
    )
    detail = Ledger(
        transactions=(
            with_fields(txn("d.csv", 9, 5, *RENT, ref="7"), num="101", description="Landlord"),
            with_fields(txn("d.csv", 11, 5, *RENT, ref="8"), num="102", description="Landlord"),
        ),
        files=(FileInfo("d.csv", "CSV Transaction Detail", "detail"),),
    )
    merged = readers.merge([find, detail])
    assert [str(t.source) for t in merged.transactions] == ["d.csv:9", "d.csv:11"]
    assert [str(p) for p in merged.problems] == [
        "f.csv:2: 2 transactions of this file (2024-01-05) are also in d.csv; each is imported "
        "once, from d.csv (this file's lines 2, 4)"
    ]


def test_num_name_and_type_must_agree_when_both_files_give_them():
    def one(file: str, **kw) -> Ledger:
        return Ledger(transactions=(with_fields(txn(file, 2, 5, *RENT), **kw),))

    for a, b in (
        ({"num": "101"}, {"num": "102"}),
        ({"description": "Ann"}, {"description": "Bob"}),
        ({"kind_label": "Check"}, {"kind_label": "Deposit"}),
    ):
        assert len(readers.merge([one("a.csv", **a), one("b.csv", **b)]).transactions) == 2
    same = readers.merge(
        [one("a.csv", num="101", kind_label="Check"), one("b.csv", kind_label="CHECK")]
    )
    assert len(same.transactions) == 1  # num given by one file only; one word, two spellings


def test_one_trans_number_with_other_lines_in_two_files_is_an_error_naming_both():
    a = Ledger(transactions=(txn("a.csv", 10, 5, *RENT, ref="77"),))
    b = Ledger(transactions=(txn("b.iif", 4, 5, ("Rent", "12.00"), ("Checking", "-12"), ref="77"),))
    merged = readers.merge([a, b])
    assert [(str(p), p.severity) for p in merged.errors] == [
        (
            "b.iif:4: Trans # 77 of 2024-01-05 is also in a.csv:10, but the two files disagree "
            "about it (there: Rent 10.00, Checking -10.00; here: Rent 12.00, Checking -12.00); "
            "export both files again from the same company file, or give only one of them",
            "error",
        )
    ]
    moved = readers.merge([a, Ledger(transactions=(txn("b.iif", 4, 6, *RENT, ref="77"),))])
    assert "(dated 2024-01-05 there, 2024-01-06 here)" in moved.errors[0].message


def test_one_document_in_two_versions_is_an_error_where_the_files_overlap():
    def doc(file: str, line: int, num: str, *splits, ref: str = "") -> Transaction:
        t = txn(file, line, 5, *splits, ref=ref)
        return with_fields(t, num=num, description="Ann", kind_label="Invoice")

    sale = (("Receivable", "50.00"), ("Sales", "-50.00"))
    edited = (("Receivable", "55.00"), ("Sales", "-55.00"))
    find = Ledger(transactions=(doc("f.csv", 2, "1001", *sale), doc("f.csv", 4, "1002", *sale)))
    detail = Ledger(
        transactions=(
            doc("d.csv", 7, "1001", *sale, ref="40"),
            doc("d.csv", 9, "1002", *edited, ref="41"),
        )
    )
    merged = readers.merge([find, detail])
    assert [str(p) for p in merged.errors] == [
        "f.csv:4: Invoice 1002 of 2024-01-05 is also in d.csv:9, but the two files disagree "
        "about it (there: Receivable 55.00, Sales -55.00; here: Receivable 50.00, Sales -50.00); "
        "export both files again from the same company file, or give only one of them"
    ]
    # files that share nothing are two histories: the same num is no proof of one document
    alone = readers.merge([Ledger(transactions=find.transactions[1:]), detail])
    assert not alone.errors


def test_a_find_group_of_two_transactions_is_imported_as_the_report_has_them():
    deposit = {"kind_label": "Deposit"}
    report = Ledger(
        transactions=(
            with_fields(
                txn("d.csv", 9, 6, ("Bank", "3.00"), ("Funds", "-3.00"), ref="72"), **deposit
            ),
            with_fields(
                txn("d.csv", 12, 6, ("Bank", "4.00"), ("Funds", "-4.00"), ref="73"), **deposit
            ),
        )
    )
    find = Ledger(
        transactions=(
            with_fields(
                txn("f.csv", 2, 6, ("Bank", "3"), ("Funds", "-3"), ("Bank", "4"), ("Funds", "-4")),
                **deposit,
            ),
        )
    )
    merged = readers.merge([find, report])
    assert [str(t.source) for t in merged.transactions] == ["d.csv:9", "d.csv:12"]
    assert [str(p) for p in merged.problems] == [
        "f.csv:2: this Deposit of 2024-01-06 (line 2) is the 2 transactions of d.csv at lines "
        "9, 12 (Trans # 72, 73) read as one; imported once, as those 2"
    ]


@pytest.mark.parametrize(
    "layout", ["transaction_detail", "journal", "general_ledger", "transactions_iif"]
)
def test_a_generated_find_export_and_another_layout_are_one_history(tmp_path, layout):
    from tests.support.companygen import make_company

    company = make_company(transactions=300, seed=3)
    files = company.write_all(tmp_path)
    for chart in ([], [files["lists"]]):
        merged = readers.read([*chart, files["find"], files[layout]], Plan())
        assert len(merged.transactions) == len(company.history)
        assert {t.source.filename for t in merged.transactions} == {files[layout].name}
        assert not merged.errors
        overlap = [p.message for p in merged.problems if p.topic == "overlap"]
        moot = [m for m in overlap if "do not matter" in m]  # its own grouping, said once
        assert len(overlap) - len(moot) == 2  # the file pair, and the one Find group that is two
        assert len(moot) <= 1
        assert not [p for p in merged.problems if p.message.startswith("ambiguous grouping")]


@pytest.mark.parametrize("split", [False, True])
def test_a_find_export_in_another_order_than_trans_numbers_is_one_history(tmp_path, split):
    """Issue 22 (6): a Find export whose day's transactions come in another order than their
    Trans # (sorted by type): same-day deposits, one group in the Find, are not neighbours in
    the General Ledger's Trans # order. They doubled (5 transactions here)."""
    from tests.support.companygen import make_company

    company = make_company(transactions=2000, seed=1)
    find = company.write_find_csv(tmp_path / "find.csv", by_type=True, split=split)
    ledger = company.write_general_ledger_csv(tmp_path / "general_ledger.csv")
    merged = readers.read([find, ledger], Plan())
    assert len(merged.transactions) == len(company.history)
    assert {t.source.filename for t in merged.transactions} == {"general_ledger.csv"}
    assert not merged.errors


# ---------------------------------------------------------------- files cut at the export cap


def test_a_file_cut_at_the_export_cap_is_an_error_unless_the_cut_is_accepted(tmp_path):
    path = cut_journal(tmp_path / "journal.csv")
    assert path.read_text().splitlines()[-1].endswith(",Rent,10.00,")
    merged = readers.read([path], Plan())
    (cut,) = [p for p in merged.problems if p.topic == "truncated"]
    assert (str(cut), cut.severity, cut.fix) == (
        "journal.csv:32768: journal.csv has exactly 32,765 data lines: probably truncated by "
        "QuickBooks' export cap: its history stops on 2021-07-24, and what follows in the "
        "report's period is missing",
        "error",
        "accept_cut",
    )
    assert not merged.files[0].cut

    plan = Plan(files={"journal.csv": FileOptions(truncated_ok=True)})
    accepted = readers.read([path], plan)
    assert not accepted.errors
    assert accepted.files[0].cut
    assert [(str(p), p.topic) for p in accepted.problems] == [
        (
            "journal.csv:32768: journal.csv has exactly 32,765 data lines: probably truncated by "
            "QuickBooks' export cap; accepted as cut: its history stops on 2021-07-24",
            "truncated",
        ),
        (
            "journal.csv:32768: the last transaction (Check of 2021-07-24, Trans # 8192, 1 of "
            "its lines) is cut off by the export cap: not imported; it lies in the period the "
            "proof names as missing",
            "truncated",
        ),
        (
            "journal.csv:32764: journal.csv is cut at QuickBooks' export cap: its history stops "
            "on 2021-07-24, so the book has no history from 2021-07-24 on (that day perhaps "
            "incomplete)",
            "coverage",
        ),
    ]
    # (refused or accepted, the transaction the cut fell inside is the cut's, not said again)
    assert len(accepted.transactions) == len(merged.transactions)
    assert all(t.total == 0 for t in accepted.transactions + merged.transactions)
    prepared = pipeline.prepare(merged, Plan())  # (its balance check: the cut, said once)
    assert not [p for p in prepared.errors if "does not balance" in p.message]


def test_the_accepted_cut_is_kept_in_the_plan_file():
    from app.plan import plan_from_json

    plan = Plan(files={"journal.csv": FileOptions(truncated_ok=True)})
    assert plan_from_json(plan.to_json()) == plan
    assert plan.file_options("journal.csv").truncated_ok
    assert not plan.file_options("other.csv").truncated_ok


def test_a_stretch_no_transaction_file_covers_is_warned(tmp_path):
    from dataclasses import replace

    from tests.support.companygen import make_company

    company = make_company(transactions=300, seed=3)
    early = [t for t in company.transactions if t.date < dt.date(2020, 4, 1)]
    late = [t for t in company.transactions if t.date >= dt.date(2020, 7, 1)]
    a = replace(company, transactions=early).write_journal_csv(tmp_path / "a.csv")
    b = replace(company, transactions=late).write_transaction_detail_csv(tmp_path / "b.csv")
    merged = readers.read([a, b], Plan())
    (gap,) = [p for p in merged.problems if p.topic == "coverage"]
    start, end = early[-1].date + dt.timedelta(days=1), late[0].date - dt.timedelta(days=1)
    assert gap.message == (
        f"no file covers {start} to {end} (a.csv ends {early[-1].date}; b.csv starts "
        f"{late[0].date}); if transactions happened then, export them and add the file"
    )
    assert gap.source == merged.transactions[len(early)].source  # b.csv's first transaction
    whole = readers.read([company.write_journal_csv(tmp_path / "all.csv")], Plan())
    assert not [p for p in whole.problems if p.topic == "coverage"]


def test_a_history_whose_dates_fit_either_order_is_said_when_no_file_tells(tmp_path) -> None:
    """A D/M/Y journal whose days are all 1-12, alone: read M/D/Y with nothing said (only
    "(could be either)" on its line of the files read), every day and month swapped, and the
    book "Matches QuickBooks to the cent" (hunt 22). Said now, with the fix; an order given is
    no guess; a day past the 12th decides it."""
    journal = tmp_path / "journal.csv"
    journal.write_text(
        "Trans #,Type,Date,Account,Debit,Credit\n"
        "1,Deposit,02/03/2024,Checking,10.00,\n1,Deposit,02/03/2024,Sales,,10.00\n",
        encoding="utf-8",
    )
    said = [p for p in pipeline.read([journal], Plan()).problems if p.fix == "date_order"]
    assert [(str(p.source), p.severity) for p in said] == [("journal.csv:1", "warning")]
    assert said[0].message.startswith(
        "its dates fit either order (no day past the 12th) and were read M/D/Y, and no other "
        "file tells: if the company writes them D/M/Y"
    )
    given = replace(Plan(), files={"journal.csv": FileOptions(date_order="mdy")})
    assert not [p for p in pipeline.read([journal], given).problems if p.fix]
    journal.write_text(journal.read_text().replace("02/03/2024", "02/13/2024"), encoding="utf-8")
    assert not [p for p in pipeline.read([journal], Plan()).problems if p.fix]
    # ISO dates have one order: nothing to say (hunt 25: warned "every day and month swapped")
    journal.write_text(journal.read_text().replace("02/13/2024", "2024-02-03"), encoding="utf-8")
    read = pipeline.read([journal], Plan())
    assert read.transactions[0].date == dt.date(2024, 2, 3)
    assert not [p for p in read.problems if p.fix] and not read.files[0].date_order_ambiguous
    # nor does an ISO file prove M/D/Y for a report beside it whose days are all 1-12 (hunt
    # 26: the report's days and months were swapped, nothing said)
    report = tmp_path / "open.csv"
    report.write_text(
        "Open Invoices\n,Type,Date,Num,Due Date,Aging,Open Balance\nAcme,,,,,,\n"
        ",Invoice,03/04/2024,7,03/05/2024,,10.00\nTotal Acme,,,,,,10.00\nTOTAL,,,,,,10.00\n",
        encoding="utf-8",
    )
    said = [p for p in pipeline.read([journal, report], Plan()).problems if p.fix == "date_order"]
    assert [str(p.source) for p in said] == ["open.csv:1"], said


def test_a_report_whose_dates_fit_either_order_is_warned_when_another_file_proves_one(
    tmp_path,
) -> None:
    """An Open Invoices report whose dates all fit either order is read M/D/Y; a Transaction
    Detail of the company proves D/M/Y: said at the report (its dates would be months off)."""
    detail = tmp_path / "detail.csv"
    detail.write_text(
        "Trans #,Type,Date,Account,Debit,Credit\n"
        "1,Invoice,25/03/2024,Accounts Receivable,10.00,\n1,Invoice,25/03/2024,Sales,,10.00\n",
        encoding="utf-8",
    )
    report = tmp_path / "open.csv"
    report.write_text(
        "Open Invoices\n,Type,Date,Num,Due Date,Aging,Open Balance\nAcme,,,,,,\n"
        ",Invoice,03/04/2024,7,03/05/2024,,10.00\nTotal Acme,,,,,,10.00\nTOTAL,,,,,,10.00\n",
        encoding="utf-8",
    )
    empty = tmp_path / "bills.csv"  # (an Unpaid Bills report with none: it proves no order)
    empty.write_text(
        "Unpaid Bills Detail\n,Type,Date,Num,Due Date,Aging,Open Balance\nTOTAL,,,,,,0.00\n",
        encoding="utf-8",
    )
    ledger = pipeline.read([detail, report, empty], Plan())
    said = [(str(p.source), p.message, p.fix) for p in ledger.problems if p.fix == "date_order"]
    assert said == [
        (
            "open.csv:1",
            "its dates fit either order and were read M/D/Y, but detail.csv's are D/M/Y: if this "
            "file's are D/M/Y too, its dates are wrong by months",
            "date_order",
        )
    ]
    assert fixes.action("date_order", "wizard") == "set that file's date order on the Files step"
    plan = replace(Plan(), files={"open.csv": FileOptions(date_order="dmy")})
    assert not [p for p in pipeline.read([detail, report], plan).problems if p.fix]


@pytest.mark.parametrize("report", ["open_invoices", "unpaid_bills"])
def test_an_open_items_report_s_total_row_is_checked(tmp_path, report):
    """QuickBooks' TOTAL row against the rows read: a row dropped or a figure edited is a
    warning at the TOTAL row naming both sums (the proof showed a report total the report
    never printed); the report as QuickBooks wrote it raises none."""
    from tests.support.companygen import make_company

    company = make_company(200, seed=43, documents=True)
    path = getattr(company, f"write_{report}_csv")(tmp_path / f"{report}.csv")
    lines = path.read_text(encoding="utf-8").splitlines()
    assert not readers.read_one(path, ReadOptions()).problems
    rows = [i for i, line in enumerate(lines) if ",Invoice," in line or ",Bill," in line]
    at = rows[0]
    total = next(i for i, line in enumerate(lines) if line.startswith("TOTAL"))
    sub = _owner_total(lines, at) - 1  # (the line, one up: the row left out)
    path.write_text("\n".join(lines[:at] + lines[at + 1 :]) + "\n", encoding="utf-8")
    found = readers.read_one(path, ReadOptions()).problems
    # the owner's own "Total <name>" row and the TOTAL row
    assert [(p.severity, str(p.source)) for p in found] == [
        ("warning", f"{path.name}:{sub}"),
        ("warning", f"{path.name}:{total}"),
    ]
    assert "Total " in found[0].message and "rows of " in found[0].message
    assert "TOTAL row says" in found[1].message and "a row is missing" in found[1].message
    # two owners' rows edited so that the TOTAL still holds: each owner's Total row says so
    # (hunt 19: nothing was checked but the TOTAL)
    other = next(i for i in rows if _owner_total(lines, i) != _owner_total(lines, at))
    edited = list(lines)
    edited[at], edited[other] = _plus(lines[at], "10.00"), _plus(lines[other], "-10.00")
    path.write_text("\n".join(edited) + "\n", encoding="utf-8")
    found = readers.read_one(path, ReadOptions()).problems
    said = sorted(int(str(p.source).rsplit(":", 1)[1]) for p in found)
    assert said == sorted([_owner_total(lines, at), _owner_total(lines, other)]), found
    assert all("difference 10.00" in p.message or "difference -10.00" in p.message for p in found)


def _owner_total(lines: list[str], at: int) -> int:
    """The line (1-based) of the first "Total ..." row after ``at`` (0-based): its owner's."""
    return next(i + 1 for i in range(at, len(lines)) if lines[i].lstrip(',"').startswith("Total "))


def _plus(line: str, amount: str) -> str:
    """A report row with ``amount`` added to its last cell, the Open Balance."""
    cells = next(csv.reader([line]))
    cells[-1] = f"{D(cells[-1].replace(',', '')) + D(amount):,.2f}"
    out = io.StringIO()
    csv.writer(out, lineterminator="").writerow(cells)
    return out.getvalue()


def test_a_date_order_chosen_that_no_date_reads_is_said_once_with_its_control(tmp_path) -> None:
    """The Files step's "Dates are written: day/month/year" on a month/day/year journal: 83
    "expected a date like D/M/YYYY (got “01/26/2019”)" errors, each told to fix the file
    (hunt 23). One error now says the order chosen is the one no date reads in, with the
    date-order fix (the control on the file's card); an order its dates read in raises none."""
    from app import fixes

    journal = tmp_path / "journal.csv"
    journal.write_text(
        "Trans #,Type,Date,Account,Debit,Credit\n"
        "1,Deposit,01/26/2024,Checking,10.00,\n1,Deposit,01/26/2024,Sales,,10.00\n"
        "2,Deposit,02/03/2024,Checking,5.00,\n2,Deposit,02/03/2024,Sales,,5.00\n",
        encoding="utf-8",
    )
    chosen = replace(Plan(), files={"journal.csv": FileOptions(date_order="dmy")})
    said = [p for p in pipeline.read([journal], chosen).problems if p.fix == "date_order"]
    assert [(str(p.source), p.severity) for p in said] == [("journal.csv:2", "error")]
    assert said[0].message == (
        "its dates are written month/day/year (“01/26/2024”), not day/month/year as chosen for "
        "this file: none of them reads so; choose the order its dates are written in"
    )
    assert fixes.action("date_order", "wizard") == "set that file's date order on the Files step"
    right = replace(Plan(), files={"journal.csv": FileOptions(date_order="mdy")})
    assert not [p for p in pipeline.read([journal], right).problems if p.severity == "error"]


def test_a_csv_of_date_and_account_columns_in_no_known_layout_is_told_what_is_expected(tmp_path):
    """Hunt 28: a CSV headed Type, Date, Num, Name, Account, Amount was refused as "expected ...
    a CSV report with Date and Account columns", which it has. The refusal names the reports
    qb2gnucash reads instead."""
    path = tmp_path / "rows.csv"
    path.write_text("Type,Date,Num,Name,Account,Amount\nCheck,1/2/2020,1,Bob,Rent,10.00\n")
    (said,) = readers.read_one(path, ReadOptions()).problems
    assert "with Date and Account columns" not in said.message
    assert "a Journal, a Transaction Detail, a General Ledger or a Find export" in said.message
    assert "mapped by hand in the wizard" in said.message

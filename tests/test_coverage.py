"""coverage: the days the transaction files cover, the stretches none covers, a cut file's
missing period; as warned by the reader merge and noted by the proof."""

from __future__ import annotations

import datetime as dt
from dataclasses import replace

from app.coverage import gaps, quiet_days, seam_warning, seams
from app.model import FileInfo

D = dt.date


def history(name: str, first: dt.date, last: dt.date, *, quiet: int = 3, cut: bool = False):
    return FileInfo(name, "CSV Journal", "journal", first_date=first, last_date=last, quiet=quiet,
                    cut=cut)  # fmt: skip


def test_quiet_days_is_the_longest_run_without_a_transaction():
    assert quiet_days([D(2023, 1, 1), D(2023, 1, 2), D(2023, 1, 9), D(2023, 1, 9)]) == 6
    assert quiet_days([D(2023, 1, 1)]) == 0


def test_a_quarter_no_file_covers_is_named():
    a = history("a.csv", D(2023, 1, 1), D(2023, 3, 31))
    b = history("b.csv", D(2023, 7, 1), D(2023, 12, 31))
    (gap,) = gaps([b, a])
    assert (gap.start, gap.end, gap.before.filename, gap.after.filename) == (
        D(2023, 4, 1), D(2023, 6, 30), "a.csv", "b.csv",
    )  # fmt: skip
    assert gap.describe() == (
        "no file covers 2023-04-01 to 2023-06-30 (a.csv ends 2023-03-31; b.csv starts 2023-07-01)"
    )
    assert gap.short() == "no file covers 2023-04-01 to 2023-06-30"


def test_a_stretch_no_longer_than_the_files_own_quiet_days_is_not_a_gap():
    a = history("a.csv", D(2023, 1, 1), D(2023, 11, 30), quiet=20)
    b = history("b.csv", D(2023, 12, 21), D(2024, 12, 31), quiet=2)  # 20 days: as quiet as a
    assert gaps([a, b]) == []
    assert len(gaps([a, replace(b, first_date=D(2023, 12, 22))])) == 1  # 21 days: longer


def test_a_stretch_of_two_weeks_or_less_is_not_a_gap():
    """Two one-transaction files (Reckon exports each transaction type apart) are not pieces
    of one date range: a few days between them say nothing."""
    a = history("pay.csv", D(2023, 3, 7), D(2023, 3, 7), quiet=0)
    b = history("transfers.csv", D(2023, 3, 10), D(2023, 3, 10), quiet=0)
    assert gaps([a, b]) == []
    assert len(gaps([a, replace(b, first_date=D(2023, 3, 23))])) == 1  # 15 days between


def test_overlapping_and_touching_files_leave_no_gap_and_other_files_do_not_count():
    a = history("a.csv", D(2023, 1, 1), D(2023, 6, 30))
    b = history("b.csv", D(2023, 5, 1), D(2023, 9, 30))
    c = history("c.csv", D(2023, 10, 1), D(2023, 12, 31))
    lists = FileInfo("lists.iif", "IIF lists", "iif lists")
    assert gaps([a, b, c, lists]) == []


def test_a_cut_file_misses_its_last_day_on_up_to_the_next_file():
    cut = history("2022.csv", D(2022, 1, 1), D(2022, 8, 14), cut=True)
    later = history("2023.csv", D(2023, 1, 2), D(2023, 12, 31))
    (first,) = gaps([cut, later])
    assert (first.start, first.end) == (D(2022, 8, 14), D(2023, 1, 1))
    assert first.describe() == (
        "2022.csv is cut at QuickBooks' export cap: its history stops on 2022-08-14, so the book "
        "has no history for 2022-08-14 to 2023-01-01 (that day perhaps incomplete; 2023.csv "
        "starts 2023-01-02)"
    )
    (alone,) = gaps([cut])
    assert (alone.start, alone.end) == (D(2022, 8, 14), None)
    assert alone.short() == "no history from 2022-08-14 on (2022.csv is cut at the export cap)"
    covered = history("rest.csv", D(2022, 8, 14), D(2022, 12, 31))  # starts on the cut day
    assert gaps([cut, covered]) == []


def test_a_history_stopping_long_before_the_export_date_leaves_a_gap():
    """Issue 22 (7): the stretch from the last file's last day to QuickBooks' export date
    counts when it is longer than a month and than the files' own quiet runs."""
    from app.source import Source

    lists = FileInfo("lists.iif", "IIF lists", "iif lists", exported_on=D(2023, 12, 31),
                     exported_at=Source("lists.iif", 2))  # fmt: skip
    a = history("a.csv", D(2023, 1, 1), D(2023, 11, 30))  # 31 days before: a month closed late
    assert gaps([lists, a]) == []
    (gap,) = gaps([lists, replace(a, last_date=D(2023, 11, 29))])
    assert (gap.start, gap.end, gap.after, gap.until) == (D(2023, 11, 30), D(2023, 12, 31), None,
                                                          lists)  # fmt: skip
    assert gap.describe() == (
        "no file covers 2023-11-30 to 2023-12-31 (a.csv ends 2023-11-29; QuickBooks' figures "
        "are as of 2023-12-31, the export date in lists.iif:2)"
    )
    assert gaps([lists, replace(a, last_date=D(2023, 11, 29), quiet=40)]) == []  # as quiet
    cut = replace(a, cut=True, stops_early=True)
    (gap,) = gaps([lists, cut])  # a file cut short: what follows its last day, open-ended
    assert gap.short() == "no history from 2023-11-30 on (a.csv is cut short)"


def test_reports_titled_with_day_first_numeric_dates_meet_without_a_gap(tmp_path) -> None:
    """Two D/M/Y Journal reports titled "01/01/2019 through 10/03/2019" and "11/03/2019 through
    …" (the date order found from the rows, not given): they meet, no gap; titled two days
    apart, a gap however quiet (their titles were read month first: "no file covers 2019-03-11
    to 2019-04-10", hunt 14)."""
    from pathlib import Path

    from app.plan import Plan
    from app.readers import read
    from tests.support.companygen import make_company

    company = make_company(120, seed=5)
    every = sorted(company.transactions, key=lambda t: t.date)
    end = every[len(every) // 2].date

    def written(name: str, keep, first: dt.date, last: dt.date) -> Path:
        company.transactions[:] = [t for t in every if keep(t.date)]
        path = company.write_journal_csv(tmp_path / name, date_order="dmy")
        lines = path.read_text(encoding="utf-8").split("\n")
        assert " through " in lines[2]
        lines[2] = f"{first:%d/%m/%Y} through {last:%d/%m/%Y}" + "," * lines[2].count(",")
        path.write_text("\n".join(lines), encoding="utf-8")
        return path

    start, stop = every[0].date, every[-1].date
    a = written("a.csv", lambda d: d <= end, start, end)
    b = written("b.csv", lambda d: d > end, end + dt.timedelta(days=1), stop)
    ledger = read([a, b], Plan())
    assert {f.filename: f.titled for f in ledger.files} == {
        "a.csv": (start, end), "b.csv": (end + dt.timedelta(days=1), stop),
    }  # fmt: skip
    assert not [p for p in ledger.problems if "no file covers" in p.message], ledger.problems
    b = written("b.csv", lambda d: d > end + dt.timedelta(days=2), end + dt.timedelta(days=3), stop)
    said = [p.message for p in read([a, b], Plan()).problems if "no file covers" in p.message]
    assert len(said) == 1 and said[0].startswith(f"no file covers {end + dt.timedelta(days=1)}")


def test_days_between_untitled_files_that_are_no_gap_are_seams():
    """Short and quiet, they are no gap (no opening balance refused); but an opening balance
    posted across them would take in a transaction of theirs missing from both files, so each
    is said where one is posted (hunt 19: a deposit of 2021-01-31 went into the opening
    balance, "Matches QuickBooks to the cent", no warning)."""
    a = history("h1.csv", D(2020, 1, 3), D(2021, 1, 30))
    b = history("h2.csv", D(2021, 2, 1), D(2021, 12, 30))
    c = history("h3.csv", D(2022, 1, 4), D(2022, 3, 1))
    assert gaps([a, b, c]) == []
    found = seams([c, a, b])
    assert [(g.start, g.end) for g in found] == [
        (D(2021, 1, 31), D(2021, 1, 31)), (D(2021, 12, 31), D(2022, 1, 3))
    ]  # fmt: skip
    assert seam_warning(found).startswith(
        "the opening balance takes in what the history does not explain, and no file covers "
        "2021-01-31 (h1.csv ends 2021-01-30, h2.csv starts 2021-02-01), nor 1 other such "
        "stretch: a transaction there missing from both files would be in the opening balance"
    )
    # files that meet, overlap, or whose titles give periods that meet: none
    titled = replace(a, titled=(D(2020, 1, 1), D(2021, 1, 31)))
    assert seams([titled, b]) == []
    assert seams([a, replace(b, first_date=D(2021, 1, 31))]) == []
    assert seams([a, replace(b, first_date=D(2021, 1, 20))]) == []
    # a gap already named is no seam
    far = replace(b, first_date=D(2021, 6, 1))
    assert len(gaps([a, far])) == 1 and seams([a, far]) == []

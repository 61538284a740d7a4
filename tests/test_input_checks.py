"""Issue 13: input that must be refused (or said) with its file and line before any book is
written, through the real CLI (``run.py convert``) on the project's own files in
tests/data/checks/, and the readers' side of each rule."""

from __future__ import annotations

from pathlib import Path

from tests.paths import DATA
from tests.test_cli import convert

CHECKS = DATA / "checks"
LISTS = DATA / "cli" / "lists.iif"


def refused(tmp_path: Path, *files: Path) -> list[str]:
    """stderr's lines of a run that must exit 1 and leave no book (nor anything else) behind."""
    out = tmp_path / "book.gnucash"
    run = convert(*files, "-o", out)
    assert run.returncode == 1, run.stdout + run.stderr
    assert "Traceback" not in run.stderr
    assert list(tmp_path.iterdir()) == []
    lines = run.stderr.splitlines()
    assert lines[-1].startswith("No book written:"), lines
    return lines[:-1]


# ---------------------------------------------------------------- 11: years 0001 and 0019

YEAR_WORDS = (
    "year {0} is before 1900: a year of 3 or 4 digits is read as written (only 2-digit years "
    "are completed), so correct it in the file; transaction not read"
)


def test_years_0019_and_0001_are_refused_not_read_as_2019(tmp_path):
    assert refused(tmp_path, CHECKS / "year_0019.iif") == [
        f"year_0019.iif:7: expected a date like M/D/YYYY (got '1/2/0019'): "
        f"{YEAR_WORDS.format('0019')}",
        f"year_0019.iif:10: expected a date like M/D/YYYY (got '1/2/0001'): "
        f"{YEAR_WORDS.format('0001')}",
    ]  # and 1/2/19 on line 13 is 2019: no problem


# ---------------------------------------------------------------- 13: amounts GnuCash cannot hold

TOO_LARGE = (
    "expected an amount under 1,000,000,000,000,000 (got {0!r}): a GnuCash book cannot hold it"
)
LEFT_OUT = "; the row's split is left out, so its transaction is incomplete"


def test_huge_iif_amounts_are_refused_with_their_lines(tmp_path):
    assert refused(tmp_path, CHECKS / "huge_amount.iif") == [
        "huge_amount.iif:3: OBAMOUNT: " + TOO_LARGE.format("-99999999999999999.99"),
        "huge_amount.iif:7: AMOUNT: " + TOO_LARGE.format("99999999999999999.99"),
        "huge_amount.iif:7: transaction has no lines",
        "huge_amount.iif:8: AMOUNT: " + TOO_LARGE.format("-99999999999999999.99"),
    ]


def test_huge_csv_amounts_are_refused_on_the_fast_path_too(tmp_path):
    """The Amount column's fast path (plain digits) and the grouped-thousands path; the largest
    amount under the limit (lines 6-7) is read."""
    assert refused(tmp_path, LISTS, CHECKS / "huge_amount_detail.csv") == [
        "huge_amount_detail.csv:2: " + TOO_LARGE.format("99999999999999999.99") + LEFT_OUT,
        "huge_amount_detail.csv:3: " + TOO_LARGE.format("-99999999999999999.99") + LEFT_OUT,
        "huge_amount_detail.csv:4: " + TOO_LARGE.format("1,000,000,000,000,000.00") + LEFT_OUT,
        "huge_amount_detail.csv:5: " + TOO_LARGE.format("-1,000,000,000,000,000.00") + LEFT_OUT,
    ]


def test_huge_csv_debits_and_credits_are_refused(tmp_path):
    assert refused(tmp_path, LISTS, CHECKS / "huge_amount_journal.csv") == [
        "huge_amount_journal.csv:2: " + TOO_LARGE.format("99999999999999999.99") + LEFT_OUT,
        "huge_amount_journal.csv:3: " + TOO_LARGE.format("99999999999999999.99") + LEFT_OUT,
    ]

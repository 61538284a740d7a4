"""Two lists exports whose charts of accounts disagree (a bookkeeper's walk uploaded two company
files' lists together, and got them merged with a warning per account): an error on the later
file naming an account each file gives otherwise, and what to do; the same company's lists given
twice is no such error. Through the readers as the wizard and the command line run them."""

from __future__ import annotations

from pathlib import Path

from app import pipeline
from app.plan import Plan
from tests.support.companygen import make_company


def _read(*paths: Path):
    return pipeline.read(list(paths), Plan())


def test_lists_of_one_company_on_two_days_are_refused_as_such(tmp_path: Path) -> None:
    early = make_company(80, seed=3).write_lists_iif(tmp_path / "march.iif")
    later = make_company(160, seed=3).write_lists_iif(tmp_path / "june.iif")
    ledger = _read(early, later)
    (error,) = [p for p in ledger.problems if p.severity == "error"]
    assert error.source is not None and error.source.filename == "june.iif"
    assert error.message.startswith("this chart of accounts disagrees with march.iif's: account ")
    assert "These are lists exports of two company files, or of one company on two days" in (
        error.message
    )
    assert "remove june.iif or march.iif on the Files step" in error.message


def test_the_same_lists_given_twice_agree(tmp_path: Path) -> None:
    company = make_company(80, seed=3)
    one = company.write_lists_iif(tmp_path / "lists.iif")
    two = company.write_lists_iif(tmp_path / "lists again.iif")
    ledger = _read(one, two)
    assert not [p for p in ledger.problems if "disagrees" in p.message]

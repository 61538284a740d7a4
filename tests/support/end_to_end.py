"""A generated company converted end to end in process, through the real engine (its lists IIF
and one history export, ``convert``), and its figures compared with the generator's own answers
(``assert_known_answers``): for the proof's tests."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from pathlib import Path

from app import pipeline
from app.plan import Plan
from app.verify_report import Report
from tests.support.companygen import Company

START = dt.date(2019, 1, 1)


def convert(
    tmp_path: Path, company: Company, plan: Plan, *, layout: str = "transactions_iif"
) -> tuple[pipeline.Prepared, pipeline.Outcome]:
    """The generator's lists IIF + one history export (``layout``: a key of ``write_all``)
    through the whole pipeline; the book is written, read back with the bindings and verified
    (pipeline.write)."""
    files = company.write_all(tmp_path / "exports")
    paths = [files["lists"], files[layout]]
    prepared = pipeline.prepare(pipeline.read(paths, plan), plan)
    assert not prepared.errors, prepared.errors
    outcome = pipeline.write(prepared, tmp_path / "book.gnucash", plan)
    return prepared, outcome


def assert_known_answers(report: Report, expected: dict[str, Decimal]) -> None:
    """Every account's figure from the book equals the generator's own answer."""
    rows = [r for r in report.rows if r.quickbooks_account]
    assert len(rows) == len([n for n in expected if n != "Estimates"])
    for r in rows:
        assert r.gnucash_balance == expected[r.quickbooks_account], r

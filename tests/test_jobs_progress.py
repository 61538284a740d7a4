"""One progress bar for the whole import (issue 27, item 4): the phases the real pipeline goes
through, each mapped onto its share of one bar that never goes back (at 100,000 transactions
the bar used to restart from 0 at each phase), with the step's number and the time left."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from app import pipeline
from app.jobs import PHASE_SHARES, SHOWN_PHASES, ImportJob, overall
from app.plan import Plan
from app.words import time_left
from tests.support.companygen import make_company


def test_the_real_pipelines_phases_fill_one_bar_that_never_goes_back(tmp_path: Path):
    company = make_company(600, seed=12, documents=True)
    paths = [
        company.write_lists_iif(tmp_path / "lists.iif"),
        company.write_journal_csv(tmp_path / "journal.csv"),
        company.write_open_invoices_csv(tmp_path / "open.csv"),
        company.write_unpaid_bills_csv(tmp_path / "bills.csv"),
    ]
    plan = Plan()
    seen: list[tuple[str, int, int]] = [("reading files", 0, 0)]
    prepared = pipeline.prepare(pipeline.read(paths, plan), plan)
    seen.append(("checking", 0, 1))
    outcome = pipeline.write(
        prepared, tmp_path / "book.gnucash", plan, on_progress=lambda *a: seen.append(a)
    )
    assert outcome.report.ok
    seen.append(("verifying", 1, 1))
    seen.append(("done", 0, 0))
    bar = [overall(*s) for s in seen]
    assert bar == sorted(bar), list(zip(seen, bar, strict=True))
    assert bar[0] < 20 and bar[-1] == 100
    order = [p for p, _ in PHASE_SHARES]
    phases = list(dict.fromkeys(p for p, _, _ in seen))
    assert [p for p in phases if p != "done"] == sorted(
        (p for p in phases if p != "done"), key=order.index
    )
    assert {"transactions", "documents", "reading"} <= set(phases), phases  # the long ones


def test_the_step_and_the_time_left_are_told():
    job = ImportJob("j", state="running", phase="transactions", done=500, total=1000, created=100)
    assert job.percent == int(overall("transactions", 500, 1000))
    assert job.step == (SHOWN_PHASES.index("transactions") + 1, len(SHOWN_PHASES))
    assert job.seconds_left(now=101) is None  # too early to tell
    left = job.seconds_left(now=130)
    assert left is not None and abs(left - 30 * (100 - job.percent) / job.percent) < 1
    assert time_left(42) == "about 40 s left" and time_left(200) == "about 3 min left"
    assert replace(job, phase="done").percent == 100

"""The as-of day's fiscal year, and QuickBooks' figures computed from dated sums."""

from __future__ import annotations

import dataclasses
import datetime as dt
from decimal import Decimal as D

import pytest

from app.as_of import figures, fiscal_year_start
from app.cutover import apply
from app.model import AccountType
from app.plan import Cutover
from tests.support.ledgers import ledger

T = AccountType


@pytest.mark.parametrize(
    ("as_of", "mmdd", "start"),
    [
        ("2022-06-30", "01-01", "2022-01-01"),
        ("2022-06-30", "07-01", "2021-07-01"),
        ("2022-07-01", "07-01", "2022-07-01"),
        ("2023-03-01", "02-29", "2023-02-28"),
        ("2024-03-01", "02-29", "2024-02-29"),
    ],
)
def test_fiscal_year_start(as_of: str, mmdd: str, start: str) -> None:
    assert fiscal_year_start(dt.date.fromisoformat(as_of), mmdd) == dt.date.fromisoformat(start)


def test_fiscal_year_start_is_read_by_the_plans_one_rule() -> None:
    assert fiscal_year_start(dt.date(2022, 8, 1), "7/1") == dt.date(2022, 7, 1)  # as the wizard


@pytest.mark.parametrize("bad", ["13-01", "7-1-2", "02-30"])
def test_bad_fiscal_year_start_is_an_error(bad: str) -> None:
    with pytest.raises(ValueError, match="MM-DD"):
        fiscal_year_start(dt.date(2022, 1, 1), bad)
    after = apply(ledger(), Cutover(fiscal_year_start=bad))
    assert [p.severity for p in after.problems] == ["error"]


def test_figures_fiscal_year_from_july() -> None:
    daily = [
        ("Sales", T.INCOME, [(dt.date(2022, 6, 30), D("-5")), (dt.date(2022, 7, 1), D("-7"))]),
        ("RE", T.EQUITY, [(dt.date(2020, 1, 1), D("-1"))]),
        (
            "Cash",
            T.BANK,
            [
                (dt.date(2022, 6, 30), D("5")),
                (dt.date(2022, 7, 1), D("7")),
                (dt.date(2022, 8, 1), D("100")),
            ],
        ),
    ]
    got = figures(daily, "RE", dt.date(2022, 7, 31), dt.date(2022, 7, 1))
    assert got == {"Sales": D("-7"), "RE": D("-6"), "Cash": D("12")}


@pytest.mark.parametrize("days", [20, -20])
def test_an_export_dated_after_today_is_said(tmp_path, days: int) -> None:
    """QuickBooks' sample companies (the real Enterprise sample is dated 2026-12-15) and a
    computer whose clock runs ahead date the lists export in the future: the figures are still
    taken as of that day, with a warning naming the file's line (and no setting to change: a
    typed export date is the file's own day); an export dated in the past says nothing of it."""
    from app import pipeline
    from app.plan import Plan
    from tests.support.companygen import make_company

    today = dt.date.today()
    company = make_company(60, seed=3, start=today - dt.timedelta(days=400), years=1)
    exported = today + dt.timedelta(days=days)
    company = dataclasses.replace(company, exported=max(exported, company.transactions[-1].date))
    lists = company.write_lists_iif(tmp_path / "lists.iif")
    prepared = pipeline.prepare(pipeline.read([lists], Plan()), Plan())
    assert prepared.outline.as_of is not None
    assert prepared.outline.as_of.date == company.export_date
    ahead = [p for p in prepared.warnings if "after today" in p.message]
    if days < 0:
        assert ahead == []
        return
    # no control to send the user to: a typed export date other than the file's own day is
    # refused (a walk followed "type that day as the export date" into a blocked import)
    assert [(str(p.source), p.fix) for p in ahead] == [("lists.iif:2", "")]
    assert ahead[0].message.startswith(
        f"QuickBooks dated this export {exported}, after today ({today}): "
    )
    assert ahead[0].message.endswith(
        "nothing to change here: a file's figures are of the day it says)"
    )


def test_two_lists_exports_of_different_days_point_at_the_older(tmp_path) -> None:
    """Lists exports of two days (an older one adding an account): the warning stands at the
    older file's date line and says to leave it out (it pointed at the newer file and said to
    check every transaction file, a walk's with every real sample at once)."""
    from app import pipeline
    from app.plan import Plan
    from tests.support.companygen import make_company

    company = make_company(60, seed=3)
    lists = company.write_lists_iif(tmp_path / "lists.iif")
    day = company.export_date - dt.timedelta(days=30)
    old = tmp_path / "old.iif"
    old.write_text(
        "!HDR\tPROD\tVER\tREL\tIIFVER\tDATE\tTIME\tACCNTNT\tACCNTNTSPLITTIME\n"
        f"HDR\tQuickBooks Pro\tVersion 28.0D\tRelease R9P\t1\t{day}\t1546300800\tN\t0\n"
        "!ACCNT\tNAME\tACCNTTYPE\tOBAMOUNT\nACCNT\tPetty Cash\tBANK\t0.00\n",
        encoding="utf-8",
    )
    prepared = pipeline.prepare(pipeline.read([lists, old], Plan()), Plan())
    said = [p for p in prepared.warnings if "the latest are used" in p.message]
    assert [(str(p.source), p.fix) for p in said] == [("old.iif:2", "remove")]
    assert said[0].message.startswith(
        f"this file's balances are QuickBooks' of {day}, and lists.iif's of {company.export_date}"
    )


def test_a_cutover_date_that_is_not_the_day_of_the_figures_is_refused(tmp_path) -> None:
    """Only the balances posts QuickBooks' figures on the cutover date: a cutover on another
    day than theirs would date one day's balances another, so it is refused, naming both days
    and the two ways to start on another day (the archive split with the whole history, or
    QuickBooks' files of that day)."""
    from app import pipeline
    from app.plan import Cutover, Plan
    from tests.support.companygen import make_company

    company = make_company(60, seed=3)
    lists = company.write_lists_iif(tmp_path / "lists.iif")
    parsed = pipeline.read([lists], Plan())
    day = company.export_date - dt.timedelta(days=40)
    plan = Plan(cutover=Cutover(mode="balances_only", date=day.isoformat()))
    (said,) = [p for p in pipeline.prepare(parsed, plan).errors if p.fix == "cutover_date"]
    assert str(said.source) == "lists.iif:2"
    assert said.message.startswith(
        f"the cutover date {day} is not the day of QuickBooks' figures in lists.iif, "
        f"{company.export_date}: the book would start on {day} with the balances of "
        f"{company.export_date}; set the cutover date to {company.export_date}"
    )
    assert "keep it in an archive book and start a working book on that day" in said.message
    good = Plan(cutover=Cutover(mode="balances_only", date=company.export_date.isoformat()))
    assert not [p for p in pipeline.prepare(parsed, good).problems if p.fix == "cutover_date"]


def test_an_export_date_given_that_reads_the_header_s_date_the_other_way_is_taken(tmp_path):
    """The lists' HDR "5/11/2021" with no TIME to tell its order, read as 11 May: the export
    date given, 2021-11-05, was refused as "not the day lists.iif gives, give 2021-05-11" (hunt
    19). It is that day read D/M/Y: taken. Another day still is not."""
    from dataclasses import replace

    from app import pipeline
    from app.plan import Plan

    lists = tmp_path / "lists.iif"
    lists.write_text(
        "!HDR\tPROD\tVER\tDATE\n"
        "HDR\tQuickBooks Pro\tVersion 28.0D\t5/11/2021\n"
        "!ACCNT\tNAME\tACCNTTYPE\tOBAMOUNT\n"
        "ACCNT\tChecking\tBANK\t10.00\n"
        "ACCNT\tOpening Balance Equity\tEQUITY\t-10.00\n",
        encoding="utf-8",
    )
    for given, refused in (("2021-11-05", False), ("2021-11-06", True)):
        plan = Plan()  # (no TIME: 5/11/2021 read either way; the day given settles it)
        plan = replace(plan, cutover=replace(plan.cutover, export_date=given))
        prepared = pipeline.prepare(pipeline.read([lists], plan), plan)
        said = [e.message for e in prepared.errors if "is not the day" in e.message]
        assert bool(said) == refused, said
        if not refused:
            assert prepared.ledger.as_of is not None
            assert str(prepared.ledger.as_of.date) == given
    # a TIME stamp (2021-11-05) settles it: the day read the other way is refused (hunt 21)
    lists.write_text(
        lists.read_text(encoding="utf-8")
        .replace("!HDR\tPROD\tVER\tDATE\n", "!HDR\tPROD\tVER\tDATE\tTIME\n")
        .replace("\t5/11/2021\n", "\t5/11/2021\t1636070400\n"),
        encoding="utf-8",
    )
    plan = Plan()
    plan = replace(plan, cutover=replace(plan.cutover, export_date="2021-05-11"))
    prepared = pipeline.prepare(pipeline.read([lists], plan), plan)
    assert any("is not the day lists.iif gives" in e.message for e in prepared.errors)

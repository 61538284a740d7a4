"""The generated company's summary reports, which hold only totals (issue 27, item 7): a Profit &
Loss and a Balance Sheet as QuickBooks saves them as CSV (title rows, a label column indented by
section, one amount column, Total and Net Income rows). qb2gnucash must refuse them as such and
say what to export instead; their truth is the totals they print (``summary_truth``)."""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path
from typing import TYPE_CHECKING

from tests.support.companygen_data import BALANCE_SHEET
from tests.support.companygen_write import _write_csv, money

if TYPE_CHECKING:
    from tests.support.companygen import Company

ZERO = Decimal(0)
INCOME = frozenset({"INC", "EXINC"})


def summary_truth(company: Company, report: str) -> dict[str, Decimal]:
    """The figures the report prints, per account: "pnl" income positive and expense positive
    for the fiscal year to the export date (its last row the net income); "balance" the
    balance-sheet accounts as of then, debit positive (its TOTAL row zero)."""
    figures = company.trial_balance()
    out = {}
    for name, value in figures.items():
        kind = company.account_type(name)
        if report == "pnl" and kind not in BALANCE_SHEET and kind != "NONPOSTING" and value:
            out[name] = -value if kind in INCOME else value
        if report == "balance" and kind in BALANCE_SHEET and value:
            out[name] = value
    return out


ASSETS = frozenset({"BANK", "AR", "OCASSET", "FIXASSET", "OASSET"})


def write_summary_csv(company: Company, path: Path, report: str, *, titles: bool = True) -> Path:
    """``report``: "pnl" (Reports › Company & Financial › Profit & Loss Standard) or "balance"
    (… › Balance Sheet Standard). Without ``titles``: as QuickBooks saves it when its header is
    left out (Customize Report › Header/Footer), with its own group rows (Ordinary
    Income/Expense, Net Ordinary Income; TOTAL ASSETS, TOTAL LIABILITIES & EQUITY) to tell it by."""
    truth = summary_truth(company, report)
    day = company.export_date
    begin = company.fiscal_year_begin()
    title = "Profit & Loss" if report == "pnl" else "Balance Sheet"
    period = (
        f"{begin:%B} {begin.day} through {day:%B} {day.day}, {day.year}"
        if report == "pnl"
        else f"As of {day:%B} {day.day}, {day.year}"
    )
    column = (
        f"{begin:%b} {begin.day} - {day:%b} {day.day}, {day.year:02}"
        if report == "pnl"
        else (f"{day:%b} {day.day}, {day.year}")
    )
    rows = [["", company.name, ""], ["", title, ""], ["", period, ""], ["", "", column]]
    labels = company.labels()
    total = ZERO
    for name, value in truth.items():
        rows.append(["", "      " + labels[name], money(value)])
        income = company.account_type(name) in INCOME
        total += value if report == "balance" or income else -value  # net income, or zero
    if report == "balance":  # this year's income, in equity until the year is closed
        rows.append(["", "      Net Income", money(-total)])
        total = ZERO
    last = "Net Income" if report == "pnl" else "TOTAL"
    rows.append([last, "", money(total)])
    if not titles:
        rows = rows[3:]
        if report == "pnl":
            rows.insert(1, ["Ordinary Income/Expense", "", ""])
            rows.insert(-1, ["Net Ordinary Income", "", money(total)])
        else:
            assets = sum((v for n, v in truth.items() if company.account_type(n) in ASSETS), ZERO)
            rows.insert(-1, ["TOTAL ASSETS", "", money(assets)])
            rows.insert(-1, ["TOTAL LIABILITIES & EQUITY", "", money(assets)])
    return _write_csv(path, rows, "utf-8")

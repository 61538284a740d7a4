"""A file cut at QuickBooks' export cap, for the tests of what happens to one."""

from __future__ import annotations

import datetime as dt
from pathlib import Path


def cut_journal(path: Path, lines: int = 32768) -> Path:
    """A Journal of two-line checks cut by QuickBooks' export cap after ``lines`` lines, inside
    its last transaction (its Rent line is there, its Checking line is not)."""
    rows = ["Rock Castle", "Journal", ",Trans #,Type,Date,Num,Name,Memo,Account,Debit,Credit"]
    while (lines - 1 - len(rows)) % 4:
        rows.insert(2, "")
    n = 0
    while len(rows) < lines:
        n += 1
        day = dt.date(2021, 1, 1) + dt.timedelta(days=n // 40)
        rows += [
            f",{n},Check,{day:%m/%d/%Y},{n},,,Rent,10.00,",
            ",,,,,,,Checking,,10.00",
            ",,,,,,,,10.00,10.00",
            "",
        ]
    path.write_text("\n".join(rows[:lines]) + "\n")
    return path

"""Exports changed by their text: as QuickBooks changes a company between two exports (a class
renamed in the lists and on every line: docs/UPDATE.md, "A class renamed in QuickBooks"), or as
a report of another day disagrees with the history (a bill left out of the Unpaid Bills report)."""

from __future__ import annotations

import csv
from pathlib import Path


def renamed_class(paths: list[Path], old: str, new: str) -> None:
    """The lists and the journal with the class ``old`` named ``new`` (``new`` empty: the lines
    unclassed, the list naming it "Creative")."""
    for path in paths[:2]:
        text = path.read_text(encoding="utf-8")
        listed = f"\t{new or 'Creative'}\t"
        path.write_text(
            text.replace(f"CLASS\t{old}\t", f"CLASS{listed}")
            .replace(f"\t{old}\t", f"\t{new}\t")
            .replace(f",{old},", f",{new},"),
            encoding="utf-8",
        )


def bill_left_out(report: Path) -> str:
    """The Unpaid Bills report ``report`` with its first bill's row left out (the vendor's
    Total row kept): the proof then differs for that vendor. Returns the vendor."""
    rows = list(csv.reader(report.read_text(encoding="utf-8").splitlines()))
    cut = next(i for i, r in enumerate(rows) if len(r) > 5 and r[2] == "Bill")
    vendor = rows[cut][5]
    kept = rows[:cut] + rows[cut + 1 :]
    report.write_text("".join(",".join(f'"{c}"' for c in r) + "\n" for r in kept), "utf-8")
    return vendor

"""Exports changed as QuickBooks changes a company between two exports, by their text: a class
renamed in the lists and on every line (docs/UPDATE.md, "A class renamed in QuickBooks")."""

from __future__ import annotations

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

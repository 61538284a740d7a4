"""QuickBooks classes (its department / fund / location dimension) in GnuCash's words: a split's
class. Issue 26; docs/CLASSES.md.

A split carries its class as ``Split.klass`` (the class's full name, ``Parent:Child``, levels
trimmed, "" for none), read from IIF ``SPL``/``TRNS`` ``CLASS`` cells and from a CSV report's
Class column where the user added one. ``SplitClass`` is a row of the class list (IIF
``CLASS``, in the "Lists to IIF Files" export), with its file and line. The plan's choice
(``accounts``, ``memo``, ``none``) is applied by ``app.classes_stage``; the P&L by class is
``app.classes_pnl``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from app.source import Source

SLOT = "qb-class"  # the split's KVP slot holding its class (a string): docs/CLASSES.md
SUB_ACCOUNT = "QuickBooks class "  # a class sub-account's description: this, then the class


@dataclass(frozen=True, slots=True)
class SplitClass:
    """One class of QuickBooks' class list. ``name`` is its full name (``Parent:Child``)."""

    name: str
    source: Source
    hidden: bool = False

    @property
    def leaf(self) -> str:
        return self.name.rsplit(":", 1)[-1]


def class_name(text: str) -> str:
    """A class cell as a full name: ``" Landscaping : Residential "`` → ``Landscaping:Residential``
    (empty levels dropped)."""
    if not text:
        return ""
    return ":".join(p.strip() for p in text.split(":") if p.strip())


def memo_with(klass: str, memo: str) -> str:
    """The split's memo with its class in front: ``[East Store] Rent for May``."""
    return f"[{klass}] {memo}".rstrip() if klass else memo


def renamed(klass: str, names: Mapping[str, str]) -> str:
    """``klass`` renamed by ``names`` (a class's full name → its new one; its sub-classes with
    it)."""
    for old, new in names.items():
        if klass == old or klass.startswith(f"{old}:"):
            return new + klass[len(old) :]
    return klass


def memo_renamed(memo: str, names: Mapping[str, str]) -> str:
    """A memo ``memo_with`` made (or a document line's description copied from one), its class
    renamed by ``names``; any other memo as it is."""
    klass, sep, rest = memo[1:].partition("]") if memo.startswith("[") else ("", "", "")
    new = renamed(klass, names) if sep else klass
    return f"[{new}]{rest}" if new != klass else memo

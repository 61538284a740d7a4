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

from dataclasses import dataclass

from app.source import Source

SLOT = "qb-class"  # the split's KVP slot holding its class (a string): docs/CLASSES.md


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

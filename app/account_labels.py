"""Account labels as reports print them: ``7751 · Gas and Electric``, ``6200 - Automobile:6210 -
Fuel``, a bare number, ``Checking (Main account)``; read into their name, code and description
(``parse_label``), and looked up in a chart by full name, code and every suffix path
(``ChartIndex``). ``app.resolve`` places a history's labels with them."""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Callable, Iterable

from app.model import Account

_PREFIX = re.compile(r"\s*(\d[\w.]*)(?:\s*[·—–]\s*|\s+-\s+)(.+?)\s*")
NUMBER = re.compile(r"\s*\d[\d.]*\s*")  # a bare account number (IIF SPL rows, Reckon exports)
_PAREN = re.compile(r"(.+?)\s*\(([^()]*)\)\s*")


def split_prefix(level: str) -> tuple[str, str]:
    """``"6210 · Fuel"`` → ``("6210", "Fuel")``; a level without a number → ``("", level)``."""
    m = _PREFIX.fullmatch(level)
    return (m[1], m[2]) if m else ("", level.strip())


def canonical(accounts: tuple[Account, ...]) -> Callable[[str], str]:
    """A function giving the chart full name a label resolves to without a plan (the label
    itself when unknown or ambiguous); without a chart, the label with numbers stripped. Used
    to recognise one transaction exported twice with different account labels."""
    index = ChartIndex(accounts) if accounts else None
    memo: dict[str, str] = {}

    def name(label: str) -> str:
        if label not in memo:
            if index is None:
                memo[label] = parse_label(label)[0]
            else:
                found = index.find(label)
                memo[label] = found[0] if len(found) == 1 else label
        return memo[label]

    return name


class ChartIndex:
    """Lookups over a chart: full name, code, and every suffix path (leaf, ``Parent:Leaf``...)."""

    def __init__(self, accounts: tuple[Account, ...]) -> None:
        self.full = {a.full_name for a in accounts}
        self.code: dict[str, list[str]] = defaultdict(list)
        self.suffix: dict[str, list[str]] = defaultdict(list)
        self.folded: dict[str, list[str]] = defaultdict(list)
        for a in accounts:
            if a.code:
                self.code[a.code.strip()].append(a.full_name)
            levels = a.full_name.split(":")
            for i in range(len(levels)):
                tail = ":".join(levels[i:])
                self.suffix[tail].append(a.full_name)
                self.folded[tail.casefold()].append(a.full_name)

    def find(self, label: str) -> list[str]:
        """Matches for ``label`` by the first rule that finds any (several = ambiguous)."""
        label = label.strip()
        if label in self.full:
            return [label]
        levels = [split_prefix(level) for level in label.split(":")]
        if any(code for code, _ in levels):
            code = levels[-1][0]
            found = self.code.get(code, []) if code else []
            found = found or self.by_name(":".join(name for _, name in levels))
            if found:
                return found
        if NUMBER.fullmatch(label) and self.code.get(label):
            return self.code[label]
        found = self.by_name(label)  # also a name that merely looks numbered ("401K - Match")
        m = _PAREN.fullmatch(label)
        if not found and m:
            return self.find(m[1])
        return found

    def by_name(self, path: str) -> list[str]:
        if path in self.full:
            return [path]
        return sorted(set(self.suffix.get(path) or self.folded.get(path.casefold(), [])))


def parse_label(label: str) -> tuple[str, str, str]:
    """(full name, code of the leaf, description) of a report label, numbers stripped."""
    text, description = label.strip(), ""
    m = _PAREN.fullmatch(text)
    if m:
        text, description = m[1], m[2].strip()
    levels = [split_prefix(level) for level in text.split(":")]
    code = levels[-1][0]
    if NUMBER.fullmatch(text):
        code = text.strip()
    return ":".join(name for _, name in levels), code, description


def prefix_code(label: str, parent: str) -> str:
    depth = parent.count(":") + 1
    levels = label.split(":")
    return split_prefix(levels[depth - 1])[0] if len(levels) >= depth else ""


def parents(full: str) -> list[tuple[str, str]]:
    """(parent, child) pairs from the leaf upwards: ``A:B:C`` → (A:B, A:B:C), (A, A:B)."""
    levels = full.split(":")
    return [
        (":".join(levels[:i]), ":".join(levels[: i + 1])) for i in range(len(levels) - 1, 0, -1)
    ]


def numbers_named(labels: Iterable[str], elsewhere: Iterable[str]) -> dict[str, str]:
    """Bare account numbers among ``labels`` (``1204``) → the one label naming that number
    among ``labels`` and ``elsewhere`` (another column of the same report, e.g. its Split
    cells: ``1204 · Choices Flooring Noosaville``); a number named two ways, or never, is left
    out."""
    labels = list(labels)
    bare = {label for label in labels if NUMBER.fullmatch(label)}
    if not bare:
        return {}
    found: dict[str, set[str]] = defaultdict(set)
    for cell in (*elsewhere, *labels):
        label = cell.strip()
        code = parse_label(label)[1]
        if code in bare and label not in bare:
            found[code].add(label)
    return {code: next(iter(named)) for code, named in found.items() if len(named) == 1}

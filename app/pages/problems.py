"""The Preview's problems: the ones that must be fixed first, each with what to do and a link to
the step (and the place on it) where that is done; warnings of one kind (the same finding for
many accounts or lines) gathered under one line with their count. No Flask here.

A problem about a file none of the readers could read (a letter, a JSON file, a report of
totals) is fixed by removing that file on the Files step: its fix says so and links to the
file's Remove button (``files.remove_id``)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from app.fixes import action, step
from app.model import Fix, Ledger, Problem
from app.pages.files import remove_id
from app.pages.preview import SearchIndex, anchor
from app.pages.side_by_side import FIELD
from app.words import plural

GROUP_FROM = 3  # this many findings of one kind are shown as one line and a list to open
_NUMBERS = re.compile(r"-?\d[\d,.]*")  # what differs between findings of one kind
_QUOTED = re.compile(r"'[^']*'|“[^”]*”")  # and the names they quote ("account 'Rent' appears…")
RANK = {"error": 0, "warning": 1, "note": 2}  # must fix, then warnings, then notes
NO_FIX = "fix the file and upload it again, or resolve it on the Map step"


@dataclass(frozen=True, slots=True)
class ProblemRow:
    severity: str
    where: str
    message: str  # the finding alone; ``fix`` says what to do about it
    link: str  # "" or a fragment/query the page turns into a link
    page: str  # "transactions" or "accounts" or ""
    fix: Fix = ""
    fix_words: str = ""  # what to do, in the wizard's words ("" when nothing is set)
    step: str = ""  # "files" or "map": the step where that is done
    place: str = ""  # the fragment of that step's page it is done at ("#remove-letter_txt")

    @property
    def kind(self) -> tuple[str, ...]:
        """What findings of one kind share: severity, fix and the message without the account
        or name it starts with, without its figures and dates and the names it quotes."""
        tail = self.message.partition(": ")[2] or self.message
        return (self.severity, self.fix, _NUMBERS.sub("#", _QUOTED.sub("…", tail)))


@dataclass(frozen=True, slots=True)
class ProblemGroup:
    """Findings of one kind: one alone, or ``GROUP_FROM`` and more shown as one line with their
    count (the first of them as the example) and the whole list to open."""

    rows: tuple[ProblemRow, ...]

    @property
    def first(self) -> ProblemRow:
        return self.rows[0]


@dataclass(frozen=True, slots=True)
class Problems:
    rows: tuple[ProblemRow, ...]  # must-fix first, then the warnings, then the notes
    groups: tuple[ProblemGroup, ...]  # the same, findings of one kind together
    must_fix: str  # what the must-fix problems take, for the banner ("" without any)

    @property
    def errors(self) -> int:
        return sum(1 for r in self.rows if r.severity == "error")


def problem_rows(
    problems: Sequence[Problem], ledger: Ledger, index: SearchIndex
) -> list[ProblemRow]:
    """Each problem with its link to the row it is about and what to do, must-fix first."""
    accounts = {str(a.source) for a in ledger.accounts}
    unread = {f.filename for f in ledger.files if f.layout == "not read"}
    rows = []
    for p in problems:
        where = str(p.source) if p.source else ""
        if where and where in index.at:
            link, page = where, "transactions"
        elif where and where in accounts:
            link, page = anchor(p.source), "accounts"
        else:
            link, page = "", ""
        fix, place = p.fix, ""
        if p.source and p.source.filename in unread and p.severity == "error" and not fix:
            fix, place = "remove", "#" + remove_id(p.source.filename)
        at = step(fix) or ""
        if at == "map":
            place = FIELD.get(fix, "#settings")
        words = action(fix, "wizard")
        rows.append(ProblemRow(p.severity, where, p.message, link, page, fix, words, at, place))
    return sorted(rows, key=lambda r: RANK[r.severity])


def problems_view(problems: Sequence[Problem], ledger: Ledger, index: SearchIndex) -> Problems:
    rows = problem_rows(problems, ledger, index)
    kinds: dict[tuple[str, ...], list[ProblemRow]] = {}
    for r in rows:
        kinds.setdefault(r.kind, []).append(r)
    groups: list[ProblemGroup] = []
    for same in kinds.values():
        if len(same) >= GROUP_FROM:
            groups.append(ProblemGroup(tuple(same)))
        else:
            groups += (ProblemGroup((r,)) for r in same)
    groups.sort(key=lambda g: RANK[g.first.severity])
    errors = [r for r in rows if r.severity == "error"]
    return Problems(tuple(rows), tuple(groups), must_fix(errors) if errors else "")


def must_fix(errors: Sequence[ProblemRow]) -> str:
    """What the must-fix problems take, by the step each one's fix is on: only the steps that
    help with the problems there are."""
    removed = len({r.where.rpartition(":")[0] for r in errors if r.fix == "remove"})
    parts = []
    if removed:
        files = "the file that is not" if removed == 1 else f"the {removed} files that are not"
        exports = "a QuickBooks export" if removed == 1 else "QuickBooks exports"
        parts.append(f"on the Files step, remove {files} {exports}")
    if any(r.step == "files" and r.fix != "remove" for r in errors):
        parts.append("on the Files step, add or export again the file each one names")
    if any(r.step == "map" for r in errors):
        parts.append("on the Map step, make the setting each one names")
    if any(not r.step for r in errors):
        parts.append(("for the others, " if parts else "") + NO_FIX)
    said = plural(len(errors), "problem")
    return f"{said} must be fixed before the book can be written: {'; '.join(parts)}."

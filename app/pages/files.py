"""The Files step's view model: one card per uploaded file."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from app.model import FileInfo, Ledger, Problem
from app.readers.qbcsv.columns import mappable


@dataclass(frozen=True, slots=True)
class FileCard:
    name: str
    kind: str
    size: int
    info: FileInfo
    problems: tuple[Problem, ...]
    read: bool
    needs_columns: bool  # a CSV no layout claims: offer the hand mapping

    @property
    def error_count(self) -> int:
        return sum(1 for p in self.problems if p.severity == "error")


def file_cards(paths: Sequence[Path], parsed: Ledger) -> list[FileCard]:
    infos = {f.filename: f for f in parsed.files}
    cards = []
    for p in paths:
        info = infos.get(p.name, FileInfo(p.name, "not read"))
        problems = tuple(x for x in parsed.problems if x.source and x.source.filename == p.name)
        read = info.layout != "not read"
        cards.append(
            FileCard(
                p.name,
                info.kind,
                p.stat().st_size,
                info,
                problems,
                read,
                needs_columns=info.layout in ("not read", "hand") and mappable(p),
            )
        )
    return cards

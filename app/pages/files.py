"""The Files step's view model: one card per uploaded file, with every problem found in it (when
it is read and when the book is prepared from it), and which of the files just added to say
"Added" for (one that cannot be read is said by a line pointing at its red card instead)."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from app.model import FileInfo, Ledger, Problem
from app.quickbooks import EXPORTS
from app.readers import NOT_KEPT
from app.readers.qbcsv.columns import mappable
from app.store import Withheld


@dataclass(frozen=True, slots=True)
class FileCard:
    name: str
    kind: str
    size: int
    info: FileInfo
    problems: tuple[Problem, ...]
    read: bool
    needs_columns: bool  # a CSV no layout claims: offer the hand mapping
    needs_chart: bool = False  # transactions, but no chart of accounts uploaded: ask for the lists
    kept: bool = True  # False: no copy kept (app.store.Withheld): only its size and SHA-256
    sha256: str = ""
    twin_of: str = ""  # an earlier upload with the very same content

    @property
    def error_count(self) -> int:
        return sum(1 for p in self.problems if p.severity == "error")

    @property
    def remove_id(self) -> str:
        return remove_id(self.name)


def remove_id(name: str) -> str:
    """The HTML id of a file's Remove button on the Files step (another step's "remove it" links
    there)."""
    return "remove-" + re.sub(r"[^A-Za-z0-9_-]", "_", name)


def file_cards(
    paths: Sequence[Path],
    parsed: Ledger,
    prepared: Sequence[Problem] = (),
    withheld: Sequence[Withheld] = (),
    twins: Mapping[str, str] | None = None,
) -> list[FileCard]:
    """``prepared``: the problems of preparing the book (they name the file and line they come
    from, like the reading's own); ``withheld``: the files given of which no copy is kept, each
    with its card after the others; ``twins``: a file → the earlier one with its content."""
    twins = twins or {}
    infos = {f.filename: f for f in parsed.files}
    found = tuple(dict.fromkeys((*parsed.problems, *prepared)))  # reading's first, no twice
    no_chart = not parsed.accounts
    cards = []
    for p in paths:
        info = infos.get(p.name, FileInfo(p.name, "not read"))
        problems = tuple(x for x in found if x.source and x.source.filename == p.name)
        read = info.layout != "not read"
        has_history = any(what == "Transactions" and n for what, n in info.counts)
        cards.append(
            FileCard(
                p.name,
                info.kind,
                p.stat().st_size,
                info,
                problems,
                read,
                needs_columns=info.layout in ("not read", "hand") and mappable(p),
                needs_chart=read and no_chart and has_history,
                twin_of=twins.get(p.name, ""),
            )
        )
    for w in withheld:
        problems = tuple(x for x in found if x.source and x.source.filename == w.name)
        info = FileInfo(w.name, w.kind or NOT_KEPT)
        cards.append(
            FileCard(
                w.name,
                w.kind or NOT_KEPT,
                w.size,
                info,
                problems or w.problems,
                read=False,
                needs_columns=False,
                kept=False,
                sha256=w.sha256,
            )
        )
    return cards


@dataclass(frozen=True, slots=True)
class Export:
    """One line of the Files step's export checklist: ticked once a file of its kind is read."""

    key: str
    what: str
    menu: str  # where in QuickBooks
    needed: bool
    files: tuple[str, ...]  # the uploads that provide it

    @property
    def done(self) -> bool:
        return bool(self.files)


def checklist(cards: Sequence[FileCard]) -> list[Export]:
    """The exports to make, each with the files already given for it."""
    return [
        Export(key, what, menu, needed, tuple(c.name for c in cards if c.info.layout in layouts))
        for key, what, menu, needed, layouts in EXPORTS
    ]


def twins(digests: Mapping[str, str]) -> dict[str, str]:
    """Each upload whose content is byte for byte an earlier one's (``digests``: name → SHA-256,
    in upload order) → that earlier upload: the same export given twice under two names."""
    first: dict[str, str] = {}
    out = {}
    for name, digest in digests.items():
        if digest in first:
            out[name] = first[digest]
        else:
            first.setdefault(digest, name)
    return out


def said_added(added: Sequence[str], cards: Sequence[FileCard]) -> tuple[str, ...]:
    """The files just added that were read (or wait for their columns): the rest are said once,
    by their own card, not also as "Added"."""
    by_name = {c.name: c for c in cards}
    return tuple(n for n in added if n in by_name and (by_name[n].read or by_name[n].needs_columns))


def said_refused(
    added: Sequence[str], cards: Sequence[FileCard]
) -> tuple[tuple[str, str, int], ...]:
    """The files just added that could not be read, said at once where the upload is (their
    cards may be out of sight): name, the card's label ("Not a QuickBooks export", "Totals
    only"...) and the card's place (1-based)."""
    place = {c.name: (c, i) for i, c in enumerate(cards, 1)}
    return tuple(
        (n, place[n][0].kind, place[n][1])
        for n in added
        if n in place and not place[n][0].read and not place[n][0].needs_columns
    )

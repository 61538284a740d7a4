"""The wizard's "Bring an existing book up to date": the books it can offer (those its earlier
migrations wrote, into a file or a PostgreSQL database) and the result of an update as plain
JSON (``update/result.json`` in the migration's folder), read by the result page.
docs/UPDATE.md."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from app.update_run import UpdateOutcome
from app.update_words import held_line, own_words, said_of
from app.words import plural

RESULT = "result.json"
FOLDER = "update"  # the migration's subfolder holding the book being brought up to date


@dataclass(frozen=True, slots=True)
class Earlier:
    """A book an earlier migration wrote, offered to bring up to date."""

    mid: str
    company: str
    book: str  # its file name, or its database's address
    written: str  # when
    state: str = ""  # its proof's verdict: "Matches QuickBooks to the cent", "Brought up to…"
    updated: bool = False  # an update's: the book it brought up to date
    database: bool = False  # in PostgreSQL (``book`` its address, no password)


Found = tuple[str, str, Path | str | None, float, str, bool]


def earlier_books(found: Iterable[Found]) -> list[Earlier]:
    """(migration id, company, its book's path, or its database's address, or None, when
    written (a timestamp), its verdict, an update's) → the ones still there, the latest
    first."""
    books = sorted(found, key=lambda b: b[3], reverse=True)
    return [
        Earlier(mid, company or path, path, _when(when), state, updated, True)
        if isinstance(path, str)
        else Earlier(mid, company or path.name, path.name, _when(when), state, updated)
        for mid, company, path, when, state, updated in books
        if isinstance(path, str) or (path is not None and path.is_file())
    ]


def _when(timestamp: float) -> str:
    return dt.datetime.fromtimestamp(timestamp).strftime("%Y-%m-%d %H:%M") if timestamp else ""


def result(outcome: UpdateOutcome, book: str, database: str = "") -> dict:
    """What the result page shows, kept as JSON beside the book (``database``: the address of
    a book in PostgreSQL, brought up to date there)."""
    report = outcome.report
    work = outcome.work
    return {
        "book": book,
        "database": database,
        "written": outcome.written,
        "lines": outcome.lines("wizard"),
        "added": len(work.add),
        "held": len(work.held),
        "by_hand": len(work.added_here),
        "edited": len(work.edited_here),
        "deleted": len(work.deleted_here),
        "ok": bool(report and report.ok),
        "own": own_words(work),  # (what was done in GnuCash: never called matching)
        "explained": outcome.explained,
        "differs": outcome.differs,  # (by more than what is held or kept)
        "verification": report.summary_lines("wizard", differences=False) if report else [],
        "differences": report.difference_lines("wizard") if report else [],
        "held_changes": [
            {"key": h.key, "said": held_line(h, outcome.ledger, "wizard"), "kept": h.kept}
            for h in work.held
        ]
        + [
            {"key": r.key, "said": r.said("wizard"), "kept": r.kept, "rename": True}
            for r in outcome.renamed
            if not r.taken
        ]
        + [
            {"key": h.key, "said": h.said("wizard"), "kept": h.kept, "budget": True}
            for h in outcome.budgets.differ
        ]
        + [
            {
                "key": work.keys[i],
                "said": f"{said_of(outcome.ledger.transactions[i])}: deleted in GnuCash since "
                "the last run; QuickBooks still has it",
                "kept": outcome.plan.held.get(work.keys[i]) == "book",
                "deleted": True,
            }
            for i in work.deleted_here
        ],
        "deltas": [
            {
                "account": d.account,
                "added": str(d.added),
                "quickbooks": str(d.quickbooks),
                "ok": d.ok,
                "why": d.why,
            }
            for d in outcome.deltas
        ],
    }


def choices(held: dict) -> list[tuple[str, str]]:
    """A held change's two buttons on the result page, (choice, words), QuickBooks' first; the
    words also say the decision once made ("Your decisions")."""
    if held.get("deleted"):  # deleted in GnuCash since the last run: app/update_deleted.py
        return [("quickbooks", "Put it back"), ("book", "Keep it deleted")]
    if held.get("budget"):
        return [("quickbooks", "Take QuickBooks' budget"), ("book", "Keep the book's")]
    if held.get("rename"):
        return [("quickbooks", "Rename it as QuickBooks has it"), ("book", "Keep the book's name")]
    if held["key"].startswith("twice:"):  # entered in both: app/update_twice.py
        return [("quickbooks", "Remove GnuCash's copy"), ("book", "Keep both (two transactions)")]
    return [("quickbooks", "Take QuickBooks' version"), ("book", "Keep the book's")]


def shown(data: dict) -> dict:
    """The result as its page shows it: each held change with its two buttons."""
    held = [{**h, "choices": choices(h)} for h in data.get("held_changes", [])]
    return {**data, "held_changes": held}


def decided(done: dict, key: str, choice: str) -> list[dict]:
    """Every decision made on the result page so far, in order, this one last: each run that
    applies one says only what that run changed, so the page keeps the list."""
    held = next(h for h in done["held_changes"] if h["key"] == key)
    words = dict(choices(held))[choice]
    return [*done.get("decisions", []), {"said": held["said"], "chosen": words}]


def updated_name(book: str) -> str:
    """The name the updated book downloads under: never the name of the book given (saved
    beside it, it would replace it): "Acme.gnucash" → "Acme-updated.gnucash", once."""
    path = Path(book)
    return f"{path.stem.removesuffix('-updated')}-updated{path.suffix}"


def earlier_run(data: dict) -> dict:
    """What the update itself did (its first run: what it added, its per-account table), kept
    on the result page after the runs that apply each decision, which add nothing new."""
    return {"lines": data.get("lines", []), "deltas": data.get("deltas", [])}


def home_state(data: dict) -> tuple[str, str]:
    """An update's result (``result.json``) as the home list says it, and its class: "ok",
    "warn" (differs by the changes held) or "error"."""
    if not data.get("written") and data.get("differs"):  # (an earlier run's proof differed)
        return "Nothing added: Needs your attention (it differs from QuickBooks)", "error"
    if not data.get("written") and data.get("own"):
        return "Already up to date: differs from QuickBooks by what was done in GnuCash", "warn"
    held = data.get("held_changes", ())
    if not data.get("written") and (undecided := [h for h in held if not h.get("kept")]):
        return f"Nothing added: {plural(len(undecided), 'change')} to decide", "warn"
    if not data.get("written") and any(not h.get("rename") for h in held):
        return "Nothing added: differs from QuickBooks by what you kept", "warn"
    if not data.get("written"):
        return "Already up to date: the book was not changed", "ok"
    if data.get("ok") and data.get("own"):
        return "Brought up to date: differs from QuickBooks by what was done in GnuCash", "warn"
    if data.get("ok"):
        return "Brought up to date: Matches QuickBooks to the cent", "ok"
    if data.get("explained"):
        parts = [f"{plural(int(data.get('held', 0)), 'change')} held"] if data.get("held") else []
        for key, what in (
            ("edited", "edited in GnuCash"),
            ("deleted", "deleted in GnuCash"),
            ("by_hand", "made in GnuCash alone"),
        ):
            if n := int(data.get(key, 0)):
                parts.append(f"{plural(n, 'transaction')} {what}")
        by = " and the ".join(parts) or "changes held"
        return f"Brought up to date: differs from QuickBooks by the {by}", "warn"
    return "Brought up to date: Needs your attention (it differs from QuickBooks)", "error"
